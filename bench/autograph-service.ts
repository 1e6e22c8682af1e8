/**
 * Autograph as the API benchmark runs it: the embedded store in a folder, counted round trips, `createApp`
 * with its default options, HTTP on 127.0.0.1. Closing stops the service and closes the store, keeping the
 * folder, so that the next start is a restart on the same data.
 */
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { countRoundTrips, type RoundTripCounter } from '../src/store/counting.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Store } from '../src/store/port.js';

export interface AutographService {
  url: string;
  /** The store, counting its round trips in `counter`. */
  store: Store;
  counter: RoundTripCounter;
  close(): Promise<void>;
}

/** Starts on the store in `folder`; without `initialSchema`, with the schema the store holds (a restart). */
export async function startAutograph(folder: string, initialSchema?: string): Promise<AutographService> {
  const { store, counter } = countRoundTrips(await openEmbeddedStore(folder));
  const app = await createApp({ store, logger: createLogger('silent'), initialSchema });
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  return {
    url: server.url,
    store,
    counter,
    async close() {
      await server.close();
      await store.close();
    },
  };
}
