import { ErrorCode } from '../errors/codes.js';
import { GraphQLError } from 'graphql';
import { concreteTypesOf, isCustomLogic } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import { markFromCustomLogic, type AnsweredRelation } from './custom-objects.js';
import { dgraphDateTimeText } from './date-time-text.js';
import type { GraphObject } from './read.js';

/**
 * The values that cross the boundary to custom logic: the `parent` a lambda or an HTTP template sees,
 * and the checks applied to what a lambda or an endpoint answers before GraphQL serializes it.
 */

/**
 * The object a custom field belongs to, as custom logic sees it: the stored document (plus, for an
 * entity reached through `_entities`, the fields of the gateway's representation, i.e. `@requires`
 * inputs), with the type's ID field and key field set to the `_id` value, DateTimes as answered, and without the service's own
 * bookkeeping (`_id`, `__typename`, derived search fields: user field names never start with `_`).
 */
export function customParentOf(type: TypeModel, object: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const parent: Record<string, unknown> = {};
  // Values stored under a `@dgraph(pred:)` name reach custom logic by field name; the `@secret` hash never does.
  const fieldNames = new Map(type.fields.flatMap((field) => (field.storedName !== undefined && !field.isIdField ? [[field.storedName, field.name] as const] : [])));
  for (const [key, value] of Object.entries(object)) {
    if (!key.startsWith('_') && key !== type.secret?.storedName) {
      const name = fieldNames.get(key) ?? key;
      parent[name] = isDateTimeField(type, name) ? answeredDateTimes(value) : value;
    }
  }
  const id = object._id;
  if (id !== undefined && id !== null) {
    if (type.idField) parent[type.idField.name] = id;
    if (type.key && (type.extended || type.idField?.name === type.key)) parent[type.key] = id;
  }
  return parent;
}

function isDateTimeField(type: TypeModel, name: string): boolean {
  const field = type.fieldsByName.get(name);
  return field?.of.kind === 'scalar' && field.of.scalar === 'DateTime';
}

/** Stored DateTimes (one or a list) as the API answers them, so custom logic sees what a client would. */
function answeredDateTimes(value: unknown): unknown {
  if (typeof value === 'string') return dgraphDateTimeText(value);
  return Array.isArray(value) ? value.map(answeredDateTimes) : value;
}

/**
 * Checks `value` against the field's declared shape and prepares objects of the schema's types for the
 * generated resolvers (they read the ID from `_id` and interfaces read `__typename`). Scalars are left
 * to GraphQL's own serialization, which fails the field with its own message when they do not fit.
 * `source` names what answered, e.g. `lambda resolver "User.rank"`.
 */
export function shapeCustomResult(model: SchemaModel, owner: string, field: FieldModel, value: unknown, source: string): unknown {
  if (value === null || value === undefined) return null;
  const answer: Answer = { model, where: `${owner}.${field.name}`, field, source };
  if (field.list) {
    if (!Array.isArray(value)) throw wrongShape(answer, `it returned ${describe(value)}, not a list`);
    return value.map((item, index) => shapeItem(answer, item, `item ${index}`));
  }
  if (Array.isArray(value)) throw wrongShape(answer, 'it returned a list for a field that holds one value');
  return shapeItem(answer, value, 'the value');
}

/** The field custom logic answered and who answered it: every shape error names them. */
interface Answer {
  model: SchemaModel;
  /** `Owner.field`. */
  where: string;
  field: FieldModel;
  source: string;
}

function shapeItem(answer: Answer, item: unknown, what: string): unknown {
  const { field } = answer;
  if (item === null || item === undefined || field.of.kind !== 'relation') return item ?? null;
  if (typeof item !== 'object' || Array.isArray(item)) {
    throw wrongShape(answer, `${what} is ${describe(item)}, not an object of type ${field.of.target}`);
  }
  if (answer.model.remoteTypes?.has(field.of.target)) return shapeRemote(answer, field.of.target, item as Record<string, unknown>, what);
  return shapeObject(answer, field.of.target, item as Record<string, unknown>, what);
}

/**
 * An answered object of a `@remote` type, interface or union: its fields read from the keys their
 * `@remoteResponse(name:)` names (else their own), the concrete type in `__typename`, and the values of
 * object fields shaped in turn (objects of stored types as for any custom answer).
 */
function shapeRemote(answer: Answer, target: string, object: Record<string, unknown>, what: string): Record<string, unknown> {
  const { model } = answer;
  const declared = model.remoteTypes!.get(target)!;
  const candidates = declared.kind === 'type' ? [target]
    : declared.kind === 'union' ? declared.members
      : [...model.remoteTypes!.values()].filter((type) => type.kind === 'type' && type.implements.includes(target)).map((type) => type.name);
  const given = object.__typename;
  const typeName = typeof given === 'string' && candidates.includes(given) ? given : candidates.length === 1 && given === undefined ? candidates[0] : undefined;
  if (!typeName) throw wrongShape(answer, `${what} needs "__typename" naming one of ${candidates.join(', ')} (the types ${target} stands for)`);
  const remote = model.remoteTypes!.get(typeName);
  if (!remote) return shapeObject(answer, typeName, object, what);
  const shaped: Record<string, unknown> = { __typename: typeName };
  for (const field of remote.fields) {
    const value = object[field.remoteName ?? field.name];
    if (value === undefined) continue;
    shaped[field.name] = shapeRemoteField(answer, field.namedType, field.list, value, `${typeName}.${field.name} of ${what}`);
  }
  return shaped;
}

