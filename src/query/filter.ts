import { filterFor } from '../api/search-filters.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import type { Filter, Pipeline } from '../store/port.js';
import { allOf, anyOf, noneOf } from './combine.js';
import { QueryArgumentError } from './errors.js';
import { absentCondition, filterShapeOf, isFilterOperator, operatorCondition } from './operators.js';
import { concreteTypesOf, inverseFieldOf, isDerivedRelation, isKeptHere, storedPath, typeOf } from './schema-facts.js';
import { relatedExists } from './semi-join.js';

export { QueryArgumentError } from './errors.js';

/**
 * A compiled `TFilter`. `match` is a MongoDB query document. `lookups` are `$lookup` stages that must run
 * before `$match` when the filter needs another collection (a `has` on a derived relation, or on any
 * relation when a scope narrows the related objects it may count); they are empty
 * for plain filters, so callers can use `find(match)`. Fields the lookups add start with `__`: drop them
 * with `stripTemporaryFields` or the stages of `dropTemporaryFields`.
 */
export interface FilterPlan {
  lookups: Pipeline;
  match: Filter;
}

const TEMPORARY_PREFIX = '__';

type FilterInput = Record<string, unknown>;

/**
 * The objects of a concrete type that a filter may count as related objects (for a caller, those its
 * query rule lets it see), as a plan over that type's collection; undefined: all of them.
 */
export type RelatedScope = (typeName: string) => FilterPlan | undefined;

interface Compilation {
  model: SchemaModel;
  scope?: RelatedScope;
  /** `$lookup` stages by the field they add, so a relation tested twice is looked up once. */
  lookups: Map<string, Record<string, unknown>>;
}

const isObject = (value: unknown): value is FilterInput => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `and`/`or` take a list or (GraphQL input coercion) a single object. */
function filterList(type: TypeModel, key: string, value: unknown): FilterInput[] {
  const items = Array.isArray(value) ? value : [value];
  return items
    .filter((item) => item !== null && item !== undefined)
    .map((item) => {
      if (!isObject(item)) throw new QueryArgumentError(`${type.name}Filter.${key}: expected filter objects, got ${JSON.stringify(item)}`);
      return item;
    });
}

/** `id: [ID!]` (or the `ID` field's own name) → `_id $in`. */
function isIdKey(type: TypeModel, key: string): boolean {
  const field = type.fieldsByName.get(key);
  if (field && !field.isIdField) return false;
  return type.idField !== undefined && (key === 'id' || key === type.idField.name);
}

function idCondition(type: TypeModel, key: string, value: unknown): Filter {
  const ids = Array.isArray(value) ? value : [value];
  if (ids.some((id) => id !== null && typeof id !== 'string')) {
    throw new QueryArgumentError(`${type.name}Filter.${key}: expected a list of IDs, got ${JSON.stringify(value)}`);
  }
  return { _id: { $in: ids.filter((id) => id !== null) } };
}

function fieldOf(type: TypeModel, name: string): FieldModel {
  const field = type.fieldsByName.get(name);
  if (!field) throw new QueryArgumentError(`${type.name}Filter: type ${type.name} has no field "${name}"`);
  return field;
}

/**
 * A language preference (`p@.`) filtered as Dgraph's index answers it: an object matches when any of the
 * stored values the field reads matches (`eq: null`: when none of them has a value).
 */
function preferenceCondition(type: TypeModel, field: FieldModel, paths: readonly string[], value: unknown): Filter {
  const at = (path: string): FieldModel => ({ ...field, storedName: path, languagePreference: undefined });
  if (!isObject(value)) return anyOf(paths.map((path) => fieldCondition(type, at(path), value)));
  const { eq, ...others } = value;
  const conditions: Filter[] = [];
  if (eq === null) conditions.push(allOf(paths.map((path) => absentCondition(at(path)))));
  const rest = eq === null ? others : value;
  if (Object.keys(rest).length > 0) conditions.push(anyOf(paths.map((path) => fieldCondition(type, at(path), rest))));
  return allOf(conditions);
}

