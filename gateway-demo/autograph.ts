import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { FederationVariant, RunningService } from './owner.js';

/** The schema files sit beside the sources; compiled code runs from dist/gateway-demo. */
function demoSchemaPath(variant: FederationVariant): string {
  const file = variant === 2 ? 'schema-fed2.graphql' : 'schema.graphql';
  const besideSource = join(__dirname, file);
  return existsSync(besideSource) ? besideSource : join(__dirname, '..', '..', 'gateway-demo', file);
}

/**
 * Autograph serving the demo's schema (Mission owned here, Astronaut extended) on a fresh data folder:
 * `schema.graphql` for Federation 1, `schema-fed2.graphql` (two keys, `@inaccessible`, `@tag`) for 2.
 */
export async function startAutograph(port = 0, dataDir?: string, variant: FederationVariant = 1): Promise<RunningService> {
  const folder = dataDir ?? (await mkdtemp(join(tmpdir(), 'autograph-demo-')));
  const store = await openEmbeddedStore(folder);
  const schema = await readFile(demoSchemaPath(variant), 'utf8');
  const removeFolder = () => (dataDir === undefined ? rm(folder, { recursive: true, force: true }) : Promise.resolve());
  const app = await createApp({ store, logger: createLogger('warn'), initialSchema: schema });
  let server;
  try {
    server = await startServer({ app, port, host: '127.0.0.1' });
  } catch (error) {
    await app.close();
    await store.close();
    await removeFolder();
    throw error;
  }
  return {
    url: `${server.url}/graphql`,
    async close() {
      await server.close();
      await store.close();
      await removeFolder();
    },
  };
}
