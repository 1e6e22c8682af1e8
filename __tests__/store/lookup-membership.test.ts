import { Query } from 'mingo';
import { planAccess } from '../../src/store/embedded/access-plan.js';
import { CollectionState } from '../../src/store/embedded/collection-state.js';
import { equalityMembership, lookupWalk } from '../../src/store/embedded/lookup-membership.js';
import { candidatePositions } from '../../src/store/embedded/run-access-plan.js';
import type { Filter, StoredDocument } from '../../src/store/port.js';

/**
 * Index lookups as membership tests: walking the driving lookup and testing the others gives exactly the
 * candidates the intersection of the postings gives, with keys that have bitsets (many holders) and keys
 * that do not (binary search), equality, `$in`, ranges and ids; and the equality lookups of a walk in
 * another order leave out of the filter exactly the fields they answer.
 */

/** 5,000 documents: `flag` and `kind` keys held by thousands (bitsets), `tag` by few, `n` for ranges. */
function buildState(): CollectionState {
  const state = new CollectionState('Members');
  for (const field of ['flag', 'kind', 'tag', 'n']) state.addIndex({ name: `ag_${field}`, keys: { [field]: 1 } }, false);
  for (let i = 0; i < 5000; i++) {
    const document: StoredDocument = { _id: `m${i}`, flag: i % 2 === 0, kind: ['a', 'b', 'c'][i % 3]!, n: i % 100 };
    if (i % 37 === 0) document.tag = i % 74 === 0 ? ['rare', 'both'] : 'rare';
    state.put(document);
  }
  // Holes and moves: natural order has gaps, bitsets and postings lose members.
  for (let i = 0; i < 5000; i += 11) state.remove(`m${i}`);
  for (let i = 1; i < 5000; i += 13) state.put({ _id: `m${i}`, flag: true, kind: 'c', n: 7, tag: 'rare' });
  return state;
}

const state = buildState();
const all = state.all() as StoredDocument[];
const hasBitset = (index: string, key: string): boolean => state.index(index)!.bitsetOf(key) !== undefined;

describe('the keys these tests rely on', () => {
  it('have bitsets where many documents hold them and none where few do', () => {
    expect([hasBitset('ag_flag', 'b:1'), hasBitset('ag_kind', 's:a'), hasBitset('ag_tag', 's:rare')]).toEqual([true, true, false]);
  });
});

describe('lookupWalk', () => {
  it.each<[string, Filter]>([
    ['a rare key and a common one (bitset)', { tag: 'rare', flag: false }],
    ['two common keys (bitsets both)', { flag: true, kind: 'b' }],
    ['a common key and a rare one given first', { kind: 'c', tag: 'both' }],
    ['$in over common keys', { kind: { $in: ['a', 'c'] }, tag: 'rare' }],
    ['$in over keys without holders', { kind: { $in: ['x', 'y'] }, flag: true }],
    ['a range and a key', { n: { $gte: 10, $lt: 12 }, flag: true }],
    ['a wide range and a rare key', { n: { $gte: 5 }, tag: 'rare' }],
    ['ids and a key', { _id: { $in: ['m2', 'm3', 'm14', 'nope'] }, kind: 'c' }],
    ['$all of two keys', { tag: { $all: ['rare', 'both'] } }],
    ['a key nobody holds', { tag: 'none', flag: true }],
    ['one lookup', { kind: 'b' }],
  ])('%s: the driver tested against the others gives the intersection', (_label, filter) => {
    const plan = planAccess(filter, undefined, state.indexSpecs());
    const walk = lookupWalk(plan, state)!;
    expect([...walk.driver]).toEqual([...walk.driver].sort((a, b) => a - b));
    expect(walk.driver.filter(walk.inOthers)).toEqual([...candidatePositions(plan, state)!]);
  });

  it('drives with the lookup that finds the fewest documents', () => {
    const walk = lookupWalk(planAccess({ flag: false, kind: 'a', tag: 'rare' }, undefined, state.indexSpecs()), state)!;
    expect(walk.driver).toBe(state.index('ag_tag')!.positionsWithKey('s:rare'));
  });

  it('has nothing to walk without lookups', () => {
    expect(lookupWalk(planAccess({ other: 1 }, undefined, state.indexSpecs()), state)).toBeUndefined();
  });
});

describe('equalityMembership', () => {
  it.each<[string, Filter, Filter]>([
    ['equalities only: nothing left', { flag: true, tag: 'rare' }, {}],
    ['a range stays with the filter', { flag: true, n: { $gte: 50 } }, { n: { $gte: 50 } }],
    ['a field with an equality and a range stays whole', { n: { $gte: 5, $in: [5, 6, 7] }, kind: 'a' }, { n: { $gte: 5, $in: [5, 6, 7] } }],
    ['ids stay with the filter', { _id: 'm5', kind: 'c' }, { _id: 'm5' }],
    ['an unindexed field and operators the index cannot answer stay', { other: 1, kind: { $ne: 'a' }, flag: false }, { other: 1, kind: { $ne: 'a' } }],
    ['$all narrows only: it stays', { tag: { $all: ['rare'] }, flag: true }, { tag: { $all: ['rare'] } }],
    ['inside $and: narrows only, stays', { $and: [{ kind: 'a' }], flag: true }, { $and: [{ kind: 'a' }] }],
    ['no lookups: the filter unchanged', { other: { $gt: 1 } }, { other: { $gt: 1 } }],
  ])('%s', (_label, filter, remaining) => {
    const plan = planAccess(filter, undefined, state.indexSpecs());
    const membership = equalityMembership(plan, filter, state);
    expect(membership.remaining).toEqual(remaining);
    // Membership and the remaining filter together match exactly what the whole filter matches.
    const rest = new Query(membership.remaining);
    const kept = all.filter((document) => membership.inLookups(state.slot(document._id)!.position) && rest.test(document));
    expect(kept.map((document) => document._id)).toEqual((new Query(filter).find(all).all() as StoredDocument[]).map((document) => document._id));
  });
});
