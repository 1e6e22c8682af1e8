import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { QueryArgumentError } from './errors.js';

/** Facts about the model that every translation in query/ needs. */

export function typeOf(model: SchemaModel, typeName: string): TypeModel {
  const type = model.types.get(typeName);
  if (!type) throw new QueryArgumentError(`unknown type ${typeName}`);
  return type;
}

/** Where a field's value lives in a stored document: the `ID` field IS `_id`. */
export function storedPath(field: FieldModel): string {
  return field.isIdField ? '_id' : field.name;
}

export function isCustomLogic(field: FieldModel): boolean {
  return field.lambda || field.custom !== undefined;
}

/** Fields of `typeName` named in some `@provides(fields:)` anywhere in the schema. */
function isProvided(model: SchemaModel, typeName: string, fieldName: string): boolean {
  for (const type of model.types.values()) {
    for (const field of type.fields) {
      if (field.namedType === typeName && field.provides?.includes(fieldName)) return true;
    }
  }
  return false;
}

/**
 * Whether this service holds the field's value: not custom logic, and for `@external` fields only the key
 * and the fields some `@provides` names (the same rule the generated API uses).
 */
export function isKeptHere(model: SchemaModel, type: TypeModel, field: FieldModel): boolean {
  if (isCustomLogic(field)) return false;
  if (!field.external) return true;
  return field.name === type.key || isProvided(model, type.name, field.name);
}

/** The object types stored for a type name: itself, or every type implementing the interface. */
export function concreteTypesOf(model: SchemaModel, typeName: string): TypeModel[] {
  const type = typeOf(model, typeName);
  if (type.kind === 'type') return [type];
  return [...model.types.values()].filter((candidate) => candidate.kind === 'type' && candidate.implements.includes(typeName));
}

/** A relation field's paired field on the target type (the side that stores the ids when this one does not). */
export function inverseFieldOf(model: SchemaModel, owner: TypeModel, field: FieldModel): FieldModel {
  if (!field.inverse) {
    throw new Error(`${owner.name}.${field.name} is derived (storedHere: false) but has no inverse field in the model`);
  }
  const inverse = model.types.get(field.inverse.type)?.fieldsByName.get(field.inverse.field);
  if (!inverse) {
    throw new Error(`${owner.name}.${field.name} names the inverse ${field.inverse.type}.${field.inverse.field}, which the model does not have`);
  }
  return inverse;
}

export function isDerivedRelation(field: FieldModel): boolean {
  return field.of.kind === 'relation' && field.storedHere === false;
}
