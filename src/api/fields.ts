import { callerSuppliesId, isKeptHere, isOrderable } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';

/** Which fields the generated inputs, filters and getters take. */

/**
 * The type's `ID` field as the API serves it, under its declared name (`postID`), or none: an `@external`
 * `ID` that is not the key of an extended type is the owner's data, not an identity here (as in Dgraph).
 */
export function apiIdField(model: SchemaModel, type: TypeModel): FieldModel | undefined {
  return type.idField && isKeptHere(model, type, type.idField) ? type.idField : undefined;
}

/** Whether objects of the type can be named by a value: it has an `ID` or an `@id` field (Dgraph's hasID || hasXID). */
export function isReferenceable(model: SchemaModel, type: TypeModel): boolean {
  return apiIdField(model, type) !== undefined || uniqueIdFields(type).some((field) => isKeptHere(model, type, field));
}

/**
 * Whether a relation can be written through inputs before Dgraph's clean-up: as in Dgraph, a relation to an
 * interface with neither an `ID` nor an `@id` field cannot (an interface's objects cannot be created, nor named).
 */
function isDeclaredWritableRelation(model: SchemaModel, field: FieldModel): boolean {
  if (field.of.kind !== 'relation') return true;
  const target = model.types.get(field.of.target);
  return target === undefined || target.kind === 'type' || isReferenceable(model, target);
}

/** Whether a relation can be written through inputs: as declared, and its target has a `TRef` after the clean-up. */
function isWritableRelation(model: SchemaModel, field: FieldModel): boolean {
  if (!isDeclaredWritableRelation(model, field)) return false;
  if (field.of.kind !== 'relation' || !model.types.has(field.of.target)) return true;
  return typesWithRef(model).has(field.of.target);
}

/** Fields an input could take as declared: kept here, not a generated `ID`, not a reverse edge nor a language preference. */
function isInputCandidate(model: SchemaModel, type: TypeModel, field: FieldModel): boolean {
  return isKeptHere(model, type, field) && !(field.isIdField && !callerSuppliesId(type)) && field.reversePredicate === undefined && !field.languagePreference;
}

const refCache = new WeakMap<SchemaModel, ReadonlySet<string>>();

/**
 * The types that have a `TRef`, after Dgraph's clean-up (its cleanSchema): a Ref, Patch or Add input
 * left without fields is dropped, and with it every input field that takes it, repeatedly. A Ref of an
 * object type keeps its `ID`, its secret, or a field that is no relation to a dropped Ref; an interface's
 * Ref is its `ID` or `@id` field. Refs that only take each other (a cycle) stay, as in Dgraph.
 */
function typesWithRef(model: SchemaModel): ReadonlySet<string> {
  const cached = refCache.get(model);
  if (cached) return cached;
  const alive = new Set<string>();
  for (const type of model.types.values()) if (type.kind === 'type' || isReferenceable(model, type)) alive.add(type.name);
  const keepsRef = (type: TypeModel): boolean => {
    if (type.kind === 'interface' || apiIdField(model, type) !== undefined || type.secret !== undefined) return true;
    return type.fields.some((field) => {
      if (field.isIdField || !isInputCandidate(model, type, field) || !isDeclaredWritableRelation(model, field)) return false;
      return field.of.kind !== 'relation' || !model.types.has(field.of.target) || alive.has(field.of.target);
    });
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const name of alive) {
      const type = model.types.get(name);
      if (type && !keepsRef(type)) {
        alive.delete(name);
        changed = true;
      }
    }
  }
  refCache.set(model, alive);
  return alive;
}

/**
 * Fields written through Add/Patch inputs: kept here, and not a generated `ID` (the store assigns it).
 * A Dgraph reverse edge (`@dgraph(pred: "~p")`) is written through its forward edge only; a language
 * preference (`@dgraph(pred: "p@hi:en")`, `"p@."`) is read-only, as in Dgraph.
 */
export function inputFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isInputCandidate(model, type, field) && isWritableRelation(model, field));
}

/**
 * The input fields before Dgraph's clean-up drops the relations to types left without a `TRef`: they
 * decide whether `AddTPayload` and `UpdateTPayload` exist, which Dgraph's clean-up leaves in place even
 * where it drops `addT` and `updateT`.
 */
export function declaredInputFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isInputCandidate(model, type, field) && isDeclaredWritableRelation(model, field));
}

/**
 * Whether the API has `addT`: only object types with something to write. A type whose only field is its
 * `ID` (`type Marker { id: ID! }`) has no `AddTInput` (GraphQL has no empty input types), as in Dgraph.
 */
export function canAdd(model: SchemaModel, type: TypeModel): boolean {
  return type.kind === 'type' && inputFields(model, type).length > 0;
}

/** Fields an update's `set`/`remove` takes (`TPatch`); no patch, no `updateT`, as in Dgraph. */
export function patchFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return inputFields(model, type).filter((field) => !field.isIdField);
}

export function canUpdate(model: SchemaModel, type: TypeModel): boolean {
  return patchFields(model, type).length > 0;
}

/** `addT(upsert:)` exists only for types with an `@id` field, as in Dgraph. */
export function canUpsert(model: SchemaModel, type: TypeModel): boolean {
  return uniqueIdFields(type).some((field) => isKeptHere(model, type, field));
}

export function orderableFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isOrderable(model, type, field));
}

/** Fields a `has` filter can name: everything kept here or derived, except the ID itself and (as in Dgraph) a list of languages. */
export function hasFilterFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isKeptHere(model, type, field) && !field.isIdField && !field.languagePreference?.multiLanguage);
}

/**
 * Whether `TFilter` takes `has`: as in Dgraph, only with a field besides the ID that an input could
 * write as declared (a type whose fields are all reverse edges has a `THasFilter` but no `has`).
 */
export function filterTakesHas(model: SchemaModel, type: TypeModel): boolean {
  return type.fields.some((field) => !field.isIdField && isKeptHere(model, type, field) && field.reversePredicate === undefined && isDeclaredWritableRelation(model, field));
}

/** `@id` fields usable as arguments of `getT` (the extended type's key included). */
export function uniqueIdFields(type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => field.isUniqueId && !field.list);
}
