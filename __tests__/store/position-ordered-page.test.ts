import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Query } from 'mingo';
import { CollectionState } from '../../src/store/embedded/collection-state.js';
import { compileFilter } from '../../src/store/embedded/find-documents.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { pageInPositionOrder } from '../../src/store/embedded/position-ordered-page.js';
import { sortDocuments } from '../../src/store/embedded/sort-order.js';
import { DeadlineExceededError, type Filter, type IndexSpec, type SortSpec, type Store, type StoredDocument } from '../../src/store/port.js';
import { CHECK_EVERY } from '../../src/store/embedded/scan-deadline.js';

/**
 * Sorted pages read off natural order when the first sort field's index follows it (documents created in
 * the order of a creation time): when the index says it follows, and the pages against the generic path
 * (a full sort of mingo's matches, and the same collection without indexes).
 */

const AT: IndexSpec = { name: 'ag_at', keys: { at: 1 } };
const SPECS: IndexSpec[] = [AT, { name: 'ag_done', keys: { done: 1 } }, { name: 'ag_terms', keys: { terms: 1 } }, { name: 'ag_rank', keys: { rank: 1 } }];

const stamp = (minute: number): string => new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString();

/** `count` documents created in time order, several sharing a minute (ties), ids not in creation order. */
function createdInTimeOrder(count: number, from = 0): StoredDocument[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return {
      _id: `t${String((n * 37) % 1000).padStart(3, '0')}-${n}`,
      at: stamp(Math.floor(n / 3)),
      done: n % 2 === 0,
      terms: n % 5 === 0 ? ['urgent', 'x'] : ['x'],
      rank: n % 4,
    };
  });
}

function stateOf(documents: readonly StoredDocument[]): CollectionState {
  const state = new CollectionState('Task');
  for (const document of documents) state.put(document);
  for (const spec of SPECS) state.addIndex(spec, false);
  return state;
}

const followsOf = (state: CollectionState): boolean => state.index(AT.name)!.followsNaturalOrder;

describe('whether the index on a field follows natural order', () => {
  const twelve = createdInTimeOrder(12);
  it.each<[string, (state: CollectionState) => void, boolean]>([
    ['documents created in time order, with ties', () => undefined, true],
    ['a newer document created later', (state) => state.put({ _id: 'late', at: stamp(100) }), true],
    ['an update that keeps the field', (state) => state.put({ ...twelve[4]!, done: !twelve[4]!.done }), true],
    ['a deletion', (state) => state.remove(twelve[6]!._id), true],
    ['an older document created later', (state) => state.put({ _id: 'early', at: '2023-12-31T23:59:00.000Z' }), false],
    ['an update that moves the field', (state) => state.put({ ...twelve[4]!, at: stamp(50) }), false],
    ['a document without the field', (state) => state.put({ _id: 'none', done: true }), false],
    ['a document with null', (state) => state.put({ _id: 'null', at: null }), false],
    ['a document with an array', (state) => state.put({ _id: 'array', at: [stamp(90)] }), false],
  ])('%s', (_label, change, expected) => {
    const state = stateOf(twelve);
    expect(followsOf(state)).toBe(true);
    change(state);
    expect(followsOf(state)).toBe(expected);
  });

  it('holds for an index built over documents that follow it, and not over ones that do not', () => {
    expect(followsOf(stateOf([...createdInTimeOrder(5)].reverse()))).toBe(false);
    const state = stateOf(createdInTimeOrder(5));
    // Built again (as after a restart) over the same documents: the same verdict.
    state.addIndex(AT, false);
    expect(followsOf(state)).toBe(true);
  });
});

const FILTERS: Filter[] = [
  {},
  { done: false },
  { terms: 'urgent', done: false },
  { terms: 'urgent', rank: { $gte: 2 } },
  { rank: 3, done: true },
  { _id: { $regex: '^t0' } },
  { done: true, at: { $lt: stamp(20) } },
  { terms: 'nothing' },
];
// Without _id last, equal documents keep natural order.
const SORTS: SortSpec[] = [{ at: -1, _id: 1 }, { at: 1, _id: 1 }, { at: -1, rank: 1, _id: -1 }, { at: 1, done: -1, _id: 1 }, { at: -1 }, { at: 1, rank: -1 }];
const PAGES: Array<[number, number]> = [[0, 1], [0, 20], [3, 7], [55, 10], [200, 5]];

