import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { nullsLastPage } from '../../src/query/nulls-last.js';
import type { FindOptions, Store, StoredDocument } from '../../src/store/port.js';

/**
 * Dgraph returns the objects without a value for the sort field after all others, in both directions.
 * The embedded store gives that order on every path: a full sort, a top-k sort and a walk of the ordered
 * index (collection `Indexed`). MongoDB's commands: __tests__/mongo/sorted-find.test.ts.
 */
const DOCUMENTS: StoredDocument[] = [
  { _id: 'a', rank: 3 },
  { _id: 'b', rank: null },
  { _id: 'c', rank: 1 },
  { _id: 'd' },
  { _id: 'e', rank: 2 },
  { _id: 'f', rank: 1 },
];

const folders: string[] = [];
let store: Store;

beforeAll(async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-nulls-last-'));
  folders.push(folder);
  store = await openEmbeddedStore(folder);
  await store.syncIndexes('Indexed', [{ name: 'ag_rank', keys: { rank: 1 } }], 'ag_');
  for (const collection of ['Plain', 'Indexed']) await store.collection(collection).insertMany(DOCUMENTS);
});

afterAll(async () => {
  await store.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

describe.each(['Plain', 'Indexed'])('embedded find on %s: nulls last in both directions', (collection) => {
  test.each<[string, FindOptions, string[]]>([
    ['ascending, all', { sort: { rank: 1, _id: 1 } }, ['c', 'f', 'e', 'a', 'b', 'd']],
    ['descending, all', { sort: { rank: -1, _id: 1 } }, ['a', 'e', 'c', 'f', 'b', 'd']],
    ['ascending, first 2', { sort: { rank: 1, _id: 1 }, limit: 2 }, ['c', 'f']],
    ['descending, first 2', { sort: { rank: -1, _id: 1 }, limit: 2 }, ['a', 'e']],
    ['ascending, offset 3, first 2: the last value, then a null', { sort: { rank: 1, _id: 1 }, skip: 3, limit: 2 }, ['a', 'b']],
    ['ascending, offset 4: only the nulls', { sort: { rank: 1, _id: 1 }, skip: 4, limit: 5 }, ['b', 'd']],
    ['descending ids among the nulls', { sort: { rank: 1, _id: -1 }, skip: 4, limit: 5 }, ['d', 'b']],
  ])('%s', async (_name, options, expected) => {
    const page = await store.collection(collection).find({}, options);
    expect(page.map((document) => document._id)).toEqual(expected);
  });

  test('findPerKey pages sort nulls last too', async () => {
    const pages = await store.collection(collection).findPerKey('_id', ['b', 'c', 'd'], {}, { sort: { rank: 1, _id: 1 }, skip: 0, limit: 5 });
    expect(Object.fromEntries([...pages].map(([key, documents]) => [key, documents.map((document) => document._id)]))).toEqual({ b: ['b'], c: ['c'], d: ['d'] });
  });

  test('an aggregation with the query layer\'s nulls-last stages gives the same order, temporary keys removed', async () => {
    const pipeline = [{ $match: {} }, ...nullsLastPage({ rank: 1, _id: 1 }, undefined, undefined)];
    const rows = await store.collection(collection).aggregate(pipeline);
    expect(rows).toEqual([
      { _id: 'c', rank: 1 },
      { _id: 'f', rank: 1 },
      { _id: 'e', rank: 2 },
      { _id: 'a', rank: 3 },
      { _id: 'b', rank: null },
      { _id: 'd' },
    ]);
  });
});
