import type { FieldModel, SchemaModel, SourceLocation, TypeModel } from '../sdl/model.js';
import type { Filter } from '../store/port.js';
import { holdsStoredValues, storedCollectionOf, storedFieldOf } from './stored-names.js';

/**
 * What stored objects would look like to the new schema:
 * - VALUES_HIDDEN: a stored field the new schema no longer reads (removed, or renamed without a storage name);
 * - VALUES_MISSING: a non-null field the stored objects have no value for (added, renamed, or made non-null);
 * - VALUES_RETYPED: values stored under a type the new field cannot answer (`String` → `Int`, single → list);
 * - VALUES_NOT_IN_ENUM: values outside the new field's enum (a value removed, a `String` made an enum);
 * - OBJECTS_KEPT: a removed type whose objects stay in its collection until dropped.
 */
export type StoredDataProblemKind = 'VALUES_HIDDEN' | 'VALUES_MISSING' | 'VALUES_RETYPED' | 'VALUES_NOT_IN_ENUM' | 'OBJECTS_KEPT';

/** A change that matters only if some stored object matches `filter`: one existence query decides it. */
export interface StoredDataRisk {
  kind: StoredDataProblemKind;
  type: string;
  /** The GraphQL field; none for OBJECTS_KEPT. */
  field?: string;
  collection: string;
  filter: Filter;
  /** Whether stored objects matching it refuse the upload unless it says `force`. */
  blocking: boolean;
  /** The problem in words, completed by the example object found. */
  message: string;
  /** Where the new schema declares the field, when it does. */
  locations?: SourceLocation[];
}

const HAS_VALUE: Filter = { $exists: true, $ne: null };

/**
 * The stored-data questions a change from `previous` to `next` raises, compared by stored field name, so a
 * rename that keeps its storage name raises none. Object types both schemas have, removed ones, and added
 * ones are asked about. A removed type whose collection an added type now uses (a type renamed with
 * `@dgraph(type:)` keeping its storage) is compared field by field with that type. Any other added type's
 * collection may still hold the objects an earlier upload kept when it removed the type (OBJECTS_KEPT),
 * which the type now reads again; with no previous type to compare with, its fields are checked as added
 * fields. Pure: the store answers them in stored-data-check.ts.
 */
export function storedDataRisks(previous: SchemaModel, next: SchemaModel): StoredDataRisk[] {
  const risks: StoredDataRisk[] = [];
  const added = new Map<string, TypeModel>();
  for (const type of next.types.values()) {
    if (type.kind === 'type' && previous.types.get(type.name)?.kind !== 'type') added.set(storedCollectionOf(type), type);
  }
  for (const old of previous.types.values()) {
    if (old.kind !== 'type') continue;
    const type = next.types.get(old.name);
    if (type === undefined) {
      // Renamed onto the same collection (`@dgraph(type:)`): the new type reads the old one's objects.
      const collection = storedCollectionOf(old);
      const successor = added.get(collection);
      if (successor === undefined) {
        risks.push(objectsKept(old));
      } else {
        added.delete(collection);
        risks.push(...fieldRisks(old, successor, previous, next));
      }
    } else if (type.kind === 'type') {
      risks.push(...fieldRisks(old, type, previous, next));
    }
  }
  for (const type of added.values()) risks.push(...fieldRisks(undefined, type, previous, next));
  return risks;
}

function objectsKept(type: TypeModel): StoredDataRisk {
  return {
    kind: 'OBJECTS_KEPT',
    type: type.name,
    collection: storedCollectionOf(type),
    filter: {},
    blocking: false,
    // The drop endpoint names the collection (the type's name, unless @dgraph(type:) gave it another).
    message: `type ${type.name} is removed; its stored objects stay unreadable until the type comes back or DELETE /admin/collections/${storedCollectionOf(type)} drops them`,
  };
}

/**
 * The questions about `type`'s stored objects. A field with no previous one (an added field, or every field
 * of an added type: `old` absent) can still have values an earlier upload left stored; it is asked what needs
 * no old field to compare with: whether a non-null field's values are missing, an enum field's outside it.
 */
