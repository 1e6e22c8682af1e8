/**
 * The wire test server answers like a standalone mongod: no transactions, catalog errors with mongod's
 * codes, `$lookup` in every form, and an unknown command as CommandNotFound (reported, so gaps show).
 */
import { MongoServerError } from 'mongodb';
import { deploymentFromHello } from '../../src/store/mongo/topology.js';
import { useWireMongo } from './fixture';

const wire = useWireMongo();

async function failure(work: Promise<unknown>): Promise<MongoServerError> {
  const error = await work.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

describe('a standalone server', () => {
  test('hello describes a standalone, so the adapter takes its path without transactions', async () => {
    const hello = await wire.client.db('admin').command({ hello: 1 });
    expect(hello).toMatchObject({ isWritablePrimary: true, maxWireVersion: 21, logicalSessionTimeoutMinutes: 30, ok: 1 });
    expect(hello.setName).toBeUndefined();
    expect(deploymentFromHello(hello)).toEqual({ kind: 'standalone', supportsTransactions: false, description: 'standalone server' });
  });

  // The driver wraps mongod's code-20 reply to a write in an error of its own, keeping it as originalError.
  test('a transaction is refused as mongod refuses it, and writes nothing', async () => {
    const items = wire.db().collection('items');
    const session = wire.client.startSession();
    try {
      const error = await failure(session.withTransaction(() => items.insertOne({ _id: 'in-tx' as never }, { session })));
      expect(error.message).toBe('This MongoDB deployment does not support retryable writes. Please add retryWrites=false to your connection string.');
      expect(error.originalError).toMatchObject({
        code: 20,
        codeName: 'IllegalOperation',
        message: 'Transaction numbers are only allowed on a replica set member or mongos',
      });
    } finally {
      await session.endSession();
    }
    expect(await items.countDocuments()).toBe(0);
  });
});

describe('catalog commands', () => {
  test('create refuses an existing collection with NamespaceExists', async () => {
    const db = wire.db();
    await db.createCollection('items');
    const error = await failure(db.createCollection('items'));
    expect(error).toMatchObject({ code: 48, codeName: 'NamespaceExists', message: `Collection ${db.databaseName}.items already exists.` });
  });

  test('listIndexes and dropIndexes on a missing collection answer NamespaceNotFound', async () => {
    const db = wire.db();
    expect(await failure(db.collection('nothing').listIndexes().toArray())).toMatchObject({ code: 26, message: `ns does not exist: ${db.databaseName}.nothing` });
    expect(await failure(db.command({ dropIndexes: 'nothing', index: 'x' }))).toMatchObject({ code: 26, codeName: 'NamespaceNotFound' });
  });

  test('indexes: listed as created, an identical one is a no-op, a conflicting one is refused, a missing one cannot be dropped', async () => {
    const db = wire.db();
    const partial = { code: { $type: 'string' } };
    await db.collection('items').createIndex({ code: 1 }, { name: 'by_code', unique: true, partialFilterExpression: partial });
    await db.collection('items').createIndex({ a: 1, b: -1 }, { name: 'by_ab', sparse: true });
    expect(await db.collection('items').listIndexes().toArray()).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { code: 1 }, name: 'by_code', unique: true, partialFilterExpression: partial },
      { v: 2, key: { a: 1, b: -1 }, name: 'by_ab', sparse: true },
    ]);
    expect(await db.command({ createIndexes: 'items', indexes: [{ key: { code: 1 }, name: 'by_code', unique: true, partialFilterExpression: partial }] })).toEqual({
      numIndexesBefore: 3,
      numIndexesAfter: 3,
      note: 'all indexes already exist',
      ok: 1,
    });
    expect(await failure(db.collection('items').createIndex({ code: 1 }, { name: 'by_code' }))).toMatchObject({ code: 85, codeName: 'IndexOptionsConflict' });
    expect(await failure(db.collection('items').createIndex({ other: 1 }, { name: 'by_code' }))).toMatchObject({ code: 86, codeName: 'IndexKeySpecsConflict' });
    expect(await failure(db.collection('items').dropIndex('missing'))).toMatchObject({ code: 27, codeName: 'IndexNotFound', message: 'index not found with name [missing]' });
    expect(await failure(db.collection('items').dropIndex('_id_'))).toMatchObject({ code: 72, message: 'cannot drop _id index' });
    await db.collection('items').dropIndex('by_code');
    expect((await db.collection('items').listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'by_ab']);
  });

  test('an index kind the server cannot build is refused with a message naming it', async () => {
    const error = await failure(wire.db().collection('items').createIndex({ title: 'text' }, { name: 'by_text' }));
    expect(error).toMatchObject({ code: 67, codeName: 'CannotCreateIndex' });
    expect(error.message).toMatch(/"text"/);
  });

  test('listCollections and drop see the collections written to', async () => {
    const db = wire.db();
    await db.collection('a').insertOne({});
    await db.collection('b').insertOne({});
    expect((await db.listCollections({}, { nameOnly: true }).toArray()).map((entry) => entry.name)).toEqual(['a', 'b']);
    expect(await db.collection('a').drop()).toBe(true);
    expect((await db.listCollections({ name: 'b' }).toArray()).map((entry) => entry.name)).toEqual(['b']);
  });
});

