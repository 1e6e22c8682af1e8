/**
 * The store backend the end-to-end tests run on, picked in one place: MongoDB when `MONGODB_URI` is set
 * (each backend a fresh database `autograph_e2e_<random>`, dropped by `remove()`), otherwise the embedded
 * store in a fresh temporary folder (deleted by `remove()`).
 *
 *   MONGODB_URI='mongodb://localhost:27017/?directConnection=true' npm test
 *
 * Mutations are all-or-nothing only where MongoDB has transactions: point MONGODB_URI at a replica set
 * (one node will do, as in docker/docker-compose.yml), or the rollback cases fail by design.
 *
 * The `mongodb-wire` jest project sets MONGODB_URI itself, per test file, to the wire test server
 * (./wire-mongo/environment.ts), so these suites also run through the real driver without a MongoDB.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { openMongoStore } from '../../src/store/mongo/mongo-store.js';
import type { Store } from '../../src/store/port.js';

export type TestBackendKind = 'embedded' | 'mongodb';

/** What `store.kind` (and so `/health`) reports in this run. */
export const TEST_BACKEND_KIND: TestBackendKind = process.env.MONGODB_URI ? 'mongodb' : 'embedded';

export interface TestBackend {
  readonly kind: TestBackendKind;
  /** Opens a store on this backend's data; a store opened later sees what an earlier one wrote. */
  open(): Promise<Store>;
  /** Deletes the data (the folder or the database). Close the stores first. */
  remove(): Promise<void>;
}

/** How long the first connection to MONGODB_URI may take before the test fails with a clear message. */
const CONNECT_TIMEOUT_MS = 5000;

/** A fresh empty folder under the OS temp dir; remove it with `rm(dir, { recursive: true, force: true })`. */
export function makeTempDir(prefix = 'autograph-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function createTestBackend(): Promise<TestBackend> {
  const uri = process.env.MONGODB_URI;
  if (uri) {
    return mongoBackend(uri, `autograph_e2e_${randomBytes(6).toString('hex')}`);
  }
  return embeddedBackend(await makeTempDir());
}

/** The embedded store on `dataDir`; `remove()` deletes the folder. */
export function embeddedBackend(dataDir: string): TestBackend {
  return {
    kind: 'embedded',
    open: () => openEmbeddedStore(dataDir),
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
}

function mongoBackend(uri: string, dbName: string): TestBackend {
  return {
    kind: 'mongodb',
    async open() {
      const store = await openMongoStore(uri, { dbName, serverSelectionTimeoutMS: CONNECT_TIMEOUT_MS });
      if (!store.ready()) {
        await store.close();
        throw new Error(`MONGODB_URI is set, but MongoDB did not answer within ${CONNECT_TIMEOUT_MS} ms`);
      }
      return store;
    },
    async remove() {
      const client = new MongoClient(uri, { serverSelectionTimeoutMS: CONNECT_TIMEOUT_MS });
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
