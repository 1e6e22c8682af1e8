import type { FieldModel, ScalarName, SchemaModel, TypeModel } from '../sdl/model.js';

/** Facts about fields that both the generated API and the resolvers rely on. */

/** Resolved by a lambda or an HTTP call: never stored, never filtered, never in an input. */
export function isCustomLogic(field: FieldModel): boolean {
  return field.lambda || field.custom !== undefined;
}

/**
 * `@external` fields are owned by another service. This service keeps only the key (as `_id`) and
 * the external fields some `@provides` names (it returns those when the gateway asks through the
 * providing field).
 */
export function isKeptHere(model: SchemaModel, type: TypeModel, field: FieldModel): boolean {
  if (isCustomLogic(field)) return false;
  if (!field.external) return true;
  return field.name === type.key || providedFields(model, type.name).has(field.name);
}

/** Fields of `typeName` named in some `@provides(fields:)` anywhere in the schema. */
export function providedFields(model: SchemaModel, typeName: string): Set<string> {
  const provided = new Set<string>();
  for (const type of model.types.values()) {
    for (const field of type.fields) {
      if (field.provides && field.namedType === typeName) field.provides.forEach((name) => provided.add(name));
    }
  }
  return provided;
}

/** Fields written through Add/Patch inputs: kept here, and not the generated `ID` (the store assigns it). */
export function inputFields(model: SchemaModel, type: TypeModel): FieldModel[] {
  return type.fields.filter((field) => isKeptHere(model, type, field) && !(field.isIdField && !type.extended));
}

const ORDERABLE: ReadonlySet<ScalarName> = new Set<ScalarName>(['String', 'Int', 'Int64', 'Float', 'DateTime']);
const NUMERIC: ReadonlySet<ScalarName> = new Set<ScalarName>(['Int', 'Int64', 'Float']);

export function scalarOf(field: FieldModel): ScalarName | undefined {
  return field.of.kind === 'scalar' ? field.of.scalar : undefined;
}

/** Single-valued String/Int/Int64/Float/DateTime fields: orderable, and with Min/Max aggregates. */
export function isOrderable(model: SchemaModel, type: TypeModel, field: FieldModel): boolean {
  const scalar = scalarOf(field);
  return scalar !== undefined && ORDERABLE.has(scalar) && !field.list && !field.isIdField && isKeptHere(model, type, field);
}

export function isNumeric(field: FieldModel): boolean {
  const scalar = scalarOf(field);
  return scalar !== undefined && NUMERIC.has(scalar) && !field.list;
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

/** Object types implementing an interface (or the type itself), each stored in its own collection. */
export function concreteTypesOf(model: SchemaModel, typeName: string): TypeModel[] {
  const type = model.types.get(typeName);
  if (!type) return [];
  if (type.kind === 'type') return [type];
  return [...model.types.values()].filter((candidate) => candidate.kind === 'type' && candidate.implements.includes(typeName));
}
