/**
 * Runs an AccessPlan's lookups against a collection's current state: the candidates as ascending
 * natural-order positions (postings intersected by merging, or filtered through the bitsets of large
 * ones; never hashed by id), or their count without touching the documents. Sorted pages: ordered-walk.ts;
 * lookups tested one position at a time, for reads that stop early: lookup-membership.ts.
 */
import type { AccessPlan, Lookup, RangeOperator } from './access-plan.js';
import type { CollectionIndex } from './collection-index.js';
import type { CollectionState } from './collection-state.js';
import { encodeValue } from './index-keys.js';
import { PositionBitset } from './position-bitset.js';
import { intersectAll, sortedUnique, unionAll } from './sorted-positions.js';

/** The ascending positions of the candidates, or undefined when the plan scans every document. */
export function candidatePositions(plan: AccessPlan, state: CollectionState): readonly number[] | undefined {
  if (plan.lookups.length === 0) return undefined;
  return intersection(mergedLookups(plan.lookups, state).map((lookup) => resolve(lookup, state)));
}

/** A lookup's documents: their positions, and a bitset of them when its one key has one. */
interface Resolved {
  positions: readonly number[];
  bitset?: PositionBitset;
}

function resolve(lookup: RunLookup, state: CollectionState): Resolved {
  if (lookup.kind === 'values' && lookup.values.length === 1) {
    const index = indexOf(state, lookup.index);
    const key = encodeValue(lookup.values[0]);
    return { positions: index.positionsWithKey(key), bitset: index.bitsetOf(key) };
  }
  return { positions: positionsOf(lookup, state) };
}

/** How many positions are in all of `sets`: the smallest counted through the others' bitsets when they all have one. */
function intersectionSize(sets: readonly Resolved[]): number {
  const [smallest, ...others] = [...sets].sort((a, b) => a.positions.length - b.positions.length);
  const bitsets = others.map((other) => other.bitset);
  if (!bitsets.every((bitset) => bitset !== undefined)) return intersection(sets).length;
  let positions = smallest!.positions;
  for (const bitset of bitsets.slice(0, -1)) positions = bitset!.among(positions);
  return bitsets.length === 0 ? positions.length : bitsets[bitsets.length - 1]!.countAmong(positions);
}

/** The positions in all of `sets`: the smallest filtered by the others' bitsets, or merged with their positions. */
function intersection(sets: readonly Resolved[]): readonly number[] {
  const [smallest, ...others] = [...sets].sort((a, b) => a.positions.length - b.positions.length);
  let positions = smallest!.positions;
  const merged: (readonly number[])[] = [];
  for (const other of others) {
    if (other.bitset) positions = other.bitset.among(positions);
    else merged.push(other.positions);
  }
  return merged.length === 0 ? positions : intersectAll([positions, ...merged]);
}


/** How many documents the lookups find, for a plan whose lookups answer its whole filter. */
export function countCandidates(plan: AccessPlan, state: CollectionState): number {
  if (plan.lookups.length === 0) return state.size;
  const merged = mergedLookups(plan.lookups, state);
  if (merged.length === 1) {
    const only = merged[0]!;
    const index = only.kind === 'ids' ? undefined : indexOf(state, only.index);
    // One key, or a range over keys each document holds at most one of: no positions need combining.
    if (only.kind === 'values' && only.values.length === 1) return index!.countWithKey(encodeValue(only.values[0]));
    if (only.kind === 'range' && !index!.multikey) return countInRange(index!, only);
  }
  const sets = merged.map((lookup) => resolve(lookup, state));
  // Large sets that all have bitsets: count their intersection a word at a time.
  const smallest = Math.min(...sets.map((set) => set.positions.length));
  if (sets.every((set) => set.bitset) && smallest > state.positionLimit / 32) {
    return PositionBitset.countInAll(sets.map((set) => set.bitset!));
  }
  return intersectionSize(sets);
}

interface Bound {
  value: string | number;
  inclusive: boolean;
}

/** A range lookup as run: one or both bounds. */
interface RangeRun {
  kind: 'range';
  index: string;
  low?: Bound;
  high?: Bound;
}

export type RunLookup = Exclude<Lookup, { kind: 'range' }> | RangeRun;