describe('pageInPositionOrder', () => {
  const documents = createdInTimeOrder(150);
  const state = stateOf(documents);

  it.each(FILTERS.map((filter) => [JSON.stringify(filter), filter] as const))('gives the page a full sort of the matches gives: %s', (_label, filter) => {
    const matches = new Query(filter).find(documents).all() as StoredDocument[];
    for (const sort of SORTS) {
      const sorted = sortDocuments(matches, sort).map((document) => document._id);
      for (const [skip, limit] of PAGES) {
        const page = pageInPositionOrder(state, filter, sort, skip + limit, (residual) => compileFilter('Task', residual));
        expect({ sort, skip, limit, page: page?.slice(skip).map((document) => document._id) }).toEqual({ sort, skip, limit, page: sorted.slice(skip, skip + limit) });
      }
    }
  });

  it('declines when the first sort field does not follow natural order or has no index', () => {
    const matcher = (residual: Filter) => compileFilter('Task', residual);
    expect(pageInPositionOrder(state, {}, { rank: -1, _id: 1 }, 5, matcher)).toBeUndefined();
    expect(pageInPositionOrder(state, {}, { unindexed: -1, _id: 1 }, 5, matcher)).toBeUndefined();
    expect(pageInPositionOrder(state, {}, { _id: 1 }, 5, matcher)).toBeUndefined();
  });

  it('gives up when the filter leaves too few matches near the end, rather than scan without pause', () => {
    const many = stateOf(createdInTimeOrder(3000));
    const filter = { _id: { $regex: '-2$' } };
    expect(pageInPositionOrder(many, filter, { at: -1, _id: 1 }, 3, (residual) => compileFilter('Task', residual))).toBeUndefined();
  });
});

describe('pageInPositionOrder over postings with bitsets (keys thousands of documents hold)', () => {
  /** 6,000 documents in time order: `done` on half (bitsets), `urgent` on a fifth (bitset), `rare` on few. */
  function largeDocuments(count: number): StoredDocument[] {
    return createdInTimeOrder(count).map((document, n) => ({ ...document, terms: n % 97 === 0 ? ['rare', 'x'] : document.terms }));
  }
  const documents = largeDocuments(6000);
  const state = stateOf(documents);
  const compile = (residual: Filter) => compileFilter('Task', residual);
  const pageOf = (filter: Filter, sort: SortSpec, skip: number, limit: number) => pageInPositionOrder(state, filter, sort, skip + limit, compile)?.slice(skip).map((document) => document._id);
  const sortedOf = (filter: Filter, sort: SortSpec, skip: number, limit: number) =>
    sortDocuments(new Query(filter).find(documents).all() as StoredDocument[], sort).slice(skip, skip + limit).map((document) => document._id);

  it('has bitsets for the common keys and none for the rare one', () => {
    const terms = state.index('ag_terms')!;
    expect([state.index('ag_done')!.bitsetOf('b:0') !== undefined, terms.bitsetOf('s:urgent') !== undefined, terms.bitsetOf('s:rare') !== undefined]).toEqual([true, true, false]);
  });

  const LARGE_FILTERS: Filter[] = [
    { terms: 'urgent', done: false },
    { terms: 'rare', done: true },
    { terms: { $in: ['rare', 'urgent'] }, done: false, rank: 2 },
    { terms: 'urgent', rank: { $gte: 3 } },
    { done: false, at: { $gte: stamp(1000) } },
    { terms: 'urgent', done: false, _id: { $regex: '7$' } },
    { terms: 'rare', rank: 1, done: false },
    { terms: 'nothing', done: true },
  ];
  const LARGE_PAGES: Array<[number, number]> = [[0, 1], [0, 20], [13, 20], [390, 15], [3990, 20]];

  it.each(LARGE_FILTERS.map((filter) => [JSON.stringify(filter), filter] as const))('gives the page a full sort of the matches gives: %s', (_label, filter) => {
    for (const sort of SORTS) {
      for (const [skip, limit] of LARGE_PAGES) {
        const page = pageOf(filter, sort, skip, limit);
        // A deep page over many matches gives up (undefined) rather than read far beyond the page.
        if (page === undefined) expect({ filter, sort, skip, matches: sortedOf(filter, sort, 0, Infinity).length > skip + limit + 1024 }).toEqual({ filter, sort, skip, matches: true });
        else expect({ sort, skip, limit, page }).toEqual({ sort, skip, limit, page: sortedOf(filter, sort, skip, limit) });
      }
    }
  });

  it('reads the first page of each filter without giving up', () => {
    for (const filter of LARGE_FILTERS) {
      for (const sort of SORTS) expect({ filter, sort, page: pageOf(filter, sort, 0, 20) }).toEqual({ filter, sort, page: sortedOf(filter, sort, 0, 20) });
    }
  });

  it('does not count positions the other lookups lack against giving up: the matches far from the end', () => {
    // `old` on the first 3,500 documents: walking the 3,000 not done (the smaller lookup) from the newest
    // end passes 1,250 positions that lack `old` before the first match, each a bitset test, no document read.
    const withOld = documents.map((document, n) => ({ ...document, old: n < 3500 }));
    const aged = stateOf(withOld);
    aged.addIndex({ name: 'ag_old', keys: { old: 1 } }, false);
    const filter = { done: false, old: true };
    const page = pageInPositionOrder(aged, filter, { at: -1, _id: 1 }, 5, compile)?.map((document) => document._id);
    expect(page).toEqual(sortDocuments(new Query(filter).find(withOld).all() as StoredDocument[], { at: -1, _id: 1 }).slice(0, 5).map((document) => document._id));
  });

  it('gives up when the residual filter rejects the candidates it reads, beyond the page', () => {
    // 3,000 candidates (`x` and not done), none of which the residual filter accepts.
    expect(pageOf({ terms: 'x', done: false, _id: { $regex: '^none' } }, { at: -1, _id: 1 }, 0, 5)).toBeUndefined();
  });
});

