/**
 * The first documents of a sorted page by walking an order instead of sorting every match: the ordered
 * keys of the index on the first sort field (a group of keys sorting equal at a time, ordered by the
 * whole sort), or the ids in order for a sort by `_id`. It stops after the group that fills the page.
 */
import type { SortSpec, StoredDocument } from '../port.js';
import type { AccessPlan } from './access-plan.js';
import type { CollectionIndex } from './collection-index.js';
import { ID_INDEX_NAME, type CollectionState } from './collection-state.js';
import { encodeValue } from './index-keys.js';
import type { PositionBitset } from './position-bitset.js';
import { indexOf } from './run-access-plan.js';
import { compareValues, sortDocuments } from './sort-order.js';

export interface Matcher {
  test(document: StoredDocument): boolean;
}

/**
 * Whether walking the plan's ordered index beats sorting the candidates: the walk tests about
 * keep × size / matches documents, the candidates cost about their number, estimated from the smallest
 * equality lookup (ranges are not estimated).
 */
export function shouldWalkInOrder(plan: AccessPlan, state: CollectionState): boolean {
  if (!plan.order || plan.keep === undefined) return false;
  let smallest = Infinity;
  for (const lookup of plan.lookups) {
    if (lookup.kind === 'ids') return false;
    if (lookup.kind !== 'values') continue;
    const index = indexOf(state, lookup.index);
    let size = 0;
    for (const value of lookup.values) size += index.countWithKey(encodeValue(value));
    smallest = Math.min(smallest, size);
  }
  return smallest === Infinity || smallest * smallest > plan.keep * state.size;
}

/**
 * The first `plan.keep` documents matching `matcher` in `sort` order, by walking the plan's ordered index
 * on the first sort field and stopping after the group of equal keys that fills the page. The documents of
 * one group are ordered by the whole sort, ties in natural order, exactly as sortDocuments orders them;
 * a document holding several keys is taken at the first one met (its smallest ascending, its largest
 * descending: the value MongoDB sorts it by).
 */
export function walkInOrder(plan: AccessPlan, state: CollectionState, matcher: Matcher, sort: SortSpec): StoredDocument[] {
  const { order, keep } = plan;
  if (!order || keep === undefined) throw new Error('walkInOrder needs a plan with an order and a page size');
  if (order.index === ID_INDEX_NAME) return walkInIdOrder(state, matcher, order.direction, keep);
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
  for (const { sortValue, key } of index.keysInOrder(order.direction)) {
    if (keysInGroup > 0 && compareValues(sortValue, groupValue) !== 0) {
      flush();
      if (found.length >= keep) return found;
    }
    const bitset = thenById === undefined ? undefined : index.bitsetOf(key);
    if (bitset && firstInIdOrder(state, bitset, index.countWithKey(key), matcher, thenById!, keep - found.length, found)) {
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
      const document = state.documentAt(position);
      if (document && matcher.test(document)) group.push({ position, document });
    }
  }
  flush();
  return found;
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
function firstInIdOrder(state: CollectionState, members: PositionBitset, size: number, matcher: Matcher, direction: 1 | -1, wanted: number, found: StoredDocument[]): boolean {
  if (size < 16 * wanted) return false;
  const page: StoredDocument[] = [];
  let steps = 0;
  for (const { key: id } of state.idsInOrder(direction)) {
    if (++steps > 2 * size) return false;
    const slot = state.slot(id);
    if (!slot || !members.has(slot.position) || !matcher.test(slot.document)) continue;
    page.push(slot.document);
    if (page.length >= wanted) break;
  }
  found.push(...page);
  return true;
}

/** The first `keep` matches in `_id` order: ids are unique, so the rest of the sort never decides. */
function walkInIdOrder(state: CollectionState, matcher: Matcher, direction: 1 | -1, keep: number): StoredDocument[] {
  const found: StoredDocument[] = [];
  for (const { key: id } of state.idsInOrder(direction)) {
    const document = state.get(id);
    if (document && matcher.test(document)) {
      found.push(document);
      if (found.length >= keep) break;
    }
  }
  return found;
}
