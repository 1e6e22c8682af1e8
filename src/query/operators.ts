import type { FieldModel, SearchIndex, TypeModel } from '../sdl/model.js';
import type { Filter } from '../store/port.js';
import { anyOf, matchNothing } from './combine.js';
import { parseDateTime } from './date-time.js';
import { QueryArgumentError } from './errors.js';
import { parseRegexp } from './regexp.js';
import { storedPath } from './schema-facts.js';
import { fulltextFieldName, fulltextTokensOf, ngramFieldName, ngramQueryTokensOf, termFieldName, termsOf } from './text-index.js';

/** The operators of a field's entry in `TFilter`, and how each becomes a MongoDB condition. */

export type FilterOperator =
  | 'eq' | 'in' | 'le' | 'lt' | 'ge' | 'gt' | 'between'
  | 'allofterms' | 'anyofterms' | 'alloftext' | 'anyoftext' | 'ngram' | 'regexp';

const EQUALITY: FilterOperator[] = ['eq', 'in'];
const ORDERED: FilterOperator[] = ['eq', 'in', 'le', 'lt', 'ge', 'gt', 'between'];

function stringOperators(index: SearchIndex): FilterOperator[] {
  switch (index) {
    case 'hash':
      return EQUALITY;
    case 'exact':
      return ORDERED;
    case 'term':
      return ['allofterms', 'anyofterms'];
    case 'fulltext':
      return ['alloftext', 'anyoftext'];
    case 'ngram':
      return ['ngram'];
    case 'trigram':
    case 'regexp':
      return ['regexp'];
    default:
      return [];
  }
}

/**
 * What a field accepts in a filter: a plain Boolean (`bool` index on a Boolean field), a set of operators
 * (the union over its indexes), or nothing (no `@search`).
 */
export type FieldFilterShape =
  | { kind: 'boolean' }
  | { kind: 'operators'; operators: ReadonlySet<FilterOperator> }
  | { kind: 'none' };

export function filterShapeOf(field: FieldModel): FieldFilterShape {
  if (field.of.kind === 'relation') return { kind: 'none' };
  // An `@id` field is always hash-indexed (as in Dgraph), so `getT(<@id field>: ...)` can look it up.
  const scalar = field.of.kind === 'scalar' ? field.of.scalar : undefined;
  // Numbers and dates: every index on them (int, float, int64, day, month, year, hour) allows comparisons.
  const ordered = scalar === 'Int' || scalar === 'Int64' || scalar === 'Float' || scalar === 'DateTime';
  const operators = new Set<FilterOperator>(field.isUniqueId ? (ordered ? ORDERED : EQUALITY) : []);
  if (field.search.length === 0) return operators.size === 0 ? { kind: 'none' } : { kind: 'operators', operators };
  if (scalar === 'Boolean') return { kind: 'boolean' };
  for (const index of field.search) {
    (ordered ? ORDERED : stringOperators(index)).forEach((operator) => operators.add(operator));
  }
  return operators.size === 0 ? { kind: 'none' } : { kind: 'operators', operators };
}

/** Checks and normalises one comparison value to the form stored (DateTime → ISO-8601 UTC string). */
function storedValue(type: TypeModel, field: FieldModel, operator: string, value: unknown): unknown {
  const where = `${type.name}.${field.name} ${operator}`;
  if (field.of.kind === 'enum' || (field.of.kind === 'scalar' && (field.of.scalar === 'String' || field.of.scalar === 'ID'))) {
    if (typeof value !== 'string') throw new QueryArgumentError(`${where}: expected a string, got ${JSON.stringify(value)}`);
    return value;
  }
  if (field.of.kind !== 'scalar') return value;
  switch (field.of.scalar) {
    case 'Int':
    case 'Int64':
    case 'Float':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new QueryArgumentError(`${where}: expected a number, got ${JSON.stringify(value)}`);
      }
      return value;
    case 'DateTime': {
      const parsed = typeof value === 'string' ? parseDateTime(value) : undefined;
      if (!parsed?.ok) {
        throw new QueryArgumentError(`${where}: ${JSON.stringify(value)} is not a valid DateTime${parsed ? ` (${parsed.problem})` : ''}`);
      }
      return parsed.iso;
    }
    default:
      return value;
  }
}

