import { callerSuppliesId, isKeptHere, isOrderable } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';

/** Which fields the generated inputs, filters and getters take. */

/**
 * Fields written through Add/Patch inputs: kept here, and not a generated `ID` (the store assigns it).
 * A Dgraph reverse edge (`@dgraph(pred: "~p")`) is written through its forward edge only.
 */
export function inputFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isKeptHere(model, type, field) && !(field.isIdField && !callerSuppliesId(type)) && field.reversePredicate === undefined);
}

/**
 * Whether the API has `addT`: only object types with something to write. A type whose only field is its
 * `ID` (`type Marker { id: ID! }`) has no `AddTInput` (GraphQL has no empty input types), as in Dgraph.
 */
export function canAdd(model: SchemaModel, type: TypeModel): boolean {
  return type.kind === 'type' && inputFields(model, type).length > 0;
}

export function orderableFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isOrderable(model, type, field));
}

/** Fields a `has` filter can name: everything kept here or derived, except the ID itself. */
export function hasFilterFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isKeptHere(model, type, field) && !field.isIdField);
}

/** `@id` fields usable as arguments of `getT` (the extended type's key included). */
export function uniqueIdFields(type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => field.isUniqueId && !field.list);
}
