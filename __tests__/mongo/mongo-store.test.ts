/**
 * The Store contract suite (__tests__/store/contract.ts) against a real MongoDB, when MONGODB_URI is set:
 *
 *   MONGODB_URI='mongodb://localhost:27017/?directConnection=true' npx jest __tests__/mongo
 *
 * The run uses a database of its own (`autograph_test_<random>`), dropped at the end. The transaction
 * cases need a replica set (a one-node set will do, as in docker/docker-compose.yml): on a standalone
 * server MongoDB has no multi-document transactions, so the rollback cases fail there by design.
 * Without MONGODB_URI a single skipped test stands in for the suite here, and the `mongodb-wire` jest
 * project runs it against the wire test server (__tests__/helpers/wire-mongo/), a standalone stand-in.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoStore } from '../../src/store/mongo/mongo-store.js';
import { deploymentFromHello } from '../../src/store/mongo/topology.js';
import type { Store } from '../../src/store/port.js';
import { describeStoreContract } from '../store/contract.js';

const uri = process.env.MONGODB_URI;
const CONNECT_TIMEOUT_MS = 5000;

if (uri) {
  const dbName = `autograph_test_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    await withClient(uri, async (client) => {
      const deployment = deploymentFromHello(await client.db('admin').command({ hello: 1 }));
      if (!deployment.supportsTransactions) {
        process.stderr.write(
          `MONGODB_URI points at a ${deployment.description}: the contract's rollback cases will fail (no multi-document transactions there)\n`,
        );
      }
    });
  });

  afterAll(async () => {
    await withClient(uri, (client) => client.db(dbName).dropDatabase());
  });

  const open = () => openConnected(uri, dbName);
  describeStoreContract('mongodb', open, open);
} else {
  process.stderr.write('MONGODB_URI not set: MongoDB contract suite skipped here (the mongodb-wire project runs it on the wire test server)\n');
  test.skip('MongoDB store contract (set MONGODB_URI to run it)', () => undefined);
}

/** A store that is connected, or a clear failure here instead of "data store unavailable" in every case. */
async function openConnected(connectionString: string, database: string): Promise<Store> {
  const store = await openMongoStore(connectionString, { dbName: database, serverSelectionTimeoutMS: CONNECT_TIMEOUT_MS });
  if (!store.ready()) {
    await store.close();
    throw new Error(`MONGODB_URI is set, but MongoDB did not answer within ${CONNECT_TIMEOUT_MS} ms`);
  }
  return store;
}

async function withClient<T>(connectionString: string, use: (client: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(connectionString, { serverSelectionTimeoutMS: CONNECT_TIMEOUT_MS });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}
