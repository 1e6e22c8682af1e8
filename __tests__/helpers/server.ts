/**
 * Starts the real service (HTTP on 127.0.0.1 with a free port) for end-to-end tests:
 *
 *   const server = await startTestServer();
 *   await activateSchema(server.url, schemaText);      // from ./gql
 *   const { body } = await gql(server.url, '{ queryTask { title } }');
 *   await server.close();                              // stops HTTP, closes the store, deletes its data
 *
 * The store is the run's test backend (./backend): MongoDB on a fresh database when MONGODB_URI is set,
 * else the embedded store in a fresh temporary folder. `server.restart()` starts again on the same data
 * (`server.restart({ persistedQueries: { persistedOnly: true } })`: with those options changed).
 * Pass `dataDir` for a test that is about the embedded store's folder itself (such a folder is kept), or
 * `store` for a store the test built (the server closes it).
 */
import { createApp, type App, type AppOptions } from '../../src/server/app.js';
import { startServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import { countRoundTrips, type RoundTripCounter } from '../../src/store/counting.js';
import type { Store } from '../../src/store/port.js';
import { createTestBackend, embeddedBackend, type TestBackend } from './backend.js';

export { makeTempDir, TEST_BACKEND_KIND } from './backend.js';

export interface TestServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  store: Store;
  app: App;
  /** Stops the HTTP server and the app, closes the store, deletes the data unless the test owns it. */
  close(): Promise<void>;
  /**
   * Stops like `close()` but keeps the data, then starts a new server on it with the same options, or
   * with `changes` applied to them (a service restarted with other settings).
   */
  restart(changes?: RestartChanges): Promise<TestServer>;
}

export interface TestServerOptions extends Partial<Omit<AppOptions, 'store' | 'logger'>> {
  /** Run on the embedded store in this existing folder (kept on close) instead of the test backend. */
  dataDir?: string;
  /** A store to use instead of opening one; the server closes it. */
  store?: Store;
  /** Wraps each store the server opens (to count round trips, say). */
  wrapStore?: (store: Store) => Store;
}

/** Options a restart may change; the data stays where it is. */
export type RestartChanges = Partial<Omit<TestServerOptions, 'dataDir' | 'store' | 'wrapStore'>>;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { dataDir, store: givenStore } = options;
  if (givenStore !== undefined) {
    let opened = false;
    const open = async () => {
      if (opened) throw new Error('restart() cannot reopen a store the test passed in; pass dataDir or nothing');
      opened = true;
      return givenStore;
    };
    return startOn(options, { open, remove: async () => undefined });
  }
  if (dataDir !== undefined) {
    return startOn(options, { open: embeddedBackend(dataDir).open, remove: async () => undefined });
  }
  return startOn(options, await createTestBackend());
}

async function startOn(options: TestServerOptions, backend: Pick<TestBackend, 'open' | 'remove'>): Promise<TestServer> {
  const { dataDir: _dataDir, store: _store, wrapStore, ...appOptions } = options;
  const opened = await backend.open();
  const store = wrapStore ? wrapStore(opened) : opened;
  let app: App;
  try {
    app = await createApp({ ...appOptions, store, logger: createLogger('silent') });
  } catch (error) {
    await store.close();
    await backend.remove();
    throw error;
  }
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  const stop = async () => {
    await server.close();
    await store.close();
  };
  return {
    url: server.url,
    store,
    app,
    async close() {
      await stop();
      await backend.remove();
    },
    async restart(changes = {}) {
      await stop();
      return startOn({ ...options, ...changes }, backend);
    },
  };
}

/** A test server whose store counts its round trips: `counter` sees every store call the service makes. */
export async function startCountingTestServer(
  options: Omit<TestServerOptions, 'wrapStore'> = {},
): Promise<{ server: TestServer; counter: RoundTripCounter }> {
  let counter!: RoundTripCounter;
  const server = await startTestServer({
    ...options,
    wrapStore: (store) => {
      const counted = countRoundTrips(store);
      counter = counted.counter;
      return counted.store;
    },
  });
  return { server, counter };
}
