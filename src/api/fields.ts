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
 * Whether a relation can be written through inputs: as in Dgraph, a relation to an interface with neither
 * an `ID` nor an `@id` field cannot (an interface's objects cannot be created, nor named).
 */
function isWritableRelation(model: SchemaModel, field: FieldModel): boolean {
  if (field.of.kind !== 'relation') return true;
  const target = model.types.get(field.of.target);
  return target === undefined || target.kind === 'type' || isReferenceable(model, target);
}

/**
 * Fields written through Add/Patch inputs: kept here, and not a generated `ID` (the store assigns it).
 * A Dgraph reverse edge (`@dgraph(pred: "~p")`) is written through its forward edge only; a language
 * preference (`@dgraph(pred: "p@hi:en")`, `"p@."`) is read-only, as in Dgraph.
 */
export function inputFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter(
    (field) => isKeptHere(model, type, field) && !(field.isIdField && !callerSuppliesId(type)) && isWritableRelation(model, field) && field.reversePredicate === undefined && !field.languagePreference,
  );
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

/** `@id` fields usable as arguments of `getT` (the extended type's key included). */
export function uniqueIdFields(type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => field.isUniqueId && !field.list);
}