function fieldCondition(type: TypeModel, field: FieldModel, value: unknown): Filter {
  if (field.languagePreference) return preferenceCondition(type, field, field.languagePreference.paths, value);
  const shape = filterShapeOf(field);
  if (shape.kind === 'none') {
    throw new QueryArgumentError(`${type.name}.${field.name} cannot be filtered: it has no @search index (filter given: ${JSON.stringify(value)})`);
  }
  if (shape.kind === 'boolean') {
    if (typeof value !== 'boolean') throw new QueryArgumentError(`${type.name}.${field.name}: the filter value must be true or false, got ${JSON.stringify(value)}`);
    return { [storedPath(field)]: { $eq: value } };
  }
  if (!isObject(value)) throw new QueryArgumentError(`${type.name}.${field.name}: expected an object of filter operators, got ${JSON.stringify(value)}`);
  checkOneFunction(field, value);
  const conditions: Filter[] = [];
  for (const [operator, operand] of Object.entries(value)) {
    // As in Dgraph: `eq: null` asks for objects without a value; any other operator given null is ignored.
    if (operator === 'eq' && operand === null && shape.operators.has('eq')) {
      conditions.push(absentCondition(field));
      continue;
    }
    if (operand === null || operand === undefined) continue;
    if (!isFilterOperator(operator) || !shape.operators.has(operator)) {
      const allowed = [...shape.operators].join(', ');
      throw new QueryArgumentError(`${type.name}.${field.name} does not support the filter operator "${operator}" (its @search indexes allow: ${allowed})`);
    }
    conditions.push(operatorCondition(type, field, operator, operand));
  }
  return allOf(conditions);
}

/**
 * The filter inputs of one index that take one operator at a time, as Dgraph's request validation has it
 * (`allowedFilters` in graphql/schema/validation_rules.go): `{ eq: 2, le: 2 }` is refused there, not read
 * as "both". The inputs of several indexes (`StringHashFilter_StringTermFilter`) are not among them: those
 * take one operator of each index, and more.
 */
const ONE_FUNCTION_FILTERS: ReadonlySet<string> = new Set([
  'StringHashFilter', 'StringExactFilter', 'StringFullTextFilter', 'StringRegExpFilter', 'StringTermFilter',
  'DateTimeFilter', 'FloatFilter', 'Int64Filter', 'IntFilter',
]);

/** Operators given null are not counted (they are ignored), except `eq: null`, which asks for "no value". */
function checkOneFunction(field: FieldModel, value: FilterInput): void {
  const given = Object.entries(value).filter(([operator, operand]) => operand !== undefined && (operand !== null || operator === 'eq')).length;
  if (given < 2) return;
  const filterName = filterFor(field)?.typeName;
  if (filterName !== undefined && ONE_FUNCTION_FILTERS.has(filterName)) {
    throw new QueryArgumentError(`${filterName} filter expects only one filter function, got: ${given}`);
  }
}

/**
 * `$lookup` of one related document per concrete target type, where the target's inverse field holds
 * `_id`: an equality join (`localField`/`foreignField`) that an index on the inverse field serves, with a
 * pipeline that stops at the first match (the MongoDB 5.0 form).
 */
function derivedRelationLookups(compilation: Compilation, type: TypeModel, field: FieldModel): string[] {
  const { model } = compilation;
  const inverse = inverseFieldOf(model, type, field);
  const targets = concreteTypesOf(model, (field.of as { target: string }).target);
  return targets.map((target) => {
    const as = targets.length === 1 && target.name === (field.of as { target: string }).target
      ? `${TEMPORARY_PREFIX}has_${field.name}`
      : `${TEMPORARY_PREFIX}has_${field.name}_${target.name}`;
    compilation.lookups.set(as, {
      $lookup: {
        from: target.name,
        localField: '_id',
        foreignField: storedPath(inverse),
        pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }],
        as,
      },
    });
    return as;
  });
}

/** The scope's plan for each concrete target of a relation, or undefined when the scope narrows none of them. */
function scopedPlans(compilation: Compilation, target: string): Map<string, FilterPlan> | undefined {
  const { scope } = compilation;
  if (!scope) return undefined;
  const plans = new Map<string, FilterPlan>();
  for (const concrete of concreteTypesOf(compilation.model, target)) {
    const plan = scope(concrete.name);
    if (plan) plans.set(concrete.name, plan);
  }
  return plans.size > 0 ? plans : undefined;
}

/** `has` on a relation when the scope narrows its targets: a related object in scope must exist (a semi-join). */
function scopedRelationExists(compilation: Compilation, type: TypeModel, field: FieldModel, plans: Map<string, FilterPlan>): Filter {
  const plan = relatedExists(compilation.model, type, field, (target) => plans.get(target.name) ?? { lookups: [], match: {} }, `${TEMPORARY_PREFIX}has`);
  for (const stage of plan.lookups) compilation.lookups.set((stage.$lookup as { as: string }).as, stage);
  return plan.match;
}

