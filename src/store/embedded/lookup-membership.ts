/**
 * An AccessPlan's lookups as membership tests on natural-order positions, so that a read which stops after
 * a few matches (a page) tests only the positions it reaches instead of intersecting whole postings first.
 * A key's posting answers by its bitset (one bit) when it has one, else by a binary search in its
 * ascending positions; a lookup of several keys by any of theirs.
 *
 * - `lookupWalk`: the positions of the lookup expected to find the fewest documents, to be read in order,
 *   and a test of the other lookups (a page read off natural order);
 * - `equalityMembership`: the equality lookups as one test, and the filter without the fields they answer
 *   completely (a walk in another order, which meets positions out of order: ranges stay with the filter,
 *   since listing a range's positions costs what the walk is meant to save).
 */
import type { Filter } from '../port.js';
import type { AccessPlan, Lookup } from './access-plan.js';
import type { CollectionState } from './collection-state.js';
import { encodeValue } from './index-keys.js';
import { indexOf, mergedLookups, positionsOf, type RunLookup } from './run-access-plan.js';
import { includesSorted } from './sorted-positions.js';

export type PositionTest = (position: number) => boolean;

const everyPosition: PositionTest = () => true;

export interface LookupWalk {
  /** The ascending positions of the driving lookup (shared with the index: do not modify). */
  driver: readonly number[];
  /** Whether a position of the driver is also found by every other lookup. */
  inOthers: PositionTest;
}

/** The plan's candidates as a driving lookup and a test of the rest; undefined when the plan has no lookups. */
export function lookupWalk(plan: AccessPlan, state: CollectionState): LookupWalk | undefined {
  if (plan.lookups.length === 0) return undefined;
  const lookups = mergedLookups(plan.lookups, state);
  // A range's size is only known by listing its positions, which its membership test needs anyway.
  const listed = lookups.map((lookup) => (lookup.kind === 'range' ? positionsOf(lookup, state) : undefined));
  const sizes = lookups.map((lookup, i) => listed[i]?.length ?? sizeOf(lookup, state));
  const driverAt = sizes.indexOf(Math.min(...sizes));
  const driver = listed[driverAt] ?? positionsOf(lookups[driverAt]!, state);
  const others = lookups.flatMap((lookup, i) => {
    if (i === driverAt) return [];
    const positions = listed[i];
    return [positions ? (position: number) => includesSorted(positions, position) : membershipOf(lookup, state)];
  });
  return { driver, inOthers: allOf(others) };
}

/** How many documents a lookup without ranges finds (at most, for ids). */
function sizeOf(lookup: RunLookup, state: CollectionState): number {
  if (lookup.kind === 'ids') return lookup.ids.length;
  if (lookup.kind !== 'values') return Infinity;
  const index = indexOf(state, lookup.index);
  let size = 0;
  for (const value of lookup.values) size += index.countWithKey(encodeValue(value));
  return size;
}

/** Whether a position is found by `lookup`, without listing its positions when its keys' postings can tell. */
function membershipOf(lookup: RunLookup, state: CollectionState): PositionTest {
  if (lookup.kind !== 'values') {
    const positions = positionsOf(lookup, state);
    return (position) => includesSorted(positions, position);
  }
  const index = indexOf(state, lookup.index);
  const keyTests = lookup.values.map((value): PositionTest => {
    const key = encodeValue(value);
    const bitset = index.bitsetOf(key);
    if (bitset) return (position) => bitset.has(position);
    const positions = index.positionsWithKey(key);
    return (position) => includesSorted(positions, position);
  });
  return anyOf(keyTests);
}

export interface EqualityMembership {
  /** Whether a position holds a key of every equality lookup (true when there are none). */
  inLookups: PositionTest;
  /** `filter` without its top-level fields that `inLookups` answers completely. */
  remaining: Filter;
}

/**
 * The plan's equality lookups as a test, and the part of `filter` (the plan's own) a document still has to
 * meet: a top-level field the plan answers (absent from its residual) whose every lookup is an equality is
 * left out, as membership in those lookups is exactly that condition.
 */
export function equalityMembership(plan: AccessPlan, filter: Filter, state: CollectionState): EqualityMembership {
  const equalities = plan.lookups.filter((lookup): lookup is Extract<Lookup, { kind: 'values' }> => lookup.kind === 'values');
  if (equalities.length === 0) return { inLookups: everyPosition, remaining: filter };
  const remaining: Filter = {};
  for (const [key, condition] of Object.entries(filter)) {
    if (!answeredByEqualities(key, plan)) remaining[key] = condition;
  }
  return { inLookups: allOf(equalities.map((lookup) => membershipOf(lookup, state))), remaining };
}

function answeredByEqualities(key: string, plan: AccessPlan): boolean {
  if (key in plan.residual) return false;
  const onField = plan.lookups.filter((lookup) => lookup.kind !== 'ids' && lookup.field === key);
  return onField.length > 0 && onField.every((lookup) => lookup.kind === 'values');
}

function allOf(tests: readonly PositionTest[]): PositionTest {
  if (tests.length === 0) return everyPosition;
  if (tests.length === 1) return tests[0]!;
  return (position) => {
    for (const test of tests) if (!test(position)) return false;
    return true;
  };
}

function anyOf(tests: readonly PositionTest[]): PositionTest {
  if (tests.length === 1) return tests[0]!;
  return (position) => {
    for (const test of tests) if (test(position)) return true;
    return false;
  };
}
