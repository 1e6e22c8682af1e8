import type { FieldModel, TypeModel } from '../sdl/model.js';

/**
 * Where a GraphQL type and field live in the store. Today a type is stored in the collection named after
 * it and a field under its own name; storage names (`@dgraph(type:)`, `@dgraph(pred:)`) change only these
 * two functions, and every stored-data check of a schema change follows.
 */
export function storedCollectionOf(type: TypeModel): string {
  return type.name;
}

export function storedFieldOf(field: FieldModel): string {
  return field.name;
}

/** Whether this service keeps the field's values in the type's documents (not the `_id`, not computed, not owned elsewhere). */
export function holdsStoredValues(field: FieldModel): boolean {
  if (field.isIdField || field.lambda || field.custom !== undefined || field.external) return false;
  return field.of.kind !== 'relation' || field.storedHere === true;
}
