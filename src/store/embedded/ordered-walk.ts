/**
 * The first documents of a sorted page by walking an order instead of sorting every match: the ordered
 * keys of the index on the first sort field (a group of keys sorting equal at a time, ordered by the
 * whole sort), or the ids in order for a sort by `_id`. It stops after the group that fills the page.
 */
import type { SortSpec, StoredDocument } from '../port.js';
import type { AccessPlan, Lookup } from './access-plan.js';
import type { CollectionIndex } from './collection-index.js';
import { ID_INDEX_NAME, type CollectionState } from './collection-state.js';
import { encodeValue } from './index-keys.js';
import type { KeyInOrder } from './ordered-keys.js';
import type { PositionBitset } from './position-bitset.js';
import { countCandidates, indexOf } from './run-access-plan.js';
import { compareValues, sortDocuments } from './sort-order.js';

/** What a walked document must meet: index membership first (no document read), then the document itself. */
export interface CandidateTest {
  /** Whether the document at a position may match, from index membership alone. */
  admits(position: number): boolean;
  /** Whether the document matches what membership leaves (the whole filter when `admits` tests nothing). */
  test(document: StoredDocument): boolean;
}

/**
 * How many documents a walk in the plan's order may test before it gives up, or undefined when sorting
 * the candidates is expected to cost less. The candidates cost about their number, estimated by the
 * smallest lookup that counts cheaply (equality postings, a range over an index where each document holds
 * one key); without one the walk has no limit. The walk tests about keep × size / matches documents, where
 * the matches of several indexes' lookups are estimated as if the fields were independent (each index
 * keeps its share of the others' matches): estimated by the smallest alone, a filter on a rare term and a
 * common flag would start walks that give up, then sort the candidates anyway. It gives up at several
 * times its expected work (never beyond the candidates' cost): the matches may sit late in the order, as
 * when the filter follows it (a range of dates in creation order, sorted by id).
 */
export function walkBudget(plan: AccessPlan, state: CollectionState): number | undefined {
  if (!plan.order || plan.keep === undefined) return undefined;
  if (plan.lookups.some((lookup) => lookup.kind === 'ids')) return undefined;
  let smallest = Infinity;
  let share = 1;
  for (const lookups of lookupsByIndex(plan.lookups)) {
    const estimate = estimatedMatches(lookups, state);
    if (estimate === undefined) continue;
    smallest = Math.min(smallest, estimate);
    share *= Math.min(estimate, state.size) / Math.max(state.size, 1);
  }
  if (smallest === Infinity) return Infinity;
  const matches = share * state.size;
  const expected = (plan.keep * state.size) / Math.max(matches, 1);
  if (expected >= smallest) return undefined;
  return Math.min(smallest, Math.max(1024, 8 * expected));
}

function lookupsByIndex(lookups: readonly Lookup[]): Lookup[][] {
  const byIndex = new Map<string, Lookup[]>();
  for (const lookup of lookups) {
    if (lookup.kind === 'ids') continue;
    const group = byIndex.get(lookup.index) ?? [];
    group.push(lookup);
    byIndex.set(lookup.index, group);
  }
  return [...byIndex.values()];
}

/** How many documents one index's lookups find, when that is cheap to count. */
function estimatedMatches(lookups: readonly Lookup[], state: CollectionState): number | undefined {
  const first = lookups[0]!;
  if (first.kind === 'ids') return undefined;
  const index = indexOf(state, first.index);
  if (lookups.every((lookup) => lookup.kind === 'values')) {
    let smallest = Infinity;
    for (const lookup of lookups) {
      let size = 0;
      for (const value of (lookup as Extract<Lookup, { kind: 'values' }>).values) size += index.countWithKey(encodeValue(value));
      smallest = Math.min(smallest, size);
    }
    return smallest;
  }
  // Ranges over keys each document holds at most one of count from the blocks of ordered keys.
  if (index.multikey || !lookups.every((lookup) => lookup.kind === 'range')) return undefined;
  return countCandidates({ lookups: [...lookups], residual: {} }, state);
}

/**
 * The first `plan.keep` documents `candidate` accepts, in `sort` order, by walking the plan's ordered index
 * on the first sort field and stopping after the group of equal keys that fills the page (undefined
 * after testing `budget` documents without filling it). The documents of
 * one group are ordered by the whole sort, ties in natural order, exactly as sortDocuments orders them;
 * a document holding several keys is taken at the first one met (its smallest ascending, its largest
 * descending: the value MongoDB sorts it by). Null keys come last in both directions (sort-order.ts).
 */
