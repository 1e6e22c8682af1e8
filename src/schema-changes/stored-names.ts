import { storedCollectionOf } from '../sdl/facts.js';
import type { FieldModel } from '../sdl/model.js';

/**
 * Where a GraphQL type and field live in the store: the collection `@dgraph(type:)` names, else the type's
 * name, and the document field `@dgraph(pred:)` names, else the field's name. Every stored-data check of a
 * schema change reads through these, so a rename that keeps its `pred:` keeps its data.
 */
export { storedCollectionOf };

export function storedFieldOf(field: FieldModel): string {
  return field.storedName ?? field.name;
}

/** Whether this service keeps the field's values in the type's documents (not the `_id`, not computed, not owned elsewhere). */
export function holdsStoredValues(field: FieldModel): boolean {
  if (field.isIdField || field.lambda || field.custom !== undefined || field.external) return false;
  return field.of.kind !== 'relation' || field.storedHere === true;
}