describe('updates', () => {
  test('an upsert inserts the filter\'s equality fields with the update applied, once', async () => {
    const items = wire.db().collection<{ _id: string; code?: string; n?: number }>('items');
    const first = await items.updateOne({ _id: 'u1', code: 'A' }, { $set: { n: 1 } }, { upsert: true });
    expect(first).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: 'u1' });
    const second = await items.updateOne({ _id: 'u1', code: 'A' }, { $inc: { n: 1 } }, { upsert: true });
    expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect(await items.find().toArray()).toEqual([{ _id: 'u1', code: 'A', n: 2 }]);
  });

  test('an update that changes nothing is matched but not modified; a replacement keeps _id; _id cannot change', async () => {
    const items = wire.db().collection<{ _id: string; code?: string; n?: number }>('items');
    await items.insertOne({ _id: 'r1', code: 'A', n: 1 });
    expect(await items.updateOne({ _id: 'r1' }, { $set: { code: 'A' } })).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    await items.replaceOne({ _id: 'r1' }, { code: 'B' });
    expect(await items.find().toArray()).toEqual([{ _id: 'r1', code: 'B' }]);
    const error = await failure(items.updateOne({ _id: 'r1' }, { $set: { _id: 'r2' } }));
    expect(error).toMatchObject({ code: 66, message: "Performing an update on the path '_id' would modify the immutable field '_id'" });
  });

  test('findOneAndUpdate returns the document before or after, and findOneAndDelete removes the first in sort order', async () => {
    const items = wire.db().collection<{ _id: string; n: number }>('items');
    await items.insertMany([{ _id: 'a', n: 1 }, { _id: 'b', n: 2 }]);
    expect(await items.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 10 } })).toEqual({ _id: 'a', n: 1 });
    expect(await items.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 10 } }, { returnDocument: 'after' })).toEqual({ _id: 'a', n: 21 });
    expect(await items.findOneAndDelete({}, { sort: { n: 1 } })).toEqual({ _id: 'b', n: 2 });
    expect(await items.find().toArray()).toEqual([{ _id: 'a', n: 21 }]);
  });
});

describe('aggregation', () => {
  test('$lookup with localField/foreignField and a pipeline runs the pipeline over the equality matches only', async () => {
    const db = wire.db();
    await db.collection('authors').insertMany([{ _id: 'a1' as never }, { _id: 'a2' as never }, { _id: 'a3' as never }]);
    await db.collection('books').insertMany([
      { _id: 'b1' as never, author: 'a1', stars: 5 },
      { _id: 'b2' as never, author: 'a1', stars: 2 },
      { _id: 'b3' as never, author: 'a2', stars: 4 },
      { _id: 'b4' as never, author: ['a2', 'a3'], stars: 3 },
    ]);
    const rows = await db
      .collection('authors')
      .aggregate([
        { $lookup: { from: 'books', localField: '_id', foreignField: 'author', let: { least: 3 }, pipeline: [{ $match: { $expr: { $gte: ['$stars', '$$least'] } } }, { $project: { _id: 1 } }], as: 'good' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: 'a1', good: [{ _id: 'b1' }] },
      { _id: 'a2', good: [{ _id: 'b3' }, { _id: 'b4' }] },
      { _id: 'a3', good: [{ _id: 'b4' }] },
    ]);
  });

  test('a database-level aggregate starts from $documents; $unionWith and $facet read other collections', async () => {
    const db = wire.db();
    await db.collection('extra').insertMany([{ key: 'z' }]);
    const rows = await db
      .aggregate([{ $documents: [{ key: 'x' }, { key: 'y' }] }, { $unionWith: { coll: 'extra', pipeline: [{ $project: { _id: 0 } }] } }, { $facet: { keys: [{ $group: { _id: null, all: { $push: '$key' } } }], total: [{ $count: 'n' }] } }])
      .toArray();
    expect(rows).toEqual([{ keys: [{ _id: null, all: ['x', 'y', 'z'] }], total: [{ n: 3 }] }]);
  });

  test('countDocuments, estimated counts and maxTimeMS are served', async () => {
    const items = wire.db().collection('items');
    await items.insertMany([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await items.countDocuments({ n: { $gte: 2 } }, { maxTimeMS: 5000 })).toBe(2);
    expect(await items.countDocuments({}, { skip: 1, limit: 1 })).toBe(1);
    expect(await items.estimatedDocumentCount()).toBe(3);
    expect(await items.find({ n: 3 }, { maxTimeMS: 5000, projection: { _id: 0 } }).toArray()).toEqual([{ n: 3 }]);
  });
});

test('an unknown command answers CommandNotFound and is reported', async () => {
  const error = await failure(wire.db().command({ reIndex: 'items' }));
  expect(error).toMatchObject({ code: 59, codeName: 'CommandNotFound', message: "no such command: 'reIndex' (the wire test server does not implement it)" });
  expect(wire.server.unknownCommands).toContain('reIndex');
  expect(wire.logged).toContain("wire test server: unknown command 'reIndex' (fields: reIndex, lsid, $db); answered CommandNotFound");
});
