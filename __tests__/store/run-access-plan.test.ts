import { Query } from 'mingo';
import { planAccess, type AccessPlan } from '../../src/store/embedded/access-plan.js';
import { CollectionState } from '../../src/store/embedded/collection-state.js';
import { equalityMembership } from '../../src/store/embedded/lookup-membership.js';
import { walkBudget, walkInOrder, type CandidateTest } from '../../src/store/embedded/ordered-walk.js';
import { candidatePositions, countCandidates } from '../../src/store/embedded/run-access-plan.js';
import { sortDocuments } from '../../src/store/embedded/sort-order.js';
import type { Filter, SortSpec, StoredDocument } from '../../src/store/port.js';

/**
 * Every index path against the generic one on the same state: candidates and counts from postings against
 * mingo over all documents, and ordered-index walks against sorting every match.
 */
const VALUES: unknown[] = [
  'a', 'b', '1', '', '2024-01-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z', 1, 2, 1.5, 0, -3, 7,
  true, false, null, [], ['a', 1], [1, 5], [0, 9], [['a']], [[1]], [null], [2, 2], ['b', true], [{ x: 'a' }], { x: 'a' }, { x: 1 },
];

function pick(seed: { value: number }, list: readonly unknown[]): unknown {
  seed.value = (Math.imul(seed.value, 1664525) + 1013904223) >>> 0;
  return list[seed.value % list.length];
}

function buildState(): CollectionState {
  const state = new CollectionState('Mixed');
  for (const field of ['f', 'g', 'n']) state.addIndex({ name: `ag_${field}`, keys: { [field]: 1 } }, false);
  state.addIndex({ name: 'ag_id_u', keys: { u: 1 }, unique: true, sparse: true }, false);
  const seed = { value: 11 };
  const documentOf = (i: number): StoredDocument => {
    const document: StoredDocument = { _id: `m${String((i * 37) % 300).padStart(3, '0')}`, n: i % 9 };
    for (const field of ['f', 'g']) {
      const value = pick(seed, [...VALUES, undefined, undefined]);
      if (value !== undefined) document[field] = value;
    }
    if (i % 4 === 0) document.u = `u${i}`;
    return document;
  };
  for (let i = 0; i < 300; i++) state.put(documentOf(i));
  // Holes and moved documents: natural order is not _id order, and postings lose and regain members.
  for (let i = 0; i < 300; i += 7) state.remove(`m${String((i * 37) % 300).padStart(3, '0')}`);
  for (let i = 0; i < 300; i += 14) state.put(documentOf(i + 1000));
  for (let i = 3; i < 300; i += 11) {
    const document = state.get(`m${String((i * 37) % 300).padStart(3, '0')}`);
    if (document) state.put({ ...document, f: pick(seed, VALUES) });
  }
  return state;
}

const state = buildState();
const all = state.all();
const matches = (filter: Filter): StoredDocument[] => new Query(filter).find(all as StoredDocument[]).all() as StoredDocument[];
const ids = (documents: readonly StoredDocument[]): string[] => documents.map((document) => document._id);

/** What a walk tests, as the store builds it: membership in the equality lookups, then mingo over the rest of the filter. */
function candidateOf(plan: AccessPlan, filter: Filter, on: CollectionState): CandidateTest {
  const { inLookups, remaining } = equalityMembership(plan, filter, on);
  const query = new Query(remaining);
  return { admits: inLookups, test: (document) => query.test(document) };
}

const FILTERS: Filter[] = [
  { f: 'a' }, { f: 1 }, { f: true }, { f: { $in: ['a', 2, false] } }, { f: { $eq: 0 } },
  { f: { $gt: 1 } }, { f: { $gte: 1 } }, { f: { $lt: 2 } }, { f: { $lte: 1.5 } }, { f: { $gt: 'a' } }, { f: { $lt: 'b' } },
  { f: { $gt: 1, $lt: 7 } }, { f: { $gte: 0, $lte: 2 } }, { f: { $gte: '2024-01-01', $lt: '2024-06-01' } }, { f: { $gt: 0, $lt: 'z' } },
  { g: { $gte: -3, $lt: 2 } }, { n: { $gte: 2, $lt: 5 } }, { n: { $gt: 8 } }, { n: { $lt: 0 } },
  { f: { $all: ['a', 1] } }, { f: { $all: [2] } },
  { f: 1, g: { $in: ['a', null] } }, { f: { $gt: 0 }, g: { $lt: 'c' } }, { n: 3, g: { $gte: 1 } },
  { _id: { $in: ['m037', 'm074', 'nope', 'm111'] }, f: { $exists: true } }, { u: { $gte: 'u1', $lt: 'u3' } },
  { $and: [{ f: { $gt: 1 } }, { n: { $lt: 4 } }] },
];

