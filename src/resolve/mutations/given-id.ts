import { apiIdField } from '../../api/fields.js';
import type { SchemaModel } from '../../sdl/model.js';

/**
 * The id an input or Ref gives for an object of `typeName`, under the type's `ID` field name (`postID`
 * for `postID: ID`, as Dgraph names it), or undefined when it gives none.
 */
export function givenId(model: SchemaModel, typeName: string, input: Record<string, unknown>): string | undefined {
  const type = model.types.get(typeName);
  const name = type ? apiIdField(model, type)?.name : undefined;
  const value = name === undefined ? undefined : input[name];
  return typeof value === 'string' ? value : undefined;
}
