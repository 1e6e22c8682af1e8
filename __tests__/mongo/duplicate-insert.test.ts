/**
 * Duplicate keys from `insertMany` as driver 7 reports them. The stand-in server (./fake-mongod) answers
 * the `insert` command with the reply document the MongoDB manual documents for it (insert command,
 * "Output": `{ ok: 1, n, writeErrors: [{ index, code, errmsg }] }`, the index being the position of the
 * failed document in the batch; https://www.mongodb.com/docs/manual/reference/command/insert/#output),
 * so the error is the one the real driver builds: a MongoBulkWriteError whose write errors carry no
 * `keyValue`. The store must still name the field and the value of the document that failed.
 */
import { Long, MongoBulkWriteError, MongoClient } from 'mongodb';
import { duplicateKeyOfInsert } from '../../src/store/mongo/errors';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { DuplicateKeyError, type Store } from '../../src/store/port';
import { closedLoopbackPort } from '../helpers/wait';
import { startFakeMongod, type CommandReplies, type FakeMongod } from './fake-mongod';

/** The manual's reply to an ordered insert whose document at `failedAt` broke the unique index `indexName`. */
function duplicateReply(failedAt: number, indexName: string, dupKey: string): CommandReplies {
  return {
    insert: (command) => ({
      ok: 1,
      n: failedAt,
      writeErrors: [{ index: failedAt, code: 11000, errmsg: `E11000 duplicate key error collection: app.${String(command.insert)} index: ${indexName} dup key: ${dupKey}` }],
    }),
  };
}

const DOCUMENTS = [
  { _id: 'a', username: 'ann', email: 'a@x' },
  { _id: 'b', username: 'bob', email: 'b@x' },
  { _id: 'c', username: 'cid', email: 'c@x' },
];

let mongod: FakeMongod | undefined;
let client: MongoClient | undefined;
let store: Store | undefined;
afterEach(async () => {
  await client?.close();
  await store?.close();
  await mongod?.close();
  [client, store, mongod] = [undefined, undefined, undefined];
});

async function driverErrorFor(replies: CommandReplies): Promise<MongoBulkWriteError> {
  const port = await closedLoopbackPort();
  mongod = await startFakeMongod(port, replies);
  client = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`, { serverSelectionTimeoutMS: 2000 });
  const error = await client.db('app').collection('User').insertMany(DOCUMENTS.map((document) => ({ ...document })) as never).then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof MongoBulkWriteError)) throw new Error(`expected the driver's MongoBulkWriteError, got ${String(error)}`);
  return error;
}

const INDEX_FIELDS: Record<string, string[]> = { ag_id_username: ['username'], ag_unique_pair: ['username', 'email'] };

test.each<[string, number, string, string, { field: string; value: unknown }]>([
  ['the @id index, second document', 1, 'ag_id_username', '{ username: "bob" }', { field: 'username', value: 'bob' }],
  ['the _id index, third document', 2, '_id_', '{ _id: "c" }', { field: '_id', value: 'c' }],
  ['a compound index, first document', 0, 'ag_unique_pair', '{ username: "ann", email: "a@x" }', { field: 'username,email', value: { username: 'ann', email: 'a@x' } }],
])('%s: the field and the value come from the failing document', async (_case, failedAt, indexName, dupKey, expected) => {
  const error = await driverErrorFor(duplicateReply(failedAt, indexName, dupKey));
  expect(error.writeErrors).toHaveLength(1);
  expect(duplicateKeyOfInsert(error, DOCUMENTS, (name) => INDEX_FIELDS[name])).toEqual(expected);
});

test('an index the store does not know: the message still names it and its key', async () => {
  const error = await driverErrorFor(duplicateReply(1, 'someone_elses', '{ username: "bob" }'));
  expect(duplicateKeyOfInsert(error, DOCUMENTS, () => undefined)).toEqual({ field: 'someone_elses', value: '{ username: "bob" }' });
});

test('the MongoDB store turns it into DuplicateKeyError naming the synced @id field and the failing value', async () => {
  const port = await closedLoopbackPort();
  mongod = await startFakeMongod(port, {
    ...duplicateReply(1, 'ag_id_username', '{ username: "bob" }'),
    listIndexes: (command) => ({ ok: 1, cursor: { id: Long.fromNumber(0), ns: `app.${String(command.listIndexes)}`, firstBatch: [{ v: 2, key: { _id: 1 }, name: '_id_' }] } }),
  });
  store = await openMongoStore(`mongodb://127.0.0.1:${port}/app?directConnection=true`, { serverSelectionTimeoutMS: 2000 });
  await store.syncIndexes('User', [{ name: 'ag_id_username', keys: { username: 1 }, unique: true, sparse: true }], 'ag_');
  const error = await store.collection('User').insertMany(DOCUMENTS.map((document) => ({ ...document }))).then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(DuplicateKeyError);
  expect(error).toMatchObject({ collection: 'User', field: 'username', value: 'bob', message: 'duplicate value "bob" for username in User' });
  // A standalone server has no transactions: the document written before the failure is deleted again.
  expect(mongod.commands).toEqual(expect.arrayContaining(['createIndexes', 'insert', 'delete']));
});
