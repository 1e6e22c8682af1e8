import { buildSchemaModel } from '../../src/sdl/build.js';
import type { FieldModel, SchemaModel, TypeModel } from '../../src/sdl/model.js';

/** Builds a schema that must be valid; fails the test with the errors otherwise. */
export function validModel(source: string): SchemaModel {
  const { model, errors } = buildSchemaModel(source);
  if (!model) throw new Error(`expected a valid schema, got:\n${errors.map((error) => `${error.locations.map((l) => `${l.line}:${l.column}`).join(',')} ${error.message}`).join('\n')}`);
  expect(errors).toEqual([]);
  return model;
}

export function typeOf(model: SchemaModel, name: string): TypeModel {
  const type = model.types.get(name);
  if (!type) throw new Error(`no type ${name} in the model`);
  return type;
}

export function fieldOf(model: SchemaModel, typeName: string, fieldName: string): FieldModel {
  const field = typeOf(model, typeName).fieldsByName.get(fieldName);
  if (!field) throw new Error(`no field ${typeName}.${fieldName} in the model`);
  return field;
}

/** Errors as `line:column message` lines, easy to compare in a table. */
export function errorLines(source: string): string[] {
  const { model, errors } = buildSchemaModel(source);
  if (errors.length > 0) expect(model).toBeUndefined();
  return errors.map((error) => `${error.locations.map((l) => `${l.line}:${l.column}`).join(',')} ${error.message}`);
}