describe('running access plans', () => {
  it.each(FILTERS.map((filter) => [JSON.stringify(filter), filter]))('%s: candidates hold every match, in natural order, and exactly the matches when nothing is left', (_, filter) => {
    const plan = planAccess(filter, undefined, state.indexSpecs());
    const expected = ids(matches(filter));
    const positions = candidatePositions(plan, state);
    expect(positions).toBeDefined();
    expect([...positions!]).toEqual([...positions!].sort((a, b) => a - b));
    const candidates = positions!.map((position) => state.documentAt(position)!).filter(Boolean);
    const tested = ids(candidates.filter((document) => new Query(plan.residual).test(document)));
    expect(tested).toEqual(expected);
    if (Object.keys(plan.residual).length === 0) {
      expect(ids(candidates)).toEqual(expected);
      expect(countCandidates(plan, state)).toBe(expected.length);
    }
  });

  const SORTS: SortSpec[] = [{ f: 1 }, { f: -1 }, { f: 1, _id: 1 }, { f: -1, n: 1 }, { g: 1, _id: -1 }, { n: -1, _id: 1 }, { n: 1, f: -1 }, { _id: 1 }, { _id: -1, f: 1 }];
  const PAGE_FILTERS: Filter[] = [{}, { n: { $gte: 3 } }, { f: { $exists: true } }, { g: 'a' }, { f: { $gt: 0 } }, { $or: [{ g: null }, { n: 2 }] }];
  const walks = SORTS.flatMap((sort) => PAGE_FILTERS.flatMap((filter) => [1, 5, 23, 400].map((keep) => [JSON.stringify({ sort, filter, keep }), sort, filter, keep] as const)));

  it.each(walks)('walking the ordered index gives the page sorting every match gives: %s', (_, sort, filter, keep) => {
    const plan = planAccess(filter, sort, state.indexSpecs(), keep);
    expect(plan.order).toBeDefined();
    const walked = walkInOrder(plan, state, candidateOf(plan, filter, state), sort)!.slice(0, keep);
    expect(ids(walked)).toEqual(ids(sortDocuments(matches(filter), sort)).slice(0, keep));
  });
});

