/**
 * Picks the documents a filter can possibly match without scanning the collection: equality or `$in` on
 * `_id`, or on a field with a single-field index, when that condition is a conjunct of the filter (several
 * such conjuncts: the documents all of them allow). The result is a superset of the matches.
 *
 * It also says which top-level conditions the candidates satisfy by construction, so they need no testing:
 * a condition naming only literals (string, boolean, finite number), on `_id` or an indexed top-level
 * field, is met by a document exactly when one of its index keys is a literal's key — the index holds a key
 * per scalar value and per element of an array value, typed (`"1"`, `1` and `true` differ), as MongoDB
 * equality matches a scalar or any element of an array. Dotted paths are only narrowed by, never answered.
 */
import type { Filter } from '../port.js';
import type { CollectionState } from './collection-state.js';
import { encodeValue, isIndexableLiteral } from './index-keys.js';
import { isPlainObject } from './json-values.js';

export interface CandidatePlan {
  /** A superset of the ids of the documents the filter matches. */
  ids: ReadonlySet<string>;
  /** Top-level fields of the filter whose condition every document of `ids` meets. */
  answered: ReadonlySet<string>;
}

interface Conjunct {
  field: string;
  condition: unknown;
  /** A key of the filter itself, not of a document inside `$and`. */
  topLevel: boolean;
}

/** Candidate ids, or `undefined` when no index applies and the whole collection must be scanned. */
export function planCandidates(filter: Filter, state: CollectionState): CandidatePlan | undefined {
  const answers: ReadonlySet<string>[] = [];
  const answered = new Set<string>();
  for (const { field, condition, topLevel } of conjuncts(filter, true)) {
    const literals = equalityLiterals(condition);
    if (!literals) continue;
    const ids = field === '_id' ? idsByPrimaryKey(literals) : idsByIndex(state, field, literals);
    if (!ids) continue;
    if (ids.size === 0) return { ids, answered: new Set() };
    answers.push(ids);
    if (topLevel && !field.includes('.') && isLiteralsOnly(condition)) answered.add(field);
  }
  if (answers.length === 0) return undefined;
  return { ids: intersection(answers), answered };
}

/** The ids in every one of `sets` (not empty). */
function intersection(sets: ReadonlySet<string>[]): ReadonlySet<string> {
  if (sets.length === 1) return sets[0]!;
  const [smallest, ...others] = [...sets].sort((a, b) => a.size - b.size);
  const inAll = new Set<string>();
  for (const id of smallest!) {
    let everywhere = true;
    for (const other of others) {
      if (!other.has(id)) {
        everywhere = false;
        break;
      }
    }
    if (everywhere) inAll.add(id);
  }
  return inAll;
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

/** The literal values an equality-like condition accepts, or undefined if it is not one. */
function equalityLiterals(condition: unknown): unknown[] | undefined {
  if (isIndexableLiteral(condition)) return [condition];
  if (!isPlainObject(condition)) return undefined;
  if ('$eq' in condition && isIndexableLiteral(condition.$eq)) return [condition.$eq];
  const inList = condition.$in;
  if (Array.isArray(inList) && inList.every(isIndexableLiteral)) return inList;
  return undefined;
}

/**
 * For a condition `equalityLiterals` accepted: whether it is a literal, `{ $eq: literal }` or `{ $in: [literals] }`
 * and nothing else, so that the index answer is the exact answer.
 */
function isLiteralsOnly(condition: unknown): boolean {
  if (isIndexableLiteral(condition)) return true;
  if (!isPlainObject(condition)) return false;
  const operators = Object.keys(condition);
  return operators.length === 1 && (operators[0] === '$eq' || operators[0] === '$in');
}

function idsByPrimaryKey(literals: unknown[]): ReadonlySet<string> {
  return new Set(literals.filter((value): value is string => typeof value === 'string'));
}

function idsByIndex(state: CollectionState, field: string, literals: unknown[]): ReadonlySet<string> | undefined {
  const index = state.lookupIndexFor(field);
  if (!index) return undefined;
  if (literals.length === 1) return index.idsWithKey(encodeValue(literals[0])) ?? new Set();
  const ids = new Set<string>();
  for (const literal of literals) {
    for (const id of index.idsWithKey(encodeValue(literal)) ?? []) ids.add(id);
  }
  return ids;
}