/** `/pattern/flags` → `$regex`/`$options`, under the pattern rules of regexp.ts (RE2 syntax, flag `i`). */
function regexpCondition(type: TypeModel, field: FieldModel, value: unknown): Record<string, string> {
  const { pattern, flags } = parseRegexp(`${type.name}.${field.name} regexp`, value);
  return flags ? { $regex: pattern, $options: flags } : { $regex: pattern };
}

function textCondition(path: string, tokens: string[], mode: '$all' | '$in'): Filter {
  return tokens.length === 0 ? matchNothing() : { [path]: { [mode]: tokens } };
}

function listOf(type: TypeModel, field: FieldModel, operator: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new QueryArgumentError(`${type.name}.${field.name} ${operator}: expected a list, got ${JSON.stringify(value)}`);
  return value.filter((item) => item !== null && item !== undefined).map((item) => storedValue(type, field, operator, item));
}

/**
 * Objects without a value for the field: Dgraph reads `eq: null` as `not: { has: field }`. A list field
 * "has" a value when it holds at least one item.
 */
export function absentCondition(field: FieldModel): Filter {
  const path = storedPath(field);
  return field.list ? { [`${path}.0`]: { $exists: false } } : { [path]: { $eq: null } };
}

/** `in`: any of the values; a null among them stands for "no value", as `eq: null` does. */
function inCondition(type: TypeModel, field: FieldModel, value: unknown): Filter {
  const values = { [storedPath(field)]: { $in: listOf(type, field, 'in', value) } };
  return (value as unknown[]).includes(null) ? anyOf([values, absentCondition(field)]) : values;
}

/** One operator of a field's filter entry as a MongoDB condition. `value` is not null (see `absentCondition` for `eq: null`). */
export function operatorCondition(type: TypeModel, field: FieldModel, operator: FilterOperator, value: unknown): Filter {
  const path = storedPath(field);
  switch (operator) {
    case 'eq':
      return { [path]: { $eq: storedValue(type, field, operator, value) } };
    case 'in':
      return inCondition(type, field, value);
    case 'le':
      return { [path]: { $lte: storedValue(type, field, operator, value) } };
    case 'lt':
      return { [path]: { $lt: storedValue(type, field, operator, value) } };
    case 'ge':
      return { [path]: { $gte: storedValue(type, field, operator, value) } };
    case 'gt':
      return { [path]: { $gt: storedValue(type, field, operator, value) } };
    case 'between': {
      const range = value as { min?: unknown; max?: unknown };
      if (typeof value !== 'object' || range.min === null || range.min === undefined || range.max === null || range.max === undefined) {
        throw new QueryArgumentError(`${type.name}.${field.name} between: expected { min, max } with both given, got ${JSON.stringify(value)}`);
      }
      return { [path]: { $gte: storedValue(type, field, operator, range.min), $lte: storedValue(type, field, operator, range.max) } };
    }
    case 'allofterms':
    case 'anyofterms':
      return textCondition(termFieldName(path), termsOf(storedValue(type, field, operator, value) as string), operator === 'allofterms' ? '$all' : '$in');
    case 'alloftext':
    case 'anyoftext':
      return textCondition(fulltextFieldName(path), fulltextTokensOf(storedValue(type, field, operator, value) as string), operator === 'alloftext' ? '$all' : '$in');
    case 'ngram':
      // Dgraph's ngram function matches a value holding any of the query's n-grams (text-index.ts).
      return textCondition(ngramFieldName(path), ngramQueryTokensOf(storedValue(type, field, operator, value) as string), '$in');
    case 'regexp':
      return { [path]: regexpCondition(type, field, value) };
  }
}

export function isFilterOperator(name: string): name is FilterOperator {
  return ['eq', 'in', 'le', 'lt', 'ge', 'gt', 'between', 'allofterms', 'anyofterms', 'alloftext', 'anyoftext', 'ngram', 'regexp'].includes(name);
}