describe('running access plans over keys many documents hold (bitsets)', () => {
  /** 6,000 documents over few keys, so that keys pass the bitset threshold; then many leave and come back. */
  function largeState(): CollectionState {
    const large = new CollectionState('Large');
    for (const field of ['a', 'b', 'c']) large.addIndex({ name: `ag_${field}`, keys: { [field]: 1 } }, false);
    const documentOf = (i: number): StoredDocument => ({
      _id: `l${i}`,
      a: i % 2 === 0,
      b: ['x', 'y', 'z'][i % 3]!,
      c: i % 10 === 0 ? ['p', 'q'] : i % 7 === 0 ? 'q' : 'p',
    });
    for (let i = 0; i < 6000; i++) large.put(documentOf(i));
    // 'z' drops below half the threshold (its bitset goes), others lose members and regain them elsewhere.
    for (let i = 0; i < 6000; i += 1) if (i % 3 === 2 && i > 700) large.remove(`l${i}`);
    for (let i = 0; i < 6000; i += 5) large.put({ ...documentOf(i), a: !(i % 2 === 0) });
    for (let i = 6000; i < 7000; i++) large.put(documentOf(i));
    return large;
  }
  const large = largeState();
  const everything = large.all() as StoredDocument[];
  const LARGE_FILTERS: Filter[] = [
    { a: true }, { a: true, b: 'x' }, { a: false, b: 'z' }, { b: 'y', c: 'q' }, { a: true, b: { $in: ['x', 'z'] }, c: 'p' },
    { a: false, c: { $gte: 'q' } }, { _id: { $in: ['l3', 'l4', 'l6500', 'l5'] }, a: false }, { a: true, b: 'x', c: 'q' },
  ];

  it.each(LARGE_FILTERS.map((filter) => [JSON.stringify(filter), filter]))('%s: candidates and count are exactly the matches', (_, filter) => {
    const plan = planAccess(filter, undefined, large.indexSpecs());
    expect(plan.residual).toEqual({});
    const expected = (new Query(filter).find(everything).all() as StoredDocument[]).map((document) => document._id);
    const found = candidatePositions(plan, large)!.map((position) => large.documentAt(position)!._id);
    expect(found).toEqual(expected);
    expect(countCandidates(plan, large)).toBe(expected.length);
  });

  const GROUP_SORTS: SortSpec[] = [{ a: 1, _id: 1 }, { b: -1, _id: -1 }, { b: 1, _id: 1 }, { c: 1, _id: 1 }];
  const GROUP_FILTERS: Filter[] = [{}, { c: 'q' }, { a: true }, { b: { $ne: 'y' } }, { _id: { $gte: 'l5' } }];
  const groupWalks = GROUP_SORTS.flatMap((sort) => GROUP_FILTERS.flatMap((filter) => [1, 10, 50, 3000].map((keep) => [JSON.stringify({ sort, filter, keep }), sort, filter, keep] as const)));

  it.each(groupWalks)('a walk whose groups are taken in _id order gives the full sort: %s', (_, sort, filter, keep) => {
    const plan = planAccess(filter, sort, large.indexSpecs(), keep);
    const walked = walkInOrder(plan, large, candidateOf(plan, filter, large), sort)!.slice(0, keep);
    const expected = sortDocuments(new Query(filter).find(everything).all() as StoredDocument[], sort).slice(0, keep);
    expect(walked.map((document) => document._id)).toEqual(expected.map((document) => document._id));
  });
});

describe('ordered walks after the ordered keys were built', () => {
  it('follow inserts, updates, removals and restores', () => {
    const live = buildState();
    const sorts: SortSpec[] = [{ f: 1, _id: 1 }, { g: -1, _id: 1 }, { _id: 1 }, { _id: -1 }];
    const pageOf = (sort: SortSpec, keep: number) => {
      const plan = planAccess({}, sort, live.indexSpecs(), keep);
      return ids(walkInOrder(plan, live, candidateOf(plan, {}, live), sort)!.slice(0, keep));
    };
    const ranges: Filter[] = [{ n: { $gte: 100, $lt: 300 } }, { n: { $gt: 1000, $lte: 3500 } }, { n: { $gte: 2, $lt: 6 } }, { n: { $gt: 2 } }, { n: { $lte: 1 } }, { u: { $gt: 'u1', $lte: 'u5' } }, { f: { $gte: -300, $lt: 2 } }];
    const check = () => {
      const everything = live.all() as StoredDocument[];
      for (const sort of sorts) for (const keep of [1, 4, 1000]) expect({ sort, keep, page: pageOf(sort, keep) }).toEqual({ sort, keep, page: ids(sortDocuments(everything, sort)).slice(0, keep) });
      for (const filter of ranges) {
        const count = countCandidates(planAccess(filter, undefined, live.indexSpecs()), live);
        expect({ filter, count }).toEqual({ filter, count: new Query(filter).find(everything).all().length });
      }
    };
    // Enough distinct keys for several blocks of ordered keys, which range counts then add up whole.
    for (let i = 0; i < 3000; i++) live.put({ _id: `t${i}`, n: 1000 + i });
    for (const sort of sorts) pageOf(sort, 3);
    check();
    for (let i = 0; i < 3000; i += 2) live.put({ _id: `t${i}b`, n: 1000 + i });
    for (let i = 0; i < 3000; i += 6) live.remove(`t${i}`);
    // Many documents move in and out of one range, so that its blocks' counts change after they were built.
    for (let i = 0; i < 400; i++) live.put({ _id: `w${i}`, n: i % 9, u: `u${i % 7}` });
    for (let i = 0; i < 400; i += 3) live.remove(`w${i}`);
    for (let i = 1; i < 400; i += 3) live.put({ _id: `w${i}`, n: 100 + i });
    // Keys held by one document gain a second holder, and lose it again.
    for (let i = 1; i < 100; i += 3) live.put({ _id: `v${i}`, n: 100 + i });
    for (let i = 1; i < 50; i += 3) live.remove(`w${i}`);
    const before = new Map(['m001', 'm002', 'm005', 'zz1'].map((id) => [id, live.get(id)]));
    live.put({ _id: 'zz1', f: -100, g: 'zzz', n: 1 });
    live.put({ _id: 'm001', f: -200, g: 'zzzz', n: 2 });
    live.remove('m002');
    live.put({ _id: 'a00', f: [-300, 'x'], n: 3 });
    check();
    before.set('a00', undefined);
    live.restore(before);
    check();
  });
});

