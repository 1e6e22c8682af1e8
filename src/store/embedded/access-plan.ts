/**
 * How a read reaches its documents, decided from the filter, the sort and the index definitions alone
 * (planning never reads index contents; `run-access-plan.ts` does):
 *
 * - lookups: conditions an index (or `_id`) answers, each a set of documents; the candidates are the
 *   documents in all of them (none: the whole collection). A lookup is a conjunct of the filter, so the
 *   candidates are always a superset of the matches:
 *   - `_id` equal to a string or `$in` strings;
 *   - an indexed field equal to a literal (string, boolean, finite number), `$in` literals, `$all` literals
 *     (one lookup per literal, narrowing only: `$all` needs an array, which the index does not tell); an index holds a key per scalar value and per array element, typed, as
 *     MongoDB equality matches a scalar or any element of an array;
 *   - an indexed field compared by `$gt/$gte/$lt/$lte` with a number or a string: the keys of that type
 *     beyond the bound (MongoDB compares within one type only). Two bounds are two lookups, as each may be
 *     met by another element of an array.
 * - residual: what the candidates still have to be tested against. A top-level condition on a plain field
 *   whose every operator became a lookup is answered and leaves the residual; conditions inside `$and`
 *   and on dotted paths only narrow.
 * - order: when the first sort field is `_id` or has a non-sparse single-field index and only the first
 *   `keep` documents are wanted, walking in that order can stop early (top-k) instead of sorting every match.
 */
import type { Filter, IndexSpec, SortSpec } from '../port.js';
import { ID_INDEX_NAME } from './collection-state.js';
import { skipsDocuments } from './collection-index.js';
import { isIndexableLiteral } from './index-keys.js';
import { isPlainObject } from './json-values.js';

export type RangeOperator = '$gt' | '$gte' | '$lt' | '$lte';

export type Lookup =
  | { kind: 'ids'; ids: string[] }
  /** Documents holding any of these values in the index. */
  | { kind: 'values'; index: string; field: string; values: Array<string | number | boolean> }
  | { kind: 'range'; index: string; field: string; operator: RangeOperator; bound: string | number };

export interface AccessPlan {
  lookups: Lookup[];
  residual: Filter;
  order?: { index: string; field: string; direction: 1 | -1 };
  /** How many documents from the start of the sorted matches are wanted (skip + limit). */
  keep?: number;
}

const RANGE_OPERATORS: ReadonlySet<string> = new Set(['$gt', '$gte', '$lt', '$lte']);

export function planAccess(filter: Filter, sort: SortSpec | undefined, indexes: readonly IndexSpec[], keep?: number): AccessPlan {
  const lookups: Lookup[] = [];
  const answered = new Set<string>();
  for (const { field, condition, topLevel } of conjuncts(filter, true)) {
    const index = field === '_id' ? undefined : lookupIndexFor(indexes, field);
    const found = field === '_id' ? idLookups(condition) : index ? indexLookups(index.name, field, condition) : undefined;
    if (!found) continue;
    lookups.push(...found.lookups);
    if (found.complete && topLevel && !field.includes('.')) answered.add(field);
  }
  const residual: Filter = {};
  for (const [key, condition] of Object.entries(filter)) if (!answered.has(key)) residual[key] = condition;
  const plan: AccessPlan = { lookups, residual };
  const order = sort ? orderOf(sort, indexes) : undefined;
  if (order && keep !== undefined && keep > 0) {
    plan.order = order;
    plan.keep = keep;
  }
  return plan;
}

/** The single-field index on `field`, preferring a unique one (as the store's own lookup does). */
export function lookupIndexFor(indexes: readonly IndexSpec[], field: string): IndexSpec | undefined {
  let found: IndexSpec | undefined;
  for (const spec of indexes) {
    const fields = Object.keys(spec.keys);
    if (fields.length !== 1 || fields[0] !== field) continue;
    if (spec.unique === true) return spec;
    found ??= spec;
  }
  return found;
}

function orderOf(sort: SortSpec, indexes: readonly IndexSpec[]): AccessPlan['order'] {
  const first = Object.entries(sort)[0];
  if (!first) return undefined;
  const [field, direction] = first;
  // Every document has its own _id: the collection keeps them in order itself.
  if (field === '_id') return { index: ID_INDEX_NAME, field, direction };
  const index = lookupIndexFor(indexes, field);
  // A sparse or partial index lacks some documents, which a sort still returns.
  if (!index || skipsDocuments(index)) return undefined;
  return { index: index.name, field, direction };
}