const isLower = (operator: RangeOperator): boolean => operator === '$gt' || operator === '$gte';

/**
 * The lookups with range bounds as ranges; a lower and an upper bound of the same type on one index
 * become one range when no document holds several keys there (each then meets both bounds with its one
 * key; otherwise they stay two lookups, as two elements of an array may meet them).
 */
export function mergedLookups(lookups: readonly Lookup[], state: CollectionState): RunLookup[] {
  const merged: RunLookup[] = [];
  const openRanges = new Map<string, RangeRun>();
  for (const lookup of lookups) {
    if (lookup.kind !== 'range') {
      merged.push(lookup);
      continue;
    }
    const side = isLower(lookup.operator) ? 'low' : 'high';
    const bound: Bound = { value: lookup.bound, inclusive: lookup.operator === '$gte' || lookup.operator === '$lte' };
    const partner = openRanges.get(lookup.index);
    if (partner && partner[side] === undefined && typeof (partner.low ?? partner.high)!.value === typeof bound.value && !indexOf(state, lookup.index).multikey) {
      partner[side] = bound;
      openRanges.delete(lookup.index);
      continue;
    }
    const range: RangeRun = { kind: 'range', index: lookup.index, [side]: bound };
    openRanges.set(lookup.index, range);
    merged.push(range);
  }
  return merged;
}

export function indexOf(state: CollectionState, name: string): CollectionIndex {
  const index = state.index(name);
  if (!index) throw new Error(`index ${name} of collection ${state.name} is gone`);
  return index;
}

export function positionsOf(lookup: RunLookup, state: CollectionState): readonly number[] {
  switch (lookup.kind) {
    case 'ids': {
      const positions: number[] = [];
      for (const id of new Set(lookup.ids)) {
        const slot = state.slot(id);
        if (slot) positions.push(slot.position);
      }
      return positions.sort((a, b) => a - b);
    }
    case 'values': {
      const index = indexOf(state, lookup.index);
      return unionAll(lookup.values.map((value) => index.positionsWithKey(encodeValue(value))));
    }
    default: {
      const index = indexOf(state, lookup.index);
      const positions: number[] = [];
      for (const key of keysInRange(index, lookup)) index.appendPositions(key, positions);
      return sortedUnique(positions);
    }
  }
}

function countInRange(index: CollectionIndex, range: RangeRun): number {
  const { start, skip, within } = rangeTests(range);
  return index.countKeysFrom(start, skip, within);
}

function keysInRange(index: CollectionIndex, range: RangeRun): string[] {
  const { start, skip, within } = rangeTests(range);
  const keys: string[] = [];
  let started = false;
  for (const key of index.encodedKeysFrom(start)) {
    if (!started && skip(key)) continue;
    started = true;
    if (!within(key)) break;
    keys.push(key);
  }
  return keys;
}

/**
 * Where a range starts in index order and how its keys are told apart, for keys of the bounds' type only
 * (MongoDB's comparisons never cross types), compared in their encoded form: a string key against the
 * bound's key text, a number key by its number. From `start` on, the keys to `skip` (equal to an excluded
 * lower bound) come first, then those `within`, then none.
 */
function rangeTests({ low, high }: RangeRun): { start: unknown; skip: (key: string) => boolean; within: (key: string) => boolean } {
  const isString = typeof (low ?? high)!.value === 'string';
  const prefix = isString ? 's:' : 'n:';
  const compareTo = (bound: Bound): ((key: string) => number) => {
    if (!isString) return (key) => Number(key.slice(2)) - (bound.value as number);
    const boundKey = encodeValue(bound.value);
    return (key) => (key < boundKey ? -1 : key > boundKey ? 1 : 0);
  };
  const fromLow = low && compareTo(low);
  const fromHigh = high && compareTo(high);
  return {
    // The smallest value of the type: every number is above -Infinity, every string at least ''.
    start: low?.value ?? (isString ? '' : -Infinity),
    skip: (key) => low !== undefined && !low.inclusive && key.startsWith(prefix) && fromLow!(key) === 0,
    within: (key) => {
      if (!key.startsWith(prefix)) return false;
      if (!fromHigh) return true;
      const order = fromHigh(key);
      return order < 0 || (order === 0 && high!.inclusive);
    },
  };
}
