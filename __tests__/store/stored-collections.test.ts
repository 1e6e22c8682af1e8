import { rm } from 'node:fs/promises';
import { storedCollectionsStore, translatePipeline } from '../../src/store/stored-collections.js';
import type { Pipeline, Store } from '../../src/store/port.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { makeTempDir } from '../helpers/backend.js';

/** Type names → `@dgraph(type:)` collections in every place a pipeline names a collection. */

const collections = new Map([['Author', 'Writer'], ['Post', 'dgraph%2EPost']]);
const stored = (name: string) => collections.get(name) ?? name;

describe('translatePipeline', () => {
  const cases: Array<[what: string, pipeline: Pipeline, expected: Pipeline]> = [
    ['stages without collections stay as they are', [{ $match: { Author: 1 } }, { $sort: { _id: 1 } }], [{ $match: { Author: 1 } }, { $sort: { _id: 1 } }]],
    ['$lookup.from', [{ $lookup: { from: 'Post', localField: 'posts', foreignField: '_id', as: 'p' } }],
      [{ $lookup: { from: 'dgraph%2EPost', localField: 'posts', foreignField: '_id', as: 'p' } }]],
    ['a $lookup pipeline, nested', [{ $lookup: { from: 'Tag', as: 't', pipeline: [{ $lookup: { from: 'Author', as: 'a', localField: 'x', foreignField: '_id' } }] } }],
      [{ $lookup: { from: 'Tag', as: 't', pipeline: [{ $lookup: { from: 'Writer', as: 'a', localField: 'x', foreignField: '_id' } }] } }]],
    ['$unionWith as a name', [{ $unionWith: 'Author' }], [{ $unionWith: 'Writer' }]],
    ['$unionWith with a pipeline', [{ $unionWith: { coll: 'Author', pipeline: [{ $lookup: { from: 'Post', as: 'p', localField: 'a', foreignField: 'b' } }] } }],
      [{ $unionWith: { coll: 'Writer', pipeline: [{ $lookup: { from: 'dgraph%2EPost', as: 'p', localField: 'a', foreignField: 'b' } }] } }]],
    ['$facet sub-pipelines', [{ $facet: { a: [{ $unionWith: { coll: 'Post' } }], b: [{ $count: 'n' }] } }],
      [{ $facet: { a: [{ $unionWith: { coll: 'dgraph%2EPost' } }], b: [{ $count: 'n' }] } }]],
  ];
  it.each(cases)('%s', (_what, pipeline, expected) => {
    const before = JSON.stringify(pipeline);
    expect(translatePipeline(pipeline, stored)).toEqual(expected);
    expect(JSON.stringify(pipeline)).toBe(before);
  });
});

describe('storedCollectionsStore', () => {
  let store: Store;
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openEmbeddedStore(dir);
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is the store itself when no type is renamed', () => {
    expect(storedCollectionsStore(store, new Map())).toBe(store);
  });

  it('reads and writes the stored collection, and joins it by type name', async () => {
    const named = storedCollectionsStore(store, collections);
    await named.collection('Author').insertMany([{ _id: 'a1', posts: ['p1'] }]);
    await named.collection('Post').insertMany([{ _id: 'p1', title: 'T' }]);
    expect(await store.collection('Writer').count({})).toBe(1);
    expect(await store.collection('Author').count({})).toBe(0);
    const [joined] = await named.collection('Author').aggregate([{ $lookup: { from: 'Post', localField: 'posts', foreignField: '_id', as: 'p' } }]);
    expect(joined).toEqual({ _id: 'a1', posts: ['p1'], p: [{ _id: 'p1', title: 'T' }] });
  });
});
