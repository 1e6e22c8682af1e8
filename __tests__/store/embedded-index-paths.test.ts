import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { aggregate, Query } from 'mingo';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { sortDocuments } from '../../src/store/embedded/sort-order.js';
import type { Filter, SortSpec, Store, StoredDocument, Transaction } from '../../src/store/port.js';

/**
 * The index paths of the embedded store (counts from postings, ranges, ordered-index walks, compiled
 * predicates) against the generic path: the same documents in a collection without indexes, and mingo over
 * all of them, across stored value kinds, also inside and beside a running transaction.
 */
const VALUES: unknown[] = [
  'a', 'b', '1', '', '2024-01-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z', 1, 2, 1.5, 0, -3, 7,
  true, false, null, [], ['a', 1], [1, 5], [0, 9], [['a']], [null], ['b', true], [{ x: 'a' }], { x: 'a' }, { x: 1 },
];

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function documentsOf(count: number): StoredDocument[] {
  let seed = 5;
  const pick = (list: readonly unknown[]): unknown => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return list[seed % list.length];
  };
  return Array.from({ length: count }, (_, i) => {
    const document: StoredDocument = { _id: `k${String((i * 53) % count).padStart(3, '0')}`, n: i % 7, done: i % 3 === 0 };
    for (const field of ['f', 'g']) {
      const value = pick([...VALUES, undefined]);
      if (value !== undefined) document[field] = value;
    }
    document.terms = [pick(['x', 'y', 'z']), pick(['y', 'w'])];
    const rank = pick([1, 2, 3, -4, 10, null, undefined]);
    if (rank !== undefined) document.rank = rank;
    const label = pick(['b', 'a', '2024-05-01T00:00:00.000Z', undefined]);
    if (label !== undefined) document.label = label;
    document.ratio = pick([0.1, 0.2, 3]);
    return document;
  });
}

const FILTERS: Filter[] = [
  { done: true }, { done: false, terms: { $in: ['x'] } }, { terms: { $all: ['y', 'w'] } }, { f: 'a' }, { f: { $in: [1, 'b', true] } },
  { f: { $gt: 1 } }, { f: { $gte: 1, $lt: 7 } }, { f: { $lte: 'b' } }, { f: { $gte: '2024-01-01', $lt: '2024-06-01' } },
  { n: { $gte: 2, $lt: 5 } }, { n: { $gt: 2 }, done: true }, { g: { $lt: 2 }, f: { $exists: true } }, { f: { $ne: null }, n: 3 },
  { $or: [{ f: 1 }, { g: 'a' }] }, { 'f.x': 'a' }, { f: { $elemMatch: { $gte: 5 } } }, { f: { $nin: ['a', 1] }, done: false },
];
const SORTS: SortSpec[] = [{ f: 1, _id: 1 }, { f: -1, _id: 1 }, { n: -1, _id: 1 }, { g: 1, n: 1, _id: 1 }, { _id: 1 }];
const AGGREGATES = {
  $group: {
    _id: null,
    count: { $sum: 1 },
    least: { $min: '$n' },
    total: { $sum: '$n' },
    rankMin: { $min: '$rank' },
    rankMax: { $max: '$rank' },
    rankSum: { $sum: '$rank' },
    rankAvg: { $avg: '$rank' },
    labelMin: { $min: '$label' },
    labelMax: { $max: '$label' },
    ratioSum: { $sum: '$ratio' },
    fMax: { $max: '$f' },
  },
};
/** Without the fractional sum and the array field, which the indexes leave to the rows. */
const INDEXABLE_AGGREGATES = { $group: Object.fromEntries(Object.entries(AGGREGATES.$group).filter(([name]) => name !== 'ratioSum' && name !== 'fMax')) };
const COUNT_ONLY = { $group: { _id: null, count: { $sum: 1 }, halves: { $sum: 0.5 } } };
const PAGES: Array<[number, number]> = [[0, 1], [0, 5], [3, 7], [150, 10]];

async function answers(store: Store, collection: string, tx?: Transaction): Promise<unknown[]> {
  const items = store.collection(collection);
  const ids = (found: Array<Record<string, unknown>>) => found.map((document) => document._id);
  const all: unknown[] = [];
  for (const filter of FILTERS) {
    all.push({
      filter,
      found: ids(await items.find(filter, {}, { tx })),
      count: await items.count(filter, { tx }),
      grouped: await items.aggregate([{ $match: filter }, AGGREGATES], { tx }),
      indexable: await items.aggregate([{ $match: filter }, INDEXABLE_AGGREGATES], { tx }),
      counted: await items.aggregate([{ $match: filter }, COUNT_ONLY], { tx }),
    });
    for (const sort of SORTS) {
      for (const [skip, limit] of PAGES) all.push({ filter, sort, skip, limit, page: ids(await items.find(filter, { sort, skip, limit }, { tx })) });
    }
  }
  return all;
}

