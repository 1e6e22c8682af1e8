import { isKeptHere, isOrderable } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';

/** Which fields the generated inputs, filters and getters take. */

/** Fields written through Add/Patch inputs: kept here, and not the generated `ID` (the store assigns it). */
export function inputFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isKeptHere(model, type, field) && !(field.isIdField && !type.extended));
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
