/**
 * The staged store (store/staged/): reads see the held-back writes exactly as the store will once they are
 * replayed. Each case reads through the staged store before anything is written, then replays the writes
 * on the embedded store and reads the same thing there: the two answers must be equal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Pipeline, Store, StoredDocument, Transaction } from '../../src/store/port.js';
import { stageWrites, type StagedStore } from '../../src/store/staged/staged-store.js';

let folder: string;
let store: Store;
let staged: StagedStore;

const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a._id).localeCompare(String(b._id)));

beforeEach(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-staged-'));
  store = await openEmbeddedStore(folder);
  await store.collection('User').insertMany([{ _id: 'u1', username: 'alice' }, { _id: 'u2', username: 'bob' }]);
  await store.collection('Task').insertMany([
    { _id: 't1', title: 'one', user: 'u1', tags: ['g1'] },
    { _id: 't2', title: 'two', user: 'u2' },
    { _id: 't3', title: 'three', user: 'u1' },
  ]);
  await store.collection('Tag').insertMany([{ _id: 'g1', label: 'red' }]);

  staged = stageWrites(store);
  await staged.collection('User').insertMany([{ _id: 'u3', username: 'carol' }]);
  await staged.collection('Task').insertMany([{ _id: 't4', title: 'four', user: 'u3', tags: ['g1', 'g2'] }]);
  await staged.collection('Tag').insertMany([{ _id: 'g2', label: 'blue' }]);
  await staged.collection('Task').updateMany({ _id: 't1' }, { $set: { user: 'u3' } });
  await staged.collection('Task').deleteMany({ _id: 't2' });
  await staged.collection('User').updateMany({ _id: 'u1' }, { $set: { username: 'alicia' } });
});

afterEach(async () => {
  await store.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

it('writes nothing until applyTo, and records the writes in order', async () => {
  expect(await store.collection('Task').count({})).toBe(3);
  expect(await store.collection('User').find({ _id: 'u3' })).toEqual([]);
  expect(staged.writes.map((write) => `${write.kind} ${write.collection}`)).toEqual([
    'insert User', 'insert Task', 'insert Tag', 'update Task', 'delete Task', 'update User',
  ]);
});

const PIPELINES: Array<[string, string, Pipeline]> = [
  ['a leading $match', 'Task', [{ $match: { _id: { $in: ['t1', 't2', 't3', 't4'] } } }, { $project: { _id: 1, user: 1 } }]],
  ['an equality $lookup on a stored single edge', 'Task', [
    { $lookup: { from: 'User', localField: 'user', foreignField: '_id', as: '__owner' } },
    { $match: { '__owner': { $elemMatch: { username: { $in: ['carol', 'alicia'] } } } } },
    { $project: { _id: 1 } },
  ]],
  ['an equality $lookup on a stored list edge', 'Task', [
    { $lookup: { from: 'Tag', localField: 'tags', foreignField: '_id', as: '__tags' } },
    { $match: { '__tags.label': 'blue' } },
    { $project: { _id: 1 } },
  ]],
  ['a let/pipeline $lookup on the derived side', 'User', [
    { $lookup: { from: 'Task', let: { id: '$_id' }, pipeline: [{ $match: { $expr: { $eq: ['$user', '$$id'] } } }, { $sort: { _id: 1 } }, { $project: { _id: 1 } }], as: '__tasks' } },
    { $project: { _id: 1, __tasks: 1 } },
  ]],
  ['localField/foreignField with a pipeline (the MongoDB 5.0 form)', 'User', [
    { $lookup: { from: 'Task', localField: '_id', foreignField: 'user', pipeline: [{ $match: { title: { $ne: 'three' } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__tasks' } },
    { $match: { '__tasks.0': { $exists: true } } },
    { $project: { _id: 1 } },
  ]],
  ['a nested $lookup inside a sub-pipeline', 'User', [
    { $lookup: { from: 'Task', localField: '_id', foreignField: 'user', pipeline: [
      { $lookup: { from: 'Tag', localField: 'tags', foreignField: '_id', as: '__tags' } },
      { $match: { '__tags.label': 'blue' } },
      { $project: { _id: 1 } },
    ], as: '__blue' } },
    { $match: { '__blue.0': { $exists: true } } },
    { $project: { _id: 1 } },
  ]],
  ['a $count after a $match', 'Task', [{ $match: { user: 'u3' } }, { $count: 'n' }]],
];

it.each(PIPELINES)('aggregate with %s answers as the store does after the writes', async (_name, collection, pipeline) => {
  const before = await staged.collection(collection).aggregate(pipeline);
  await staged.applyTo(store);
  expect(byId(before)).toEqual(byId(await store.collection(collection).aggregate(pipeline)));
});

it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
  ['all, sorted', {}, { sort: { _id: -1 } }],
  ['by a changed field, paged', { user: 'u3' }, { sort: { title: 1 }, skip: 1, limit: 1 }],
  ['projected', { _id: { $in: ['t1', 't2', 't4'] } }, { projection: { title: 1 }, sort: { _id: 1 } }],
  ['by a regular expression', { title: { $regex: '^t' } }, { sort: { _id: 1 } }],
])('find %s answers as the store does after the writes', async (_name, filter, options) => {
  const before = await staged.collection('Task').find(filter, options);
  await staged.applyTo(store);
  expect(before).toEqual(await store.collection('Task').find(filter, options));
});

it('count and findPerKey see the held-back writes', async () => {
  expect(await staged.collection('Task').count({ user: 'u3' })).toBe(2);
  const pages = await staged.collection('Task').findPerKey('user', ['u1', 'u3', 'u9'], {}, { sort: { _id: 1 } });
  expect(Object.fromEntries([...pages].map(([key, documents]) => [key, documents.map((document) => document._id)]))).toEqual({ u1: ['t3'], u3: ['t1', 't4'], u9: [] });
});

it('findPerKey over held-back writes answers a projected page as the store does after the writes', async () => {
  const page = { sort: { _id: -1 as const }, limit: 1, projection: { title: 1 as const } };
  const before = await staged.collection('Task').findPerKey('user', ['u1', 'u3', 'u9'], {}, page);
  await staged.applyTo(store);
  const after = await store.collection('Task').findPerKey('user', ['u1', 'u3', 'u9'], {}, page);
  expect(before).toEqual(after);
  expect(Object.fromEntries(before)).toEqual({ u1: [{ _id: 't3', title: 'three' }], u3: [{ _id: 't4', title: 'four' }], u9: [] });
});

it('updateMany reports what it matched and changed; an insert of an id it holds is a duplicate', async () => {
  expect(await staged.collection('Task').updateMany({ user: 'u3' }, { $set: { title: 'four' } })).toEqual({ matched: 2, modified: 1 });
  await expect(staged.collection('User').insertMany([{ _id: 'u3', username: 'again' }])).rejects.toMatchObject({ name: 'DuplicateKeyError', collection: 'User', field: '_id', value: 'u3' });
});

it('a document a find returned (projected or not) is not read again by an update or delete of it', async () => {
  const reads: string[] = [];
  const counting = { ...store, collection: (name: string) => {
    const inner = store.collection(name);
    return { ...inner, name, find: (...args: Parameters<typeof inner.find>) => (reads.push(name), inner.find(...args)) };
  } } as Store;
  const over = stageWrites(counting);
  expect(await over.collection('Task').find({ user: 'u1' }, { projection: { _id: 1 }, sort: { _id: 1 } })).toEqual([{ _id: 't1' }, { _id: 't3' }]);
  await over.collection('Task').updateMany({ _id: 't1' }, { $set: { title: 'uno' } });
  await over.collection('Task').deleteMany({ _id: { $in: ['t3'] } });
  expect(await over.collection('Task').find({ _id: 't1' })).toEqual([{ _id: 't1', title: 'uno', user: 'u1', tags: ['g1'] }]);
  expect(reads).toEqual(['Task']);
  expect(over.writes.map((write) => write.kind)).toEqual(['update', 'delete']);
});

it('records inserts into one collection in a row, in one scope, as one write, and replays them as one insertMany', async () => {
  const tx = { id: 7 } as unknown as Transaction;
  const inserts: string[] = [];
  const recording = { ...store, collection: (name: string) => {
    const inner = store.collection(name);
    return { ...inner, name, insertMany: (documents: StoredDocument[]) => (inserts.push(`${name} ${documents.map((document) => document._id).join(',')}`), inner.insertMany(documents)) };
  } } as Store;
  const over = stageWrites(store);
  const given = { _id: 't5', title: 'five' };
  await over.collection('Task').insertMany([given], { tx });
  await over.collection('Task').insertMany([{ _id: 't6' }, { _id: 't7' }], { tx });
  await over.collection('Task').insertMany([{ _id: 't8' }]); // another scope
  await over.collection('User').insertMany([{ _id: 'u8' }]);
  await over.collection('Task').insertMany([{ _id: 't9' }]);
  given.title = 'changed after the insert';
  expect(over.writes.map((write) => (write.kind === 'insert' ? `${write.collection} ${write.documents.map((document) => document._id).join(',')}` : write.kind))).toEqual([
    'Task t5,t6,t7', 'Task t8', 'User u8', 'Task t9',
  ]);
  await over.applyTo(recording);
  expect(inserts).toEqual(['Task t5,t6,t7', 'Task t8', 'User u8', 'Task t9']);
  expect(await store.collection('Task').find({ _id: 't5' })).toEqual([{ _id: 't5', title: 'five' }]);
});

it('merges large inserts in a row without spreading them into one call', async () => {
  const over = stageWrites(store);
  const batch = (from: number) => Array.from({ length: 150_000 }, (_, i) => ({ _id: `big${from + i}` }));
  await over.collection('Big').insertMany(batch(0));
  await over.collection('Big').insertMany(batch(150_000));
  expect(over.writes).toHaveLength(1);
  const [write] = over.writes;
  expect(write!.kind === 'insert' ? [write.documents.length, write.documents[0]!._id, write.documents.at(-1)!._id] : write!.kind).toEqual([300_000, 'big0', 'big299999']);
});

it('insertHandedOver keeps the given documents without a copy, at once, in one write with the inserts after it', async () => {
  const tx = { id: 8 } as unknown as Transaction;
  const over = stageWrites(store);
  const handed = { _id: 't10', title: 'ten' };
  const given: StoredDocument[] = [handed];
  expect(over.insertHandedOver('Task', given, { tx })).toBeUndefined();
  given.push({ _id: 'not inserted' });
  await over.collection('Task').insertMany([{ _id: 't11' }], { tx });
  const [write] = over.writes;
  expect(over.writes).toHaveLength(1);
  expect(write!.kind === 'insert' && write.documents.map((document) => document._id)).toEqual(['t10', 't11']);
  expect(write!.kind === 'insert' && write.documents[0]).toBe(handed);
  expect(await over.collection('Task').find({ _id: 't10' })).toEqual([{ _id: 't10', title: 'ten' }]);
  expect(await over.collection('Task').count({ title: 'ten' })).toBe(1);
});

it.each<[string, StoredDocument[]]>([
  ['an id read from the store', [{ _id: 't1' }]],
  ['an id inserted earlier in the unit of work', [{ _id: 'u3' }]],
  ['an id twice in one call', [{ _id: 'n1' }, { _id: 'n1' }]],
])('insertHandedOver throws DuplicateKeyError for %s, and holds nothing of the call back', async (_case, documents) => {
  const over = stageWrites(store);
  await over.collection('Task').find({ _id: 't1' });
  over.insertHandedOver('Task', [{ _id: 'u3' }]);
  const before = over.writes.map((write) => (write.kind === 'insert' ? write.documents.length : 0));
  expect(() => over.insertHandedOver('Task', documents)).toThrow(expect.objectContaining({ name: 'DuplicateKeyError', collection: 'Task', field: '_id', value: documents.at(-1)!._id }));
  expect(over.writes.map((write) => (write.kind === 'insert' ? write.documents.length : 0))).toEqual(before);
  expect(await over.collection('Task').count({ _id: 'n1' })).toBe(0);
});

it.each<[string, Record<string, 1> | undefined]>([
  ['projected', { title: 1, tags: 1 }],
  ['whole', undefined],
])('a document a find returned (%s) is the caller\'s: changing it changes nothing the staged store answers later', async (_case, projection) => {
  const over = stageWrites(store);
  const [found] = await over.collection('Task').find({ _id: 't1' }, projection ? { projection } : {});
  found!.title = 'changed by the caller';
  (found!.tags as string[]).push('g9');
  await over.collection('Task').updateMany({ _id: 't1' }, { $set: { user: 'u2' } });
  expect(await over.collection('Task').find({ _id: 't1' })).toEqual([{ _id: 't1', title: 'one', user: 'u2', tags: ['g1'] }]);
});