describe('walk budgets', () => {
  it('give up a walk whose matches sit late in the order, and allow one with no estimate', () => {
    const dated = new CollectionState('Dated');
    dated.addIndex({ name: 'ag_day', keys: { day: 1 } }, false);
    // The day follows the id: the second half of the days is the second half of the ids.
    for (let i = 0; i < 4000; i++) dated.put({ _id: `d${String(i).padStart(5, '0')}`, day: i });
    const late = { day: { $gte: 2000 } };
    const plan = planAccess(late, { _id: 1 }, dated.indexSpecs(), 5);
    const budget = walkBudget(plan, dated);
    expect(budget).toBe(1024);
    expect(walkInOrder(plan, dated, candidateOf(plan, late, dated), { _id: 1 }, budget)).toBeUndefined();
    expect(ids(walkInOrder(plan, dated, candidateOf(plan, late, dated), { _id: 1 })!)).toEqual(['d02000', 'd02001', 'd02002', 'd02003', 'd02004']);
    expect(walkBudget(planAccess({ day: { $type: 'number' } }, { _id: 1 }, dated.indexSpecs(), 5), dated)).toBe(Infinity);
    expect(walkBudget(planAccess({ day: { $gte: 3990 } }, { _id: 1 }, dated.indexSpecs(), 5), dated)).toBeUndefined();
  });
});

describe('walk budgets of filters over several indexes', () => {
  // 10,000 documents: a tag on 5% of them, a flag on half, both independent of the day (the walked order).
  const tagged = new CollectionState('Tagged');
  for (const field of ['tag', 'flag', 'day']) tagged.addIndex({ name: `ag_${field}`, keys: { [field]: 1 } }, false);
  for (let i = 0; i < 10_000; i++) {
    tagged.put({ _id: `t${String(i).padStart(5, '0')}`, tag: i % 20 === 0 ? 'rare' : 'common', flag: i % 2 === 1, day: (i * 7919) % 10_000 });
  }
  const budgetOf = (filter: Filter, keep: number): number | undefined => walkBudget(planAccess(filter, { day: -1, _id: 1 }, tagged.indexSpecs(), keep), tagged);

  it.each([
    // 500 tagged; with the flag ~250 match: a page of 20 needs ~800 tests, more than the 500 candidates
    // (estimated by the tag alone, ~400 tests, a walk that would give up).
    ['a rare tag and a common flag, 20 wanted', { tag: 'rare', flag: false }, 20, undefined],
    // The tag alone: a page of 20 needs ~400 tests of 500 candidates; it may test all 500.
    ['a rare tag alone, 20 wanted', { tag: 'rare' }, 20, 500],
    // The flag alone: ~40 tests, far fewer than the 5,000 candidates; at least 1,024 before giving up.
    ['a common flag alone, 20 wanted', { flag: true }, 20, 1024],
  ])('%s', (_name, filter, keep, expected) => {
    expect(budgetOf(filter, keep)).toBe(expected);
  });

  it('gives the same page whether it walks or sorts the candidates', () => {
    const filter = { tag: 'rare', flag: false };
    const matches = [...tagged.all()].filter((document) => new Query(filter).test(document));
    const sorted = sortDocuments(matches, { day: -1, _id: 1 }, 20);
    const plan = planAccess(filter, { day: -1, _id: 1 }, tagged.indexSpecs(), 20);
    expect(walkInOrder(plan, tagged, candidateOf(plan, filter, tagged), { day: -1, _id: 1 })).toEqual(sorted);
  });
});