function shapeRemoteField(answer: Answer, namedType: string, list: boolean, value: unknown, what: string): unknown {
  const { model } = answer;
  const isObjectType = model.remoteTypes?.has(namedType) || model.types.has(namedType) || model.unions?.has(namedType);
  if (value === null || !isObjectType) return value;
  const one = (item: unknown, itemWhat: string): unknown => {
    if (item === null || item === undefined) return null;
    if (typeof item !== 'object' || Array.isArray(item)) throw wrongShape(answer, `${itemWhat} is ${describe(item)}, not an object of type ${namedType}`);
    const object = item as Record<string, unknown>;
    return model.remoteTypes?.has(namedType) ? shapeRemote(answer, namedType, object, itemWhat) : shapeObject(answer, namedType, object, itemWhat);
  };
  if (!list) {
    if (Array.isArray(value)) throw wrongShape(answer, `${what} is a list, for a field that holds one value`);
    return one(value, what);
  }
  if (!Array.isArray(value)) throw wrongShape(answer, `${what} is ${describe(value)}, not a list`);
  return value.map((item, index) => one(item, `${what}: item ${index}`));
}

/** An answered object of type `target`: its concrete type, its ID as `_id`, and its relations answered as objects shaped too. */
function shapeObject(answer: Answer, target: string, object: Record<string, unknown>, what: string): GraphObject {
  const { model } = answer;
  const typeName = concreteTypeName(model, target, object.__typename);
  if (!typeName) {
    const implementers = concreteTypesOf(model, target).map((type) => type.name);
    throw wrongShape(answer, `${what} needs "__typename" naming one of ${implementers.join(', ')} (the types that implement ${target})`);
  }
  const type = model.types.get(typeName)!;
  const idName = type.idField?.name ?? (type.extended ? type.key : undefined);
  const id = object._id ?? (idName === undefined ? undefined : object[idName]);
  const shaped: Record<string, unknown> = { ...object, ...(id === undefined || id === null ? {} : { _id: String(id) }), __typename: typeName };
  const answered = new Map<string, AnsweredRelation>();
  for (const relation of type.fields) {
    if (relation.of.kind !== 'relation' || isCustomLogic(relation) || shaped[relation.name] === undefined) continue;
    const nested = shapeNestedRelation(answer, relation, shaped[relation.name], `${type.name}.${relation.name} of ${what}`);
    shaped[relation.name] = nested.edge;
    if (nested.objects !== undefined) answered.set(relation.name, nested.objects);
  }
  return markFromCustomLogic(shaped as GraphObject, answered);
}

/**
 * A relation's value inside an answered object. IDs (a string, a list of strings) name stored objects and
 * stay the edge, as a stored document holds it; objects are the relation's answered value, and their IDs
 * become the edge (for the relation's aggregate and for custom logic given the object as its parent).
 */
function shapeNestedRelation(answer: Answer, relation: FieldModel, value: unknown, what: string): { edge: unknown; objects?: AnsweredRelation } {
  if (value === null) return { edge: null };
  const target = relation.namedType;
  const expected = `not an object of type ${target} or its ID`;
  if (!relation.list) {
    if (typeof value === 'string') return { edge: value };
    if (Array.isArray(value)) throw wrongShape(answer, `${what} is a list, for a field that holds one value`);
    if (typeof value !== 'object') throw wrongShape(answer, `${what} is ${describe(value)}, ${expected}`);
    const object = shapeObject(answer, target, value as Record<string, unknown>, what);
    return { edge: object._id ?? null, objects: object };
  }
  if (!Array.isArray(value)) throw wrongShape(answer, `${what} is ${describe(value)}, not a list`);
  if (value.every((item) => typeof item === 'string' || item === null)) return { edge: value };
  const objects = value.map((item, index) => {
    if (item === null) return null;
    const itemWhat = `${what}: item ${index}`;
    if (typeof item === 'string') return shapeObject(answer, target, { _id: item }, itemWhat);
    if (typeof item !== 'object' || Array.isArray(item)) throw wrongShape(answer, `${itemWhat} is ${describe(item)}, ${expected}`);
    return shapeObject(answer, target, item as Record<string, unknown>, itemWhat);
  });
  return { edge: objects.flatMap((object) => (object?._id === undefined ? [] : [object._id])), objects };
}

/** The concrete type of an object answered for `target`: its `__typename` if valid, else the only candidate. */
function concreteTypeName(model: SchemaModel, target: string, given: unknown): string | undefined {
  const candidates = concreteTypesOf(model, target).map((type) => type.name);
  if (typeof given === 'string' && candidates.includes(given)) return given;
  return candidates.length === 1 && given === undefined ? candidates[0] : undefined;
}

function wrongShape({ where, field, source }: Answer, reason: string): GraphQLError {
  return new GraphQLError(`${where}: the ${source} answered the wrong shape for ${field.typeText}: ${reason}`, {
    extensions: { code: ErrorCode.CUSTOM_RESULT_INVALID },
  });
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return `a ${typeof value} (${text.length > 40 ? `${text.slice(0, 40)}...` : text})`;
}
