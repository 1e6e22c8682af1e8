import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { concreteTypesOf as concreteTypes } from '../sdl/facts.js';
import { QueryArgumentError } from './errors.js';

export { isCustomLogic, isKeptHere, isUnionTarget } from '../sdl/facts.js';

/** Facts about the model that every translation in query/ needs. */

export function typeOf(model: SchemaModel, typeName: string): TypeModel {
  const type = model.types.get(typeName);
  if (!type) throw new QueryArgumentError(`unknown type ${typeName}`);
  return type;
}

/** Where a field's value lives in a stored document: the `ID` field IS `_id`; `@dgraph(pred:)` names the others. */
export function storedPath(field: FieldModel): string {
  return field.isIdField ? '_id' : field.storedName ?? field.name;
}

/** The object types stored for a type name: itself, every type implementing the interface, or the union's members. */
export function concreteTypesOf(model: SchemaModel, typeName: string): TypeModel[] {
  if (model.unions?.has(typeName)) return concreteTypes(model, typeName);
  return concreteTypes(model, typeOf(model, typeName).name);
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
