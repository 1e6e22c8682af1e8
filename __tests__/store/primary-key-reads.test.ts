import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { primaryKeyLiterals } from '../../src/store/embedded/primary-key-filter.js';
import type { Filter, FindOptions, Store, StoredDocument, Transaction } from '../../src/store/port.js';

/**
 * `find` with a filter on `_id` alone reads the documents by id (store/embedded/primary-key-filter.ts). The
 * same filter wrapped in `$and` takes the generic path (access plan, candidate scan, compiled predicate):
 * both must answer the same documents in the same order, with every sort, page and projection, inside and
 * beside a running transaction.
 */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

async function openStore(): Promise<Store> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-primary-key-'));
  folders.push(folder);
  return openEmbeddedStore(folder);
}

/** Ids out of order against natural order, and ranks that tie, so an order from the wrong source shows. */
function documentsOf(count: number): StoredDocument[] {
  return Array.from({ length: count }, (_, i) => ({ _id: `k${String((i * 7) % count).padStart(2, '0')}`, rank: i % 3, title: `t${i}`, tags: [i, { at: i }] }));
}

const ID_FILTERS: Filter[] = [
  { _id: 'k07' },
  { _id: { $eq: 'k14' } },
  { _id: 'missing' },
  { _id: { $in: [] } },
  { _id: { $in: ['k21'] } },
  { _id: { $in: ['k21', 'k03', 'missing', 'k10', 'k03', 'k00'] } },
  { _id: { $in: ['k05', 'k01', 'k28', 'k12'] } },
];

const OPTIONS: FindOptions[] = [
  {},
  { sort: { _id: 1 } },
  { sort: { _id: -1 } },
  { sort: { rank: 1, _id: 1 } },
  { sort: { rank: -1, _id: -1 } },
  { sort: { rank: 1 } },
  { sort: { _id: 1 }, limit: 1 },
  { sort: { _id: 1 }, skip: 1, limit: 2 },
  { sort: { rank: 1, _id: 1 }, skip: 2 },
  { sort: { _id: 1 }, skip: 9 },
  { skip: 1 },
  { sort: { _id: 1 }, projection: { title: 1 } },
  { projection: { rank: 1, 'tags.at': 1 } },
];

async function answers(store: Store, collection: string, tx?: Transaction): Promise<Array<{ filter: Filter; options: FindOptions; byId: StoredDocument[]; generic: StoredDocument[] }>> {
  const items = store.collection(collection);
  const all = [];
  for (const filter of ID_FILTERS) {
    for (const options of OPTIONS) {
      all.push({ filter, options, byId: await items.find(filter, options, { tx }), generic: await items.find({ $and: [filter] }, options, { tx }) });
    }
  }
  return all;
}

function expectSame(all: Awaited<ReturnType<typeof answers>>): void {
  for (const { filter, options, byId, generic } of all) {
    expect({ filter, options, found: byId }).toEqual({ filter, options, found: generic });
  }
}

describe('find by primary key on the embedded store', () => {
  it('names the ids of _id-only filters, and nothing for any other filter', () => {
    const cases: Array<[Filter, string[] | undefined]> = [
      [{ _id: 'a' }, ['a']],
      [{ _id: { $eq: 'a' } }, ['a']],
      [{ _id: { $in: ['a', 'b', 'a'] } }, ['a', 'b', 'a']],
      [{ _id: { $in: [] } }, []],
      [{ _id: 1 }, undefined],
      [{ _id: { $in: ['a', 1] } }, undefined],
      [{ _id: { $eq: 'a', $ne: 'b' } }, undefined],
      [{ _id: { $gt: 'a' } }, undefined],
      [{ _id: 'a', rank: 1 }, undefined],
      [{ $and: [{ _id: 'a' }] }, undefined],
      [{}, undefined],
    ];
    for (const [filter, ids] of cases) expect({ filter, ids: primaryKeyLiterals(filter) }).toEqual({ filter, ids });
  });

  it('answers what the generic path answers, with every sort, page and projection', async () => {
    const store = await openStore();
    await store.collection('Task').insertMany(documentsOf(30));
    const all = await answers(store, 'Task');
    expectSame(all);
    // The answers are not all empty: the cases do read documents, in the sort asked.
    expect(all.find((one) => one.filter._id === 'k07' && Object.keys(one.options).length === 0)?.byId).toEqual([{ _id: 'k07', rank: 1, title: 't1', tags: [1, { at: 1 }] }]);
    const ranked = all.find((one) => Array.isArray((one.filter._id as { $in?: unknown })?.$in) && (one.filter._id as { $in: string[] }).$in.length === 4 && one.options.sort?.rank === -1);
    expect(ranked?.byId.map((document) => document._id)).toEqual(['k05', 'k28', 'k01', 'k12']);
    await store.close();
  });

  it('hands out copies: changing an answer does not change the store', async () => {
    const store = await openStore();
    const items = store.collection('Task');
    await items.insertMany(documentsOf(3));
    const [found] = await items.find({ _id: 'k01' });
    (found!.tags as unknown[]).push('changed');
    found!.title = 'changed';
    expect(await items.find({ _id: 'k01' })).toEqual([{ _id: 'k01', rank: 1, title: 't1', tags: [1, { at: 1 }] }]);
    await store.close();
  });

  it('sees a running transaction inside it, and the state before it beside it', async () => {
    const store = await openStore();
    const items = store.collection('Task');
    await items.insertMany(documentsOf(30));
    const before = await answers(store, 'Task');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    let inside: Awaited<ReturnType<typeof answers>> = [];
    const running = store.transaction(async (tx) => {
      await items.updateMany({ _id: { $in: ['k07', 'k21'] } }, { $set: { rank: 9 } }, { tx });
      await items.deleteMany({ _id: { $in: ['k03', 'k14'] } }, { tx });
      await items.insertMany([{ _id: 'missing', rank: 0, title: 'new', tags: [] }], { tx });
      inside = await answers(store, 'Task', tx);
      wrote();
      await gate;
      throw new Error('rolled back on purpose');
    });
    const outcome = running.catch((error: Error) => error.message);
    await written;
    try {
      expectSame(inside);
      expect(inside.find((one) => one.filter._id === 'missing')?.byId).toEqual([{ _id: 'missing', rank: 0, title: 'new', tags: [] }]);
      expect(inside.find((one) => one.filter._id === 'k07')?.byId[0]?.rank).toBe(9);
      expect(inside.find((one) => (one.filter._id as { $eq?: string }).$eq === 'k14')?.byId).toEqual([]);
      const beside = await answers(store, 'Task');
      expectSame(beside);
      // Beside it, a document the transaction deleted is listed last in natural order (its place went with
      // it): only answers in a total order (sorted by _id, among other keys) stay exactly as before.
      const totallyOrdered = (all: typeof before) => all.filter((one) => one.options.sort !== undefined && '_id' in one.options.sort);
      expect(totallyOrdered(beside)).toEqual(totallyOrdered(before));
    } finally {
      release();
    }
    expect(await outcome).toBe('rolled back on purpose');
    await store.close();
  });
});
