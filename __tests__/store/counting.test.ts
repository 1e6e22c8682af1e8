import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countRoundTrips } from '../../src/store/counting.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Store } from '../../src/store/port.js';

describe('countRoundTrips', () => {
  let folder: string;
  let inner: Store;

  beforeEach(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-counting-'));
    inner = await openEmbeddedStore(folder);
  });

  afterEach(async () => {
    await inner.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('counts every collection call as one round trip, by operation, and passes results through', async () => {
    const { store, counter } = countRoundTrips(inner);
    const items = store.collection('Item');
    await items.insertMany([{ _id: 'a', n: 1 }, { _id: 'b', n: 2 }]);
    await items.updateMany({ _id: 'a' }, { $inc: { n: 1 } });
    expect(await items.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'a', n: 2 }, { _id: 'b', n: 2 }]);
    expect(await items.count({ n: 2 })).toBe(2);
    expect(await items.aggregate([{ $count: 'total' }])).toEqual([{ total: 2 }]);
    expect(await store.collection('Other').find({})).toEqual([]);
    expect(await items.deleteMany({ _id: 'b' })).toBe(1);

    expect(counter.count).toBe(7);
    expect(counter.byOperation).toEqual({ insertMany: 1, updateMany: 1, find: 2, count: 1, aggregate: 1, deleteMany: 1 });
    expect(items.name).toBe('Item');
    expect(store.kind).toBe('embedded');
  });

  it('does not count store-level calls, counts calls inside transactions, and resets', async () => {
    const { store, counter } = countRoundTrips(inner);
    await store.syncIndexes('Item', [{ name: 'ag_n', keys: { n: 1 } }], 'ag_');
    await store.listIndexes('Item');
    expect(store.ready()).toBe(true);
    expect(counter.count).toBe(0);

    await store.transaction(async (tx) => {
      await store.collection('Item').insertMany([{ _id: 'x' }], { tx });
      await store.collection('Item').find({ _id: 'x' }, {}, { tx });
    });
    expect(counter.byOperation).toEqual({ insertMany: 1, find: 1 });

    counter.reset();
    expect(counter.count).toBe(0);
    expect(counter.byOperation).toEqual({});
    await store.collection('Item').count({});
    expect(counter.count).toBe(1);
  });

  it('counts failed calls too, since they reached the store', async () => {
    const { store, counter } = countRoundTrips(inner);
    await store.collection('Item').insertMany([{ _id: 'dup' }]);
    await expect(store.collection('Item').insertMany([{ _id: 'dup' }])).rejects.toThrow();
    expect(counter.byOperation.insertMany).toBe(2);
  });
});
