/**
 * Id lists are cut at ID_BATCH_SIZE per store command (issue 19: MongoDB refuses commands over 16 MB).
 * The reads and deletes run on the embedded store through a recorder of the `$in` lists each call carried.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteObjects } from '../../src/resolve/mutations/run.js';
import { findAmongIds } from '../../src/resolve/read.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { ID_BATCH_SIZE, idBatches } from '../../src/store/id-batches.js';
import type { Filter, Store } from '../../src/store/port.js';
import { modelOf } from '../auth/schema.js';
import { overriding } from '../helpers/store-wrap.js';

const model = modelOf(`
type Tag {
  id: ID!
  label: String!
}
`);

test.each<[string, number[], number, number[][]]>([
  ['an empty list: no batch', [], 2, []],
  ['shorter than a batch', [1, 2], 3, [[1, 2]]],
  ['exactly one batch', [1, 2, 3], 3, [[1, 2, 3]]],
  ['one over: a second batch of one', [1, 2, 3, 4], 3, [[1, 2, 3], [4]]],
])('idBatches: %s', (_case, items, size, expected) => {
  expect(idBatches(items, size)).toEqual(expected);
});

test('idBatches refuses a size that is not a positive integer', () => {
  expect(() => idBatches([1], 0)).toThrow('idBatches: size must be a positive integer, got 0');
});

describe('on a store', () => {
  let folder: string;
  let inner: Store;
  /** Per call, `operation:length of its _id $in list`. */
  const calls: string[] = [];

  const recording = (): Store => overriding(inner, {
    collection(name) {
      const collection = inner.collection(name);
      const note = (operation: string, filter: Filter) => {
        const ids = (filter._id as { $in?: unknown[] } | undefined)?.$in;
        if (ids) calls.push(`${operation}:${ids.length}`);
      };
      return {
        name,
        find: (filter, options, scope) => (note('find', filter), collection.find(filter, options, scope)),
        count: (filter, scope) => collection.count(filter, scope),
        aggregate: (pipeline, scope) => collection.aggregate(pipeline, scope),
        findPerKey: (field, keys, filter, page, scope) => collection.findPerKey(field, keys, filter, page, scope),
        insertMany: (documents, scope) => collection.insertMany(documents, scope),
        updateMany: (filter, update, scope) => collection.updateMany(filter, update, scope),
        deleteMany: (filter, scope) => (note('deleteMany', filter), collection.deleteMany(filter, scope)),
      };
    },
  });

  const ids = Array.from({ length: ID_BATCH_SIZE + 1 }, (_, i) => `t${String(i).padStart(6, '0')}`);

  beforeEach(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-id-batches-'));
    inner = await openEmbeddedStore(folder);
    await inner.collection('Tag').insertMany(ids.map((id, i) => ({ _id: id, label: `label ${i % 7}` })));
    calls.length = 0;
  });

  afterEach(async () => {
    await inner.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  test('a payload over more ids than a batch reads per batch, then orders and pages the whole', async () => {
    const found = await findAmongIds({ model, store: recording() }, 'Tag', { order: { desc: 'label' }, first: 3, offset: 1 }, ids);
    expect(calls).toEqual([`find:${ID_BATCH_SIZE}`, 'find:1']);
    expect(found.map((tag) => [tag._id, tag.label])).toEqual([['t000013', 'label 6'], ['t000020', 'label 6'], ['t000027', 'label 6']]);
  });

  test('a delete of more objects than a batch deletes per batch, every object gone', async () => {
    const outcome = await deleteObjects(model, recording(), 'Tag', {}, async () => undefined);
    expect(outcome.numUids).toBe(ID_BATCH_SIZE + 1);
    expect(calls.filter((call) => call.startsWith('deleteMany'))).toEqual([`deleteMany:${ID_BATCH_SIZE}`, 'deleteMany:1']);
    expect(await inner.collection('Tag').count({})).toBe(0);
  });
});
