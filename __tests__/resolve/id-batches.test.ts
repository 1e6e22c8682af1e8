/**
 * Id lists are cut at ID_BATCH_SIZE per store command (issue 19: MongoDB refuses commands over 16 MB).
 * The reads and deletes run on the embedded store through a recorder of the `$in` lists each call carried.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteObjects } from '../../src/resolve/mutations/run.js';
import { findAmongIds } from '../../src/resolve/read.js';
import { prepareReferenceGuard } from '../../src/resolve/mutations/reference-guard.js';
import { candidateFilters, noReferences } from '../../src/resolve/mutations/references.js';
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

test.each<[string, { ids: string[]; values: [string, unknown[]][] }, Filter[]]>([
  ['nothing named: no filter', { ids: [], values: [] }, []],
  ['ids within a batch: one filter', { ids: ['a', 'b'], values: [] }, [{ _id: { $in: ['a', 'b'] } }]],
  [
    'ids and @id values over a batch: one filter per batch of each',
    { ids: ['a', 'b', 'c'], values: [['label', ['x', 'y', 'z', 'w']], ['code', [1]]] },
    [{ _id: { $in: ['a', 'b'] } }, { _id: { $in: ['c'] } }, { label: { $in: ['x', 'y'] } }, { label: { $in: ['z', 'w'] } }, { code: { $in: [1] } }],
  ],
])('candidateFilters (batches of 2): %s', (_case, named, expected) => {
  const values = new Map(named.values.map(([field, list]) => [field, new Set(list)]));
  expect(candidateFilters({ ids: new Set(named.ids), values }, 2)).toEqual(expected);
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
      // The `_id` or `label` `$in` list of the filter, or of one of its `$and` parts (a rule added to it).
      const note = (operation: string, filter: Filter) => {
        for (const part of [filter, ...((filter.$and as Filter[] | undefined) ?? [])]) {
          const list = ((part._id ?? part.label) as { $in?: unknown[] } | undefined)?.$in;
          if (list) calls.push(`${operation}:${list.length}`);
        }
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

  test('the reference guard reads the candidates a request names, and their rule verdicts, per batch', async () => {
    const references = noReferences();
    references.byType.set('Tag', { ids: new Set(ids), values: new Map([['label', new Set(Array.from({ length: ID_BATCH_SIZE + 1 }, (_, i) => `none ${i}`))]]) });
    const visibleRule = { lookups: [], match: { label: 'label 0' } };
    const store = recording();
    const guard = await store.transaction((tx) => prepareReferenceGuard(
      { model, store, tx, query: (type) => (type === 'Tag' ? visibleRule : undefined), update: () => undefined, created: new Map() },
      references,
      new Map(),
    ));
    // ids[9996] (7 × 1428) has label 0 and is read in the first batch of the rule's read.
    // Candidates by id, then by @id value, then the rule over the found ids: each in a batch and a rest of one.
    expect(calls).toEqual([`find:${ID_BATCH_SIZE}`, 'find:1', `find:${ID_BATCH_SIZE}`, 'find:1', `find:${ID_BATCH_SIZE}`, 'find:1']);
    calls.length = 0;
    expect([await guard.isVisible('Tag', ids[0]!), await guard.isVisible('Tag', ids[1]!), await guard.isVisible('Tag', ids[7 * 1428]!)]).toEqual([true, false, true]);
    expect(calls).toEqual([]);
  });
});