export function walkInOrder(plan: AccessPlan, state: CollectionState, candidate: CandidateTest, sort: SortSpec, budget = Infinity): StoredDocument[] | undefined {
  const { order, keep } = plan;
  if (!order || keep === undefined) throw new Error('walkInOrder needs a plan with an order and a page size');
  if (order.index === ID_INDEX_NAME) return walkInIdOrder(state, candidate, order.direction, keep, budget);
  let tested = 0;
  const index = indexOf(state, order.index);
  const seen = index.multikey ? new Set<number>() : undefined;
  const found: StoredDocument[] = [];
  let group: Array<{ position: number; document: StoredDocument }> = [];
  let groupValue: unknown;
  let keysInGroup = 0;
  const flush = (): void => {
    if (keysInGroup > 1) group.sort((a, b) => a.position - b.position);
    found.push(...sortDocuments(group.map((entry) => entry.document), sort, keep - found.length));
    group = [];
    keysInGroup = 0;
  };
  const thenById = idTieBreak(sort, index);
  for (const { sortValue, key } of nullKeysLast(index.keysInOrder(order.direction))) {
    if (keysInGroup > 0 && compareValues(sortValue, groupValue) !== 0) {
      flush();
      if (found.length >= keep) return found;
    }
    const bitset = thenById === undefined ? undefined : index.bitsetOf(key);
    if (bitset && firstInIdOrder(state, bitset, index.countWithKey(key), candidate, thenById!, keep - found.length, found)) {
      if (found.length >= keep) return found;
      continue;
    }
    groupValue = sortValue;
    keysInGroup++;
    for (const position of index.positionsWithKey(key)) {
      if (seen) {
        if (seen.has(position)) continue;
        seen.add(position);
      }
      if (++tested > budget) return undefined;
      if (!candidate.admits(position)) continue;
      const document = state.documentAt(position);
      if (document && candidate.test(document)) group.push({ position, document });
    }
  }
  flush();
  return found;
}

/**
 * The keys in order with the null ones (missing, null, `[]`) moved to the end. The index orders them
 * first, so an ascending walk holds back the few null keys it meets at the start.
 */
function* nullKeysLast(keys: Iterable<KeyInOrder>): IterableIterator<KeyInOrder> {
  const nullKeys: KeyInOrder[] = [];
  for (const entry of keys) {
    if (entry.sortValue === null || entry.sortValue === undefined) nullKeys.push(entry);
    else yield entry;
  }
  yield* nullKeys;
}

/**
 * The direction of `_id` when the sort is the walked field then `_id` only, over an index where every
 * document holds one key and no two keys sort equal (no arrays): each key is then a whole group, ordered
 * by `_id` alone. Undefined otherwise.
 */
function idTieBreak(sort: SortSpec, index: CollectionIndex): 1 | -1 | undefined {
  const rest = Object.entries(sort).slice(1);
  if (rest.length !== 1 || rest[0]![0] !== '_id' || !index.holdsScalarsOnly) return undefined;
  return rest[0]![1];
}

/**
 * Adds to `found` up to `wanted` matches among the positions of `members` (one key's group, `size` of them)
 * in `_id` order, by walking the ids in order and testing membership, which for a large group reaches the
 * first matches long before reading all of it. Gives up, adding nothing, after twice `size` steps (when
 * the group's matches are rare, reading the group is cheaper); returns whether it answered.
 */
function firstInIdOrder(state: CollectionState, members: PositionBitset, size: number, candidate: CandidateTest, direction: 1 | -1, wanted: number, found: StoredDocument[]): boolean {
  if (size < 16 * wanted) return false;
  const page: StoredDocument[] = [];
  let steps = 0;
  for (const { key: id } of state.idsInOrder(direction)) {
    if (++steps > 2 * size) return false;
    const slot = state.slot(id);
    if (!slot || !members.has(slot.position) || !candidate.admits(slot.position) || !candidate.test(slot.document)) continue;
    page.push(slot.document);
    if (page.length >= wanted) break;
  }
  found.push(...page);
  return true;
}

/** The first `keep` matches in `_id` order: ids are unique, so the rest of the sort never decides. */
function walkInIdOrder(state: CollectionState, candidate: CandidateTest, direction: 1 | -1, keep: number, budget: number): StoredDocument[] | undefined {
  const found: StoredDocument[] = [];
  let tested = 0;
  for (const { key: id } of state.idsInOrder(direction)) {
    if (++tested > budget) return undefined;
    const slot = state.slot(id);
    if (slot && candidate.admits(slot.position) && candidate.test(slot.document)) {
      found.push(slot.document);
      if (found.length >= keep) break;
    }
  }
  return found;
}