describe('embedded store index paths', () => {
  let store: Store;
  const documents = documentsOf(180);
  beforeAll(async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-index-paths-'));
    folders.push(folder);
    store = await openEmbeddedStore(folder);
    await store.syncIndexes('Indexed', ['f', 'g', 'n', 'done', 'terms', 'rank', 'label', 'ratio'].map((field) => ({ name: `ag_${field}`, keys: { [field]: 1 as const } })), 'ag_');
    for (const collection of ['Plain', 'Indexed']) {
      await store.collection(collection).insertMany(documents);
      // Moves and holes: natural order differs from _id order and postings change.
      await store.collection(collection).deleteMany({ n: 4, done: false });
      await store.collection(collection).updateMany({ n: 2 }, { $set: { f: 3 } });
      await store.collection(collection).insertMany(documentsOf(240).slice(180).map((document) => ({ ...document, _id: `${document._id}b` })));
    }
  });
  afterAll(async () => {
    await store.close();
  });

  it('match what mingo matches, counts and groups over every document, sorted as a full sort of the matches', async () => {
    const all = await store.collection('Plain').find({});
    for (const filter of FILTERS) {
      const expected = (new Query(filter).find(all).all() as StoredDocument[]).map((document) => document._id);
      expect({ filter, found: (await store.collection('Indexed').find(filter)).map((document) => document._id) }).toEqual({ filter, found: expected });
      expect({ filter, count: await store.collection('Indexed').count(filter) }).toEqual({ filter, count: expected.length });
      const matches = new Query(filter).find(all).all() as StoredDocument[];
      for (const sort of SORTS) {
        const sorted = sortDocuments(matches, sort).map((document) => document._id);
        for (const [skip, limit] of PAGES) {
          const page = (await store.collection('Indexed').find(filter, { sort, skip, limit })).map((document) => document._id);
          expect({ filter, sort, skip, limit, page }).toEqual({ filter, sort, skip, limit, page: sorted.slice(skip, skip + limit) });
        }
      }
      for (const group of [COUNT_ONLY, AGGREGATES, INDEXABLE_AGGREGATES]) {
        const stages = [{ $match: filter }, group];
        expect({ filter, grouped: await store.collection('Indexed').aggregate(stages) }).toEqual({ filter, grouped: aggregate(all, stages) });
      }
    }
  });

  it('give what the collection without indexes gives: finds, counts, groups and sorted pages', async () => {
    expect(await answers(store, 'Indexed')).toEqual(await answers(store, 'Plain'));
  });

  it('give the right page when a walk in id order gives up (the filter follows the ids)', async () => {
    await store.syncIndexes('Dated', [{ name: 'ag_day', keys: { day: 1 } }], 'ag_');
    const dated = store.collection('Dated');
    await dated.insertMany(Array.from({ length: 3000 }, (_, i) => ({ _id: `d${String(i).padStart(5, '0')}`, day: i })));
    const page = await dated.find({ day: { $gte: 2000, $lt: 2500 } }, { sort: { _id: 1 }, skip: 2, limit: 3 });
    expect(page).toEqual([2002, 2003, 2004].map((day) => ({ _id: `d0${day}`, day })));
    expect(await dated.count({ day: { $gte: 2000, $lt: 2500 } })).toBe(500);
  });

  it('give the same inside a running transaction, and the state before it beside it', async () => {
    const before = await answers(store, 'Plain');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const inside: Record<string, unknown[]> = {};
    const running = store.transaction(async (tx) => {
      for (const collection of ['Plain', 'Indexed']) {
        const items = store.collection(collection);
        await items.updateMany({ n: { $lt: 2 } }, { $set: { f: 1.5, done: true } }, { tx });
        await items.deleteMany({ f: 'b' }, { tx });
        await items.insertMany([{ _id: 'new', n: 1, f: 'a', g: [2, 'a'], done: false, terms: ['x'] }], { tx });
        inside[collection] = await answers(store, collection, tx);
      }
      wrote();
      await gate;
      throw new Error('rolled back on purpose');
    });
    const outcome = running.catch((error: Error) => error.message);
    await written;
    // A document the transaction deleted is listed last beside it (its place went with it): compare found as
    // sets, and fractional sums (added in that other order) to the 9th decimal.
    const roundedSums = (rows: Array<Record<string, unknown>>) => rows.map((row) => ({ ...row, ratioSum: Number((row.ratioSum as number).toFixed(9)) }));
    const unordered = (all: unknown[]) =>
      all.map((one) => {
        if (!('found' in (one as object))) return one;
        const answer = one as { found: string[]; grouped: Array<Record<string, unknown>> };
        return { ...answer, found: [...answer.found].sort(), grouped: roundedSums(answer.grouped) };
      });
    try {
      expect(inside.Indexed).toEqual(inside.Plain);
      expect(unordered(await answers(store, 'Indexed'))).toEqual(unordered(before));
    } finally {
      release();
    }
    expect(await outcome).toBe('rolled back on purpose');
    // Rolled back, the documents the transaction deleted are back at the end of natural order, in both.
    expect(await answers(store, 'Indexed')).toEqual(await answers(store, 'Plain'));
  });
});
