import { concreteTypesOf, isKeptHere } from '../../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../../sdl/model.js';
import { ID_BATCH_SIZE, idBatches } from '../../store/id-batches.js';
import type { Filter } from '../../store/port.js';
import { memberRefOf } from './union-refs.js';
import { storedPath } from '../../query/schema-facts.js';
import { givenId } from './given-id.js';

/**
 * The existing objects a mutation's input may name, found by walking the input before anything is
 * written: every Ref (`{ id }`, an `@id` value, an extended type's key), nested inputs included. What a
 * Ref names is only known while the mutation runs (it may be created first), so this lists candidates:
 * every object that could be meant. Their rule verdicts are read for all of them at once, as they were
 * before the mutation (see reference-guard.ts).
 */

type Input = Record<string, unknown>;

/** Candidates of one concrete type: by `_id`, and by value per `@id` field. */
export interface NamedObjects {
  ids: Set<string>;
  values: Map<string, Set<unknown>>;
}

/** A single-valued edge whose partner is single too: linking it takes the target from its previous holder. */
export interface OneToOneEdge {
  holderType: string;
  field: FieldModel;
  /** The type whose ids the field holds. */
  targetType: string;
}

export interface References {
  byType: Map<string, NamedObjects>;
  /** One-to-one edges the input may link, by `holderType.field`. */
  oneToOne: Map<string, OneToOneEdge>;
}

export const noReferences = (): References => ({ byType: new Map(), oneToOne: new Map() });

const isObject = (value: unknown): value is Input => typeof value === 'object' && value !== null && !Array.isArray(value);

function namedIn(references: References, typeName: string): NamedObjects {
  let named = references.byType.get(typeName);
  if (!named) {
    named = { ids: new Set(), values: new Map() };
    references.byType.set(typeName, named);
  }
  return named;
}

/** An input object's own identity (`id`, `@id` values, an extended type's key) as candidates of its concrete types. */
export function addIdentity(model: SchemaModel, typeName: string, input: Input, references: References): void {
  for (const type of concreteTypesOf(model, typeName)) {
    const named = namedIn(references, type.name);
    const id = givenId(model, type.name, input);
    if (id !== undefined) named.ids.add(id);
    if (type.extended && type.key) {
      const key = input[type.key];
      if (key !== undefined && key !== null) named.ids.add(String(key));
    }
    for (const field of type.fields) {
      if (!field.isUniqueId || field.isIdField) continue;
      const value = input[field.name];
      if (value === undefined || value === null) continue;
      // By stored name: candidateFilters reads the values by it.
      const values = named.values.get(storedPath(field)) ?? new Set<unknown>();
      named.values.set(storedPath(field), values);
      values.add(value);
    }
  }
}

function partnerOf(model: SchemaModel, field: FieldModel): FieldModel | undefined {
  return field.inverse ? model.types.get(field.inverse.type)?.fieldsByName.get(field.inverse.field) : undefined;
}

function noteOneToOne(model: SchemaModel, type: TypeModel, field: FieldModel, references: References): void {
  const partner = partnerOf(model, field);
  if (field.list || !partner || partner.list || !field.inverse) return;
  const [holderType, holderField, targetType] = field.storedHere === false
    ? [field.inverse.type, partner, type.name]
    : [type.name, field, field.inverse.type];
  references.oneToOne.set(`${holderType}.${holderField.name}`, { holderType, field: holderField, targetType });
}

/** Walks an add input or an update's `set`/`remove` patch of `typeName`, adding every Ref it holds. */
export function collectReferences(model: SchemaModel, typeName: string, input: Input, references: References): void {
  const type = model.types.get(typeName);
  if (!type) return;
  for (const field of type.fields) {
    if (field.of.kind !== 'relation' || !isKeptHere(model, type, field)) continue;
    const value = input[field.name];
    if (value === undefined || value === null) continue;
    noteOneToOne(model, type, field, references);
    for (const ref of Array.isArray(value) ? value : [value]) {
      if (!isObject(ref)) continue;
      const named = memberRefOf(model, field.of.target, ref);
      addIdentity(model, named.typeName, named.ref, references);
      collectReferences(model, named.typeName, named.ref, references);
    }
  }
}

/**
 * The filters selecting a type's candidates (none when the input names none): one per batch of at most
 * `size` ids or values of one `@id` field, so that no read carries an unbounded `$in` list.
 */
export function candidateFilters(named: NamedObjects | undefined, size: number = ID_BATCH_SIZE): Filter[] {
  if (!named) return [];
  const filters = idBatches([...named.ids], size).map((batch): Filter => ({ _id: { $in: batch } }));
  for (const [field, values] of named.values) {
    filters.push(...idBatches([...values], size).map((batch): Filter => ({ [field]: { $in: batch } })));
  }
  return filters;
}
