import { rm } from 'node:fs/promises';
import { openEmbeddedStore } from '../../src/store/embedded/index';
import type { Store, StoredDocument, StoreSnapshot } from '../../src/store/port';
import { makeTempDir } from '../helpers/server';

/** The embedded store's snapshot: the state of the moment it was opened, whatever is written after. */

let dataDir: string;
let store: Store;

beforeEach(async () => {
  dataDir = await makeTempDir();
  store = await openEmbeddedStore(dataDir);
  await store.collection('Task').insertMany([
    { _id: 'a', title: 'first', n: 1 },
    { _id: 'b', title: 'second', n: 2 },
    { _id: 'c', title: 'third', n: 3 },
  ]);
  await store.collection('User').insertMany([{ _id: 'u', name: 'ada' }]);
  await store.syncIndexes('Task', [{ name: 'ag_title', keys: { title: 1 }, unique: true }], 'ag_');
});

afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function read(snapshot: StoreSnapshot, collection: string, batchSize: number): Promise<StoredDocument[][]> {
  const batches: StoredDocument[][] = [];
  for await (const batch of snapshot.documents(collection, batchSize)) batches.push(batch);
  return batches;
}

test('lists every collection with its count and indexes, sorted by name', async () => {
  const snapshot = await store.openSnapshot();
  expect(snapshot.consistency).toBe('point-in-time');
  expect(snapshot.collections).toEqual([
    { name: 'Task', count: 3, indexes: [{ name: 'ag_title', keys: { title: 1 }, unique: true }] },
    { name: 'User', count: 1, indexes: [] },
  ]);
  await snapshot.close();
});

test('inserts, updates and deletes after it was opened do not show; the documents come in batches', async () => {
  const snapshot = await store.openSnapshot();
  await store.collection('Task').insertMany([{ _id: 'd', title: 'fourth', n: 4 }]);
  await store.collection('Task').updateMany({ _id: 'a' }, { $set: { title: 'changed' } });
  await store.collection('Task').deleteMany({ _id: 'b' });
  await store.collection('User').deleteMany({});
  expect(await read(snapshot, 'Task', 2)).toEqual([
    [{ _id: 'a', title: 'first', n: 1 }, { _id: 'b', title: 'second', n: 2 }],
    [{ _id: 'c', title: 'third', n: 3 }],
  ]);
  expect(await read(snapshot, 'User', 10)).toEqual([[{ _id: 'u', name: 'ada' }]]);
  expect(await read(snapshot, 'Missing', 10)).toEqual([]);
  await snapshot.close();
  expect((await store.collection('Task').find({}, { sort: { _id: 1 } })).map((task) => task.title)).toEqual(['changed', 'third', 'fourth']);
});

test('a snapshot asked for during a transaction waits for it and holds all of its writes or none', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const transaction = store.transaction(async (tx) => {
    await store.collection('Task').insertMany([{ _id: 't1', title: 'in tx 1' }], { tx });
    await gate;
    await store.collection('Task').insertMany([{ _id: 't2', title: 'in tx 2' }], { tx });
  });
  const opening = store.openSnapshot();
  release();
  await transaction;
  const snapshot = await opening;
  expect(snapshot.collections.find((collection) => collection.name === 'Task')?.count).toBe(5);
  await snapshot.close();
});

test('a batch size that is not a positive integer is refused', async () => {
  const snapshot = await store.openSnapshot();
  await expect(read(snapshot, 'Task', 0)).rejects.toThrow('snapshot batch size must be a positive integer, got 0');
  await snapshot.close();
});
