/** Partial unique indexes (`partialFilterExpression`) on the embedded store, as the `@id` index uses them. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { IndexSpec, Store } from '../../src/store/port.js';

const byCode: IndexSpec = { name: 'ag_unique_code', keys: { code: 1 }, unique: true, partialFilterExpression: { code: { $type: 'string' } } };

let folder: string;
let store: Store;

beforeEach(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-partial-'));
  store = await openEmbeddedStore(folder);
});

afterEach(async () => {
  await store.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('documents without a value of the type do not collide; two equal strings do', async () => {
  await store.syncIndexes('Item', [byCode], 'ag_');
  const items = store.collection('Item');
  await items.insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c', code: null }, { _id: 'd', code: null }, { _id: 'e', code: 'x' }]);
  await expect(items.insertMany([{ _id: 'f', code: 'x' }])).rejects.toMatchObject({ name: 'DuplicateKeyError', collection: 'Item', field: 'code', value: 'x' });
  await expect(items.updateMany({ _id: 'a' }, { $set: { code: 'x' } })).rejects.toMatchObject({ name: 'DuplicateKeyError', field: 'code', value: 'x' });
  expect(await items.find({ code: 'x' })).toEqual([{ _id: 'e', code: 'x' }]);
  expect((await items.find({ code: null }, { sort: { _id: 1 } })).map((item) => item._id)).toEqual(['a', 'b', 'c', 'd']);
});

test('the spec lists back as given, so a second sync changes nothing; replacing the sparse form creates the new one and drops the old', async () => {
  await store.syncIndexes('Item', [{ name: 'ag_id_code', keys: { code: 1 }, unique: true, sparse: true }], 'ag_');
  expect(await store.syncIndexes('Item', [byCode], 'ag_')).toEqual({ created: ['ag_unique_code'], dropped: ['ag_id_code'] });
  expect(await store.listIndexes('Item')).toEqual([byCode]);
  expect(await store.syncIndexes('Item', [byCode], 'ag_')).toEqual({ created: [], dropped: [] });
});

test('the index survives a restart', async () => {
  await store.syncIndexes('Item', [byCode], 'ag_');
  await store.collection('Item').insertMany([{ _id: 'e', code: 'x' }]);
  await store.close();
  store = await openEmbeddedStore(folder);
  await expect(store.collection('Item').insertMany([{ _id: 'f', code: 'x' }])).rejects.toMatchObject({ name: 'DuplicateKeyError', field: 'code' });
  expect(await store.listIndexes('Item')).toEqual([byCode]);
});
