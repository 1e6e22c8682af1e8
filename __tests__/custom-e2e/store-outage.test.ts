import { rm } from 'node:fs/promises';
import { openEmbeddedStore } from '../../src/store/embedded/index';
import { StoreUnavailableError, SYSTEM_COLLECTIONS, type Collection, type Store } from '../../src/store/port';
import { activateSchema, gql } from '../helpers/gql';
import { makeTempDir, startTestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/** A store unreachable at start (MongoDB down): the stored script, like the stored schema, loads once it can be read. */

const SCHEMA = `type Query { hello: String @lambda }`;
const SCRIPT = `self.addGraphQLResolvers({ 'Query.hello': () => 'back again' });`;

/** The embedded store on `dir`, whose system collections answer StoreUnavailableError until `end()`. */
async function storeDownAtStart(dir: string): Promise<{ store: Store; end(): void }> {
  const store = await openEmbeddedStore(dir);
  let down = true;
  const system = new Set<string>(Object.values(SYSTEM_COLLECTIONS));
  const wrapped: Store = Object.assign(Object.create(store) as Store, {
    ready: () => !down,
    collection(name: string): Collection {
      const collection = store.collection(name);
      if (!system.has(name)) return collection;
      return Object.assign(Object.create(collection) as Collection, {
        find: (...args: Parameters<Collection['find']>) => {
          if (down) return Promise.reject(new StoreUnavailableError('connection refused'));
          return collection.find(...args);
        },
      });
    },
    close: () => store.close(),
  });
  return { store: wrapped, end: () => (down = false) };
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the condition never came true');
}

test('the service starts without its stored script and schema, and serves both once the store answers', async () => {
  const dataDir = await makeTempDir();
  try {
    const first = await startTestServer({ dataDir });
    await activateSchema(first.url, SCHEMA);
    await loadLambda(first.url, SCRIPT);
    await first.close();

    const outage = await storeDownAtStart(dataDir);
    const server = await startTestServer({ dataDir, store: outage.store, storedSchemaRetryMs: 10 });
    try {
      expect(server.app.active).toBeUndefined();
      expect((await fetch(`${server.url}/admin/lambda`)).status).toBe(404);

      outage.end();
      await until(async () => (await fetch(`${server.url}/admin/lambda`)).status === 200 && server.app.active !== undefined);
      expect((await gql(server.url, '{ hello }')).body).toEqual({ data: { hello: 'back again' } });
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
