import type { Db } from 'mongodb';
import { MongoStore } from '../../src/store/mongo/mongo-store';
import type { StoreConnection } from '../../src/store/mongo/connection';
import type { DeploymentInfo } from '../../src/store/mongo/topology';

/**
 * The MongoDB snapshot's wiring, against a fake driver: on a replica set (or sharded cluster) every read
 * goes through one snapshot session, ended on close; on a standalone server no session is used and the
 * snapshot says its consistency is per-document. (The wire test server is a standalone server.)
 */

const REPLICA_SET: DeploymentInfo = { kind: 'replicaSet', supportsTransactions: true, description: 'replica set rs0' };
const STANDALONE: DeploymentInfo = { kind: 'standalone', supportsTransactions: false, description: 'standalone server' };

interface Recorded {
  sessions: unknown[];
  ended: number;
  reads: Array<[string, string, unknown]>;
}

function fakeConnection(deployment: DeploymentInfo, documents: Record<string, Array<{ _id: string }>>): { connection: StoreConnection; recorded: Recorded } {
  const recorded: Recorded = { sessions: [], ended: 0, reads: [] };
  const session = { endSession: async () => void (recorded.ended += 1) };
  const db = {
    listCollections: () => ({ toArray: async () => [...Object.keys(documents), 'system.views'].map((name) => ({ name })) }),
    collection: (name: string) => ({
      countDocuments: async (_filter: unknown, options: { session?: unknown }) => {
        recorded.reads.push(['count', name, options.session]);
        return documents[name]!.length;
      },
      listIndexes: () => ({ toArray: async () => [{ name: '_id_', key: { _id: 1 } }, { name: 'ag_title', key: { title: 1 }, unique: true }] }),
      find: (_filter: unknown, options: { session?: unknown; sort: unknown; batchSize: number }) => {
        recorded.reads.push(['find', name, options.session]);
        expect(options.sort).toEqual({ _id: 1 });
        return {
          async *[Symbol.asyncIterator]() {
            yield* documents[name]!;
          },
          close: async () => undefined,
        };
      },
    }),
  } as unknown as Db;
  const connection: StoreConnection = {
    client: {
      startSession: ((options: unknown) => {
        recorded.sessions.push(options);
        return session;
      }) as never,
    },
    database: () => db,
    deployment: () => deployment,
    ready: () => true,
    msWithoutWritableServer: () => undefined,
    close: async () => undefined,
  };
  return { connection, recorded };
}

const DATA = { Task: [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }], Person: [{ _id: 'p' }] };

async function readAll(store: MongoStore) {
  const snapshot = await store.openSnapshot();
  const batches: unknown[] = [];
  for await (const batch of snapshot.documents('Task', 2)) batches.push(batch);
  await snapshot.close();
  return { snapshot, batches };
}

test('on a replica set: one snapshot session for every count and find, ended on close', async () => {
  const { connection, recorded } = fakeConnection(REPLICA_SET, DATA);
  const { snapshot, batches } = await readAll(new MongoStore(connection, 'app'));
  expect(snapshot.consistency).toBe('point-in-time');
  expect(snapshot.collections).toEqual([
    { name: 'Person', count: 1, indexes: [{ name: 'ag_title', keys: { title: 1 }, unique: true }] },
    { name: 'Task', count: 3, indexes: [{ name: 'ag_title', keys: { title: 1 }, unique: true }] },
  ]);
  expect(batches).toEqual([[{ _id: 'a' }, { _id: 'b' }], [{ _id: 'c' }]]);
  expect(recorded.sessions).toEqual([{ snapshot: true }]);
  expect(recorded.reads.map(([kind, name, session]) => [kind, name, session !== undefined])).toEqual([
    ['count', 'Person', true],
    ['count', 'Task', true],
    ['find', 'Task', true],
  ]);
  expect(recorded.ended).toBe(1);
});

test('on a standalone server: no session, and the snapshot says it is per-document', async () => {
  const { connection, recorded } = fakeConnection(STANDALONE, DATA);
  const { snapshot, batches } = await readAll(new MongoStore(connection, 'app'));
  expect(snapshot.consistency).toBe('per-document');
  expect(batches).toEqual([[{ _id: 'a' }, { _id: 'b' }], [{ _id: 'c' }]]);
  expect(recorded.sessions).toEqual([]);
  expect(recorded.reads.every(([, , session]) => session === undefined)).toBe(true);
});