describe('pageInPositionOrder by _id, while ids were created ascending', () => {
  /** The fixture's documents with ids ascending in creation order. */
  const ascending = createdInTimeOrder(150).map((document, n) => ({ ...document, _id: `a${String(n).padStart(4, '0')}` }));
  const ID_SORTS: SortSpec[] = [{ _id: 1 }, { _id: -1 }, { _id: -1, at: 1 }];
  const compile = (residual: Filter) => compileFilter('Task', residual);

  it.each(FILTERS.map((filter) => [JSON.stringify(filter), filter] as const))('gives the page a full sort of the matches gives: %s', (_label, filter) => {
    const state = stateOf(ascending);
    const matches = new Query(filter).find(ascending).all() as StoredDocument[];
    for (const sort of ID_SORTS) {
      for (const [skip, limit] of PAGES) {
        const page = pageInPositionOrder(state, filter, sort, skip + limit, compile)?.slice(skip).map((document) => document._id);
        expect({ sort, skip, limit, page }).toEqual({ sort, skip, limit, page: sortDocuments(matches, sort).slice(skip, skip + limit).map((document) => document._id) });
      }
    }
  });

  it('declines once a document is created with an id below an earlier one', () => {
    const state = stateOf(ascending);
    state.put({ _id: 'a0000-late', at: stamp(999), done: true, terms: ['x'], rank: 0 });
    expect(pageInPositionOrder(state, {}, { _id: 1 }, 5, compile)).toBeUndefined();
  });
});

describe('find with a sort on a field that follows natural order', () => {
  let folder: string;
  let store: Store;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-position-order-'));
    store = await openEmbeddedStore(folder);
    await store.syncIndexes('Indexed', SPECS, 'ag_');
  });

  afterAll(async () => {
    await store.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function pages(collection: string): Promise<unknown[]> {
    const all: unknown[] = [];
    for (const filter of FILTERS) {
      for (const sort of SORTS) {
        for (const [skip, limit] of PAGES) all.push({ filter, sort, skip, limit, page: await store.collection(collection).find(filter, { sort, skip, limit }) });
      }
    }
    return all;
  }

  it('gives what the collection without indexes gives, before and after writes that break the order', async () => {
    for (const collection of ['Plain', 'Indexed']) {
      await store.collection(collection).insertMany(createdInTimeOrder(120));
      await store.collection(collection).deleteMany({ rank: 1, done: false });
      await store.collection(collection).updateMany({ rank: 2 }, { $set: { done: true } });
      await store.collection(collection).insertMany(createdInTimeOrder(40, 120));
    }
    expect(await pages('Indexed')).toEqual(await pages('Plain'));
    for (const collection of ['Plain', 'Indexed']) {
      await store.collection(collection).insertMany([{ _id: 'older', at: stamp(1), done: false, terms: ['urgent'], rank: 0 }]);
      await store.collection(collection).updateMany({ rank: 3, done: true }, { $set: { at: stamp(7) } });
    }
    expect(await pages('Indexed')).toEqual(await pages('Plain'));
  });
});

describe('a deep page read off natural order', () => {
  it('stops at the deadline while it reads', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-position-deadline-'));
    const store = await openEmbeddedStore(folder);
    try {
      await store.syncIndexes('Timed', [{ name: 'ag_n', keys: { n: 1 } }], 'ag_');
      const size = 3 * CHECK_EVERY;
      await store.collection('Timed').insertMany(Array.from({ length: size }, (_, n) => ({ _id: `d${String(n).padStart(4, '0')}`, n })));
      // The operation starts in time; the clock is past the deadline at its next look.
      const start = 1_000_000;
      let reads = 0;
      jest.spyOn(Date, 'now').mockImplementation(() => (++reads > 1 ? start + 10 : start));
      await expect(store.collection('Timed').find({}, { sort: { n: -1 }, skip: size - 2, limit: 1 }, { deadline: start + 10 }))
        .rejects.toEqual(new DeadlineExceededError('find on Timed'));
    } finally {
      jest.restoreAllMocks();
      await store.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