interface Conjunct {
  field: string;
  condition: unknown;
  /** A key of the filter itself, not of a document inside `$and`. */
  topLevel: boolean;
}

function conjuncts(filter: Filter, topLevel: boolean): Conjunct[] {
  const found: Conjunct[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) if (isPlainObject(part)) found.push(...conjuncts(part, false));
    } else if (!key.startsWith('$')) {
      found.push({ field: key, condition: value, topLevel });
    }
  }
  return found;
}

/** The lookups a condition allows, and whether they answer it completely. */
interface Lookups {
  lookups: Lookup[];
  complete: boolean;
}

function idLookups(condition: unknown): Lookups | undefined {
  const literals = equalityLiterals(condition);
  if (!literals) return undefined;
  // A stored _id is always a string, so other literals find nothing.
  return { lookups: [{ kind: 'ids', ids: literals.filter((value): value is string => typeof value === 'string') }], complete: isLiteralsOnly(condition) };
}

/** `literal`, `{ $eq: literal }` or `{ $in: [literals] }` (whatever else beside them). */
function equalityLiterals(condition: unknown): Array<string | number | boolean> | undefined {
  if (isIndexableLiteral(condition)) return [condition];
  if (!isPlainObject(condition)) return undefined;
  if ('$eq' in condition && isIndexableLiteral(condition.$eq)) return [condition.$eq];
  const inList = condition.$in;
  if (Array.isArray(inList) && inList.every(isIndexableLiteral)) return inList;
  return undefined;
}

function isLiteralsOnly(condition: unknown): boolean {
  if (isIndexableLiteral(condition)) return true;
  if (!isPlainObject(condition)) return false;
  const operators = Object.keys(condition);
  return operators.length === 1 && (operators[0] === '$eq' || operators[0] === '$in');
}

function indexLookups(index: string, field: string, condition: unknown): Lookups | undefined {
  if (isIndexableLiteral(condition)) return { lookups: [{ kind: 'values', index, field, values: [condition] }], complete: true };
  if (!isPlainObject(condition)) return undefined;
  const lookups: Lookup[] = [];
  let complete = Object.keys(condition).length > 0;
  for (const [operator, operand] of Object.entries(condition)) {
    const lookup = operatorLookups(index, field, operator, operand);
    if (lookup) lookups.push(...lookup);
    // The index cannot tell an array holding the value from the value itself, which `$all` does not match.
    if (!lookup || operator === '$all') complete = false;
  }
  return lookups.length > 0 ? { lookups, complete } : undefined;
}

function operatorLookups(index: string, field: string, operator: string, operand: unknown): Lookup[] | undefined {
  if (operator === '$eq' && isIndexableLiteral(operand)) return [{ kind: 'values', index, field, values: [operand] }];
  if (operator === '$in' && Array.isArray(operand) && operand.every(isIndexableLiteral)) return [{ kind: 'values', index, field, values: operand }];
  if (operator === '$all' && Array.isArray(operand) && operand.length > 0 && operand.every(isIndexableLiteral)) {
    return operand.map((value) => ({ kind: 'values', index, field, values: [value] }));
  }
  if (RANGE_OPERATORS.has(operator) && (typeof operand === 'string' || (typeof operand === 'number' && Number.isFinite(operand)))) {
    return [{ kind: 'range', index, field, operator: operator as RangeOperator, bound: operand }];
  }
  return undefined;
}

/** The plan as text, one step a line (for tests, logs and benchmarks). */
export function explain(plan: AccessPlan): string {
  const lines: string[] = [];
  if (plan.lookups.length === 0) lines.push('SCAN all documents');
  for (const lookup of plan.lookups) {
    const prefix = lines.length === 0 ? '' : 'AND ';
    if (lookup.kind === 'ids') lines.push(`${prefix}IDS ${JSON.stringify(lookup.ids)}`);
    else if (lookup.kind === 'values') lines.push(`${prefix}INDEX ${lookup.index}: ${lookup.field} in ${JSON.stringify(lookup.values)}`);
    else lines.push(`${prefix}INDEX ${lookup.index}: ${lookup.field} ${lookup.operator} ${JSON.stringify(lookup.bound)}`);
  }
  if (Object.keys(plan.residual).length > 0) lines.push(`FILTER ${JSON.stringify(plan.residual)}`);
  if (plan.order) {
    lines.push(`ORDER BY INDEX ${plan.order.index}: ${plan.order.field} ${plan.order.direction === 1 ? 'asc' : 'desc'}, first ${plan.keep}`);
  }
  return lines.join('\n');
}
