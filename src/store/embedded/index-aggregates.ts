/**
 * `[{ $match }, { $group: { _id: null, ... } }]` answered from index postings without reading documents,
 * when the indexes answer the whole filter (without ranges, for aggregated fields) and every aggregated
 * field has a single-field index over few distinct keys that never held an array (each document's key is
 * then its value):
 *
 * - the count of matches is the count of the lookups' intersection;
 * - each key's number of matches is the count with one more lookup (that key), so `$sum`/`$avg` add
 *   value × matches over the number keys, and `$min`/`$max` are the first/last key with matches in the
 *   index order.
 *
 * It gives exactly what group-all.ts gives over the rows, so it declines (undefined) where order or type
 * could make a difference: a number key that is not an integer (sums in another order may round apart), a
 * sum beyond the integers doubles hold exactly, or `$min`/`$max` over keys of several types.
 */
import type { Filter } from '../port.js';
import { lookupIndexFor, planAccess, type AccessPlan } from './access-plan.js';
import type { CollectionIndex } from './collection-index.js';
import type { CollectionState } from './collection-state.js';
import { groupAllSpec, type Accumulator } from './group-all.js';
import { countCandidates } from './run-access-plan.js';

type Row = Record<string, unknown>;

/** Beyond this many distinct keys, counting per key costs more than reading the matching documents. */
const MAX_KEYS = 64;

interface KeyMatches {
  value: unknown;
  matches: number;
}

export function groupFromIndexes(state: CollectionState, filter: Filter, stage: Row): Row[] | undefined {
  const accumulators = groupAllSpec(stage);
  if (!accumulators) return undefined;
  const plan = planAccess(filter, undefined, state.indexSpecs());
  if (plan.lookups.length === 0 || Object.keys(plan.residual).length > 0) return undefined;
  const count = countCandidates(plan, state);
  if (count === 0) return [];
  const perField = new Map<string, KeyMatches[] | undefined>();
  const group: Row = { _id: null };
  for (const [name, accumulator] of accumulators) {
    if (accumulator.kind === 'count') {
      group[name] = count * accumulator.times;
      continue;
    }
    if (!perField.has(accumulator.field)) perField.set(accumulator.field, matchesPerKey(state, plan, accumulator.field));
    const keys = perField.get(accumulator.field);
    const value = keys && valueOf(accumulator, keys);
    if (!value) return undefined;
    group[name] = value.value;
  }
  return [group];
}

/** Every non-null key of `field`'s index in index order with its number of matches, or undefined when not usable. */
function matchesPerKey(state: CollectionState, plan: AccessPlan, field: string): KeyMatches[] | undefined {
  const spec = lookupIndexFor(state.indexSpecs(), field);
  const index: CollectionIndex | undefined = spec && state.index(spec.name);
  if (!spec || !index || !index.holdsScalarsOnly || index.keyCount > MAX_KEYS) return undefined;
  // A range would be walked again for every key: the rows cost less.
  if (plan.lookups.some((lookup) => lookup.kind === 'range')) return undefined;
  const keys: KeyMatches[] = [];
  for (const { sortValue } of index.keysInOrder(1)) {
    if (sortValue === null) continue;
    if (typeof sortValue !== 'string' && typeof sortValue !== 'number' && typeof sortValue !== 'boolean') return undefined;
    const withKey: AccessPlan = { lookups: [...plan.lookups, { kind: 'values', index: spec.name, field, values: [sortValue] }], residual: {} };
    const matches = countCandidates(withKey, state);
    if (matches > 0) keys.push({ value: sortValue, matches });
  }
  return keys;
}

function valueOf(accumulator: Accumulator & { field: string }, keys: readonly KeyMatches[]): { value: unknown } | undefined {
  if (accumulator.kind === 'sum' || accumulator.kind === 'avg') {
    let total = 0;
    let count = 0;
    for (const { value, matches } of keys) {
      if (typeof value !== 'number') continue;
      if (!Number.isInteger(value)) return undefined;
      total += value * matches;
      count += matches;
    }
    if (!Number.isSafeInteger(total)) return undefined;
    return { value: accumulator.kind === 'sum' ? total : count === 0 ? null : total / count };
  }
  if (keys.length === 0) return { value: null };
  const type = typeof keys[0]!.value;
  if ((type !== 'number' && type !== 'string') || keys.some((entry) => typeof entry.value !== type)) return undefined;
  return { value: keys[accumulator.kind === 'min' ? 0 : keys.length - 1]!.value };
}