function hasCondition(compilation: Compilation, type: TypeModel, name: unknown): Filter {
  if (typeof name !== 'string') throw new QueryArgumentError(`${type.name}Filter.has: expected field names, got ${JSON.stringify(name)}`);
  const field = fieldOf(type, name);
  if (field.isIdField || !isKeptHere(compilation.model, type, field)) {
    throw new QueryArgumentError(`${type.name}Filter.has: field "${name}" cannot be tested with has (it is ${field.isIdField ? 'the ID' : 'not stored by this service'})`);
  }
  const plans = field.of.kind === 'relation' ? scopedPlans(compilation, field.of.target) : undefined;
  if (plans) return scopedRelationExists(compilation, type, field, plans);
  if (isDerivedRelation(field)) {
    const added = derivedRelationLookups(compilation, type, field);
    // With no concrete target there is no lookup, and `anyOf` of nothing matches nothing.
    return anyOf(added.map((as) => ({ [`${as}.0`]: { $exists: true } })));
  }
  // A language preference (`p@.`) has a value when any of the stored values it reads has one.
  if (field.languagePreference) return anyOf(field.languagePreference.paths.map((path) => ({ [path]: { $exists: true, $ne: null } })));
  const path = storedPath(field);
  return field.list ? { [`${path}.0`]: { $exists: true } } : { [path]: { $exists: true, $ne: null } };
}

/**
 * One filter object, as Dgraph reads it: every key but `or` is ANDed; `or` is infix, so
 * `{ a, or: b }` means "a OR b" and `{ a, or: [b, c] }` means "a OR b OR c".
 */
function compileObject(compilation: Compilation, type: TypeModel, filter: FilterInput): Filter {
  const ands: Filter[] = [];
  let alternatives: Filter[] | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (value === null || value === undefined) continue;
    switch (key) {
      case 'and':
        filterList(type, key, value).forEach((item) => ands.push(compileObject(compilation, type, item)));
        break;
      case 'or': {
        const items = filterList(type, key, value);
        if (items.length > 0) alternatives = items.map((item) => compileObject(compilation, type, item));
        break;
      }
      case 'not':
        if (!isObject(value)) throw new QueryArgumentError(`${type.name}Filter.not: expected one filter object, got ${JSON.stringify(value)}`);
        ands.push(noneOf(compileObject(compilation, type, value)));
        break;
      case 'has':
        (Array.isArray(value) ? value : [value]).forEach((name) => ands.push(hasCondition(compilation, type, name)));
        break;
      default:
        ands.push(isIdKey(type, key) ? idCondition(type, key, value) : fieldCondition(type, fieldOf(type, key), value));
    }
  }
  const conjunction = allOf(ands);
  if (!alternatives) return conjunction;
  return ands.length === 0 ? anyOf(alternatives) : anyOf([conjunction, ...alternatives]);
}

/**
 * `TFilter` → MongoDB. A filter on an interface uses the interface's fields, which every implementing
 * type stores under the same names, so the plan applies to each implementing type's collection. With a
 * `scope`, a `has` on a relation counts only the related objects the scope allows.
 */
export function compileFilter(model: SchemaModel, typeName: string, filter: Record<string, unknown> | null | undefined, scope?: RelatedScope): FilterPlan {
  const type = typeOf(model, typeName);
  if (filter !== null && filter !== undefined && !isObject(filter)) {
    throw new QueryArgumentError(`${type.name}Filter: expected an object, got ${JSON.stringify(filter)}`);
  }
  const compilation: Compilation = { model, scope, lookups: new Map() };
  const match = compileObject(compilation, type, filter ?? {});
  return { lookups: [...compilation.lookups.values()], match };
}

/** Names of the temporary fields a plan's lookups add. */
export function temporaryFieldsOf(plan: FilterPlan): string[] {
  return plan.lookups.flatMap((stage) => {
    const lookup = stage.$lookup as { as?: unknown } | undefined;
    return typeof lookup?.as === 'string' && lookup.as.startsWith(TEMPORARY_PREFIX) ? [lookup.as] : [];
  });
}

/** A `$unset` stage removing the plan's temporary fields, or no stage when there are none. */
export function dropTemporaryFields(plan: FilterPlan): Pipeline {
  const fields = temporaryFieldsOf(plan);
  return fields.length === 0 ? [] : [{ $unset: fields }];
}

/** A copy of a document without the `__` fields that lookups and relation pipelines add (`__typename` stays). */
export function stripTemporaryFields<T extends Record<string, unknown>>(document: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (!key.startsWith(TEMPORARY_PREFIX) || key === '__typename') copy[key] = value;
  }
  return copy as T;
}

/** The stages that select a plan's documents: its lookups, then `$match` (left out when it matches all). */
export function planStages(plan: FilterPlan): Pipeline {
  return Object.keys(plan.match).length === 0 ? [...plan.lookups] : [...plan.lookups, { $match: plan.match }];
}
