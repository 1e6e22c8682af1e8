/** Server-side cursors of the wire test server: batches, getMore, killCursors, and the errors for a closed cursor. */
import { Long, MongoServerError, type Db } from 'mongodb';

// Raw command replies come back decoded by the driver, which turns an int64 cursor id into a number.
import { useWireMongo } from './fixture';

const wire = useWireMongo();

async function seeded(count: number): Promise<Db> {
  const db = wire.db();
  await db.collection('items').insertMany(Array.from({ length: count }, (_, i) => ({ _id: i as unknown as never, n: i })));
  return db;
}

const ids = (batch: Array<Record<string, unknown>>) => batch.map((document) => document._id);

test('find hands out batchSize documents per batch and closes the cursor with the last one', async () => {
  const db = await seeded(5);
  const first = await db.command({ find: 'items', filter: {}, sort: { n: 1 }, batchSize: 2 });
  expect(ids(first.cursor.firstBatch)).toEqual([0, 1]);
  expect(first.cursor.ns).toBe(`${db.databaseName}.items`);
  const id = first.cursor.id as number;
  expect(id).toBeGreaterThan(0);

  const second = await db.command({ getMore: id, collection: 'items', batchSize: 2 });
  expect(ids(second.cursor.nextBatch)).toEqual([2, 3]);
  expect(second.cursor.id).toBe(id);

  const last = await db.command({ getMore: id, collection: 'items', batchSize: 2 });
  expect(ids(last.cursor.nextBatch)).toEqual([4]);
  expect(last.cursor.id).toBe(0);
  expect(wire.server.openCursors()).toBe(0);

  const error = await db.command({ getMore: id, collection: 'items' }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(MongoServerError);
  expect(error).toMatchObject({ code: 43, codeName: 'CursorNotFound', message: `cursor id ${id} not found` });
});

test('a result that fits the first batch opens no cursor; singleBatch and a negative limit never do', async () => {
  const db = await seeded(3);
  expect((await db.command({ find: 'items', filter: {} })).cursor.id).toBe(0);
  expect((await db.command({ find: 'items', filter: {}, batchSize: 1, singleBatch: true })).cursor).toEqual({ id: 0, ns: `${db.databaseName}.items`, firstBatch: [{ _id: 0, n: 0 }] });
  expect(ids((await db.command({ find: 'items', filter: {}, limit: -2, batchSize: 1 })).cursor.firstBatch)).toEqual([0]);
  expect(wire.server.openCursors()).toBe(0);
});

test('the driver reads past the default first batch of 101 through getMore', async () => {
  const db = await seeded(250);
  const all = await db.collection('items').find({}, { sort: { n: -1 } }).toArray();
  expect(all).toHaveLength(250);
  expect(all[0]).toEqual({ _id: 249, n: 249 });
  expect(all[249]).toEqual({ _id: 0, n: 0 });
  const aggregated = await db.collection('items').aggregate([{ $match: { n: { $gte: 100 } } }, { $sort: { n: 1 } }]).toArray();
  expect(ids(aggregated)).toEqual(Array.from({ length: 150 }, (_, i) => i + 100));
  expect(wire.server.openCursors()).toBe(0);
});

test('closing a cursor early kills it on the server', async () => {
  const db = await seeded(10);
  const cursor = db.collection('items').find({}, { batchSize: 3 });
  expect(await cursor.next()).toEqual({ _id: 0, n: 0 });
  expect(wire.server.openCursors()).toBe(1);
  await cursor.close();
  expect(wire.server.openCursors()).toBe(0);
});

test('killCursors reports which cursors it killed and which it did not know', async () => {
  const db = await seeded(4);
  const { cursor } = await db.command({ find: 'items', filter: {}, batchSize: 1 });
  const unknown = 987654;
  const reply = await db.command({ killCursors: 'items', cursors: [Long.fromNumber(cursor.id), Long.fromNumber(unknown)] });
  expect(reply).toEqual({ cursorsKilled: [cursor.id], cursorsNotFound: [unknown], cursorsAlive: [], cursorsUnknown: [], ok: 1 });
  expect(wire.server.openCursors()).toBe(0);
});
