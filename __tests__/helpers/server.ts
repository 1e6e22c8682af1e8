/**
 * Starts the real service (embedded store in a temporary folder, HTTP on 127.0.0.1 with a free port) for
 * end-to-end tests:
 *
 *   const server = await startTestServer();
 *   await activateSchema(server.url, schemaText);      // from ./gql
 *   const { body } = await gql(server.url, '{ queryTask { title } }');
 *   await server.close();                              // stops HTTP, closes the store, removes the folder
 *
 * Pass `dataDir` to reuse a folder (e.g. to restart on the same data); such a folder is not removed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppOptions } from '../../src/server/app.js';
import { startServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Store } from '../../src/store/port.js';

export interface TestServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  dataDir: string;
  store: Store;
  app: App;
  /** Stops the HTTP server and the app, closes the store, removes the data folder if this helper made it. */
  close(): Promise<void>;
}

export interface TestServerOptions extends Partial<Omit<AppOptions, 'store' | 'logger'>> {
  /** Existing data folder to use (kept on close); default: a fresh temporary folder. */
  dataDir?: string;
  /** A store to use instead of opening the embedded store on `dataDir`; the server closes it. */
  store?: Store;
}

/** A fresh empty folder under the OS temp dir; remove it with `rm(dir, { recursive: true, force: true })`. */
export function makeTempDir(prefix = 'autograph-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { dataDir: givenDir, store: givenStore, ...appOptions } = options;
  const dataDir = givenDir ?? (await makeTempDir());
  const store = givenStore ?? (await openEmbeddedStore(dataDir));
  let app: App;
  try {
    app = await createApp({ ...appOptions, store, logger: createLogger('silent') });
  } catch (error) {
    await store.close();
    throw error;
  }
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  return {
    url: server.url,
    dataDir,
    store,
    app,
    async close() {
      await server.close();
      await store.close();
      if (givenDir === undefined) {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
