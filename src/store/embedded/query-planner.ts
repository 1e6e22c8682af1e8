/**
 * Picks the documents a filter can possibly match without scanning the collection: equality or `$in` on
 * `_id`, or on a field with a single-field index, when that condition is a top-level conjunct of the
 * filter. The result is a superset; the filter itself is still evaluated on every candidate.
 */
import type { Filter } from '../port.js';
import type { CollectionState } from './collection-state.js';
import { encodeValue, isIndexableLiteral } from './index-keys.js';
import { isPlainObject } from './json-values.js';

/** Candidate ids, or `undefined` when no index applies and the whole collection must be scanned. */
export function candidateIds(filter: Filter, state: CollectionState): ReadonlySet<string> | undefined {
  let best: ReadonlySet<string> | undefined;
  for (const [field, condition] of conjuncts(filter)) {
    const literals = equalityLiterals(condition);
    if (!literals) continue;
    const ids = field === '_id' ? idsByPrimaryKey(literals) : idsByIndex(state, field, literals);
    if (ids && (!best || ids.size < best.size)) best = ids;
    if (best?.size === 0) break;
  }
  return best;
}

function conjuncts(filter: Filter): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) if (isPlainObject(part)) found.push(...conjuncts(part));
    } else if (!key.startsWith('$')) {
      found.push([key, value]);
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
