import type { FieldModel, ScalarName, SchemaModel, TypeModel } from './model.js';

/** Facts derived from a SchemaModel that the generated API, the translation and the resolvers share. */

/** Resolved by a lambda or an HTTP call: never stored, filtered, ordered or written. */
export function isCustomLogic(field: FieldModel): boolean {
  return field.lambda || field.custom !== undefined;
}

/** Whether any field of the schema (a root field or a type's) is `@lambda` or `@custom`. */
export function usesCustomLogic(model: SchemaModel): boolean {
  return model.customQueries.length > 0 || [...model.types.values()].some((type) => type.fields.some(isCustomLogic));
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

/**
 * Whether this service holds the field's value. `@external` fields are owned by another service: only
 * the key (kept as `_id`) and the external fields some `@provides` names are kept here.
 */
export function isKeptHere(model: SchemaModel, type: TypeModel, field: FieldModel): boolean {
  if (isCustomLogic(field)) return false;
  if (!field.external) return true;
  return field.name === type.key || providedFields(model, type.name).has(field.name);
}

/**
 * Whether an add names the object's identity instead of the store generating it: the owner's key of an
 * extended type, or an `ID` field declared with `@id`.
 */
export function callerSuppliesId(type: TypeModel): boolean {
  return type.extended || type.idField?.suppliedByCaller === true;
}

/** The collection an object type's documents are stored in: `@dgraph(type:)`, else the type's name. */
export function storedCollectionOf(type: TypeModel): string {
  return type.storedName ?? type.name;
}

/** The object types stored for a type name: itself, every type implementing the interface, or the union's members ([] if unknown). */
export function concreteTypesOf(model: SchemaModel, typeName: string): TypeModel[] {
  const type = model.types.get(typeName);
  if (!type) {
    const members = model.unions?.get(typeName)?.members ?? [];
    return members.flatMap((member) => model.types.get(member) ?? []);
  }
  if (type.kind === 'type') return [type];
  return [...model.types.values()].filter((candidate) => candidate.kind === 'type' && candidate.implements.includes(typeName));
}

/** Whether a relation field's target is a union (its objects are of several unrelated types). */
export function isUnionTarget(model: SchemaModel, field: FieldModel): boolean {
  return field.of.kind === 'relation' && model.unions?.has(field.of.target) === true;
}

export function scalarOf(field: FieldModel): ScalarName | undefined {
  return field.of.kind === 'scalar' ? field.of.scalar : undefined;
}

const ORDERABLE: ReadonlySet<ScalarName> = new Set<ScalarName>(['String', 'Int', 'Int64', 'Float', 'DateTime']);
const NUMERIC: ReadonlySet<ScalarName> = new Set<ScalarName>(['Int', 'Int64', 'Float']);

/**
 * Orderable, with Min/Max aggregates: single-valued String/Int/Int64/Float/DateTime fields kept here (not
 * the ID); and, as in Dgraph, an `@external` field kept here (the key, a provided field) of any scalar type.
 * A language preference (`@dgraph(pred: "p@hi:en")`, `"p@."`) is not: its value is chosen among several
 * stored ones when read, so there is no stored value to sort or aggregate by (Dgraph orders by `p@.`).
 */
export function isOrderable(model: SchemaModel, type: TypeModel, field: FieldModel): boolean {
  const scalar = scalarOf(field);
  if (scalar === undefined || field.list || field.languagePreference || !isKeptHere(model, type, field)) return false;
  return field.external || (ORDERABLE.has(scalar) && !field.isIdField);
}

/** Single-valued Int/Int64/Float: with Sum and Avg aggregates. */
export function isNumeric(field: FieldModel): boolean {
  const scalar = scalarOf(field);
  return scalar !== undefined && NUMERIC.has(scalar) && !field.list;
}

/**
 * A relation that is its own inverse (`friends: [User] @hasInverse(field: friends)` on `User`): an edge
 * a → b is also b → a. Such an edge is stored on both ends (see resolve/mutations/symmetric-edges.ts).
 */
export function isSymmetricRelation(typeName: string, field: FieldModel): boolean {
  return field.of.kind === 'relation' && field.inverse?.type === typeName && field.inverse.field === field.name;
}