function fieldRisks(old: TypeModel | undefined, type: TypeModel, previous: SchemaModel, next: SchemaModel): StoredDataRisk[] {
  const collection = storedCollectionOf(type);
  const oldStored = old === undefined ? new Map<string, FieldModel>() : storedFields(old);
  const newStored = storedFields(type);
  const risks: StoredDataRisk[] = [];
  const risk = (kind: StoredDataProblemKind, field: FieldModel, filter: Filter, blocking: boolean, message: string, declared?: FieldModel): void => {
    risks.push({ kind, type: type.name, field: field.name, collection, filter, blocking, message, ...(declared ? { locations: [declared.loc] } : {}) });
  };
  for (const [stored, before] of oldStored) {
    if (newStored.has(stored)) continue;
    // A nullable field's values were optional: hiding them is reported, not refused.
    risk('VALUES_HIDDEN', before, { [stored]: HAS_VALUE }, before.nonNull,
      `${type.name}.${before.name} (${before.typeText}) is removed, but stored ${type.name} objects hold values of it, which no field would read`);
  }
  for (const [stored, field] of newStored) {
    const before = oldStored.get(stored);
    const where = `${type.name}.${field.name} (${field.typeText})`;
    if (field.nonNull && (before === undefined || !before.nonNull) && !(field.list && field.of.kind === 'relation')) {
      risk('VALUES_MISSING', field, { [stored]: null }, true,
        `${where} is non-null, but stored ${type.name} objects have no value for it, so reading them would fail`, field);
    }
    if (before !== undefined && !valuesReadableAs(before, field)) {
      risk('VALUES_RETYPED', field, { [stored]: HAS_VALUE }, true,
        `${where} was ${before.typeText}, and stored ${type.name} objects hold values of the old type`, field);
    } else if (field.of.kind === 'enum') {
      const allowed = [...(next.enums.get(field.of.enumName)?.values ?? [])];
      const outside = field.list ? { $elemMatch: { $nin: allowed } } : { $exists: true, $nin: [null, ...allowed] };
      if (!keepsEveryEnumValue(before, previous, allowed)) {
        risk('VALUES_NOT_IN_ENUM', field, { [stored]: outside }, true,
          `${where} answers only the values of enum ${field.of.enumName}, and stored ${type.name} objects hold other values`, field);
      }
    }
  }
  return risks;
}

/** The fields whose values the type's documents hold, by stored field name. */
function storedFields(type: TypeModel): Map<string, FieldModel> {
  return new Map(type.fields.filter(holdsStoredValues).map((field) => [storedFieldOf(field), field]));
}

/**
 * Whether values stored for `before` answer as `after` without an error: the same kind and shape, or a
 * widening GraphQL serializes the same value under (Int → Int64 or Float, ID ↔ String, enum → String).
 * Enum targets are readable here and checked value by value.
 */
export function valuesReadableAs(before: FieldModel, after: FieldModel): boolean {
  if (before.list !== after.list) return false;
  const from = before.of;
  const to = after.of;
  if (from.kind === 'relation' || to.kind === 'relation') {
    return from.kind === 'relation' && to.kind === 'relation' && from.target === to.target;
  }
  if (to.kind === 'enum') return from.kind === 'enum' || (from.kind === 'scalar' && from.scalar === 'String');
  if (from.kind === 'enum') return to.scalar === 'String';
  if (from.scalar === to.scalar) return true;
  const widenings: Record<string, readonly string[]> = { Int: ['Int64', 'Float'], ID: ['String'], String: ['ID'] };
  return widenings[from.scalar]?.includes(to.scalar) ?? false;
}

/** Whether every value `before` could hold is still `allowed`: then no stored value needs a look. */
function keepsEveryEnumValue(before: FieldModel | undefined, previous: SchemaModel, allowed: readonly string[]): boolean {
  if (before?.of.kind !== 'enum') return false;
  const values = previous.enums.get(before.of.enumName)?.values;
  return values !== undefined && values.every((value) => allowed.includes(value));
}
