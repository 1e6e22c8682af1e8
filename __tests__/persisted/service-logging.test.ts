/**
 * The service's error log and persisted queries: a client's protocol mistake (unknown hash, wrong hash,
 * bad version, a query too large, an operation outside the safelist) is a rejected request, logged at
 * debug, never a service error at warn.
 */
import { rm } from 'node:fs/promises';
import { PERSISTED_QUERY_CLIENT_ERROR_CODES, sha256Hex } from '../../src/persisted/index.js';
import { createApp, type AppOptions } from '../../src/server/app.js';
import { startServer, type RunningServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Store } from '../../src/store/port.js';
import { makeTempDir } from '../helpers/server.js';
import { apq, getGraphQL, postGraphQL } from './http-client.js';
import { LIST, TASK_SCHEMA } from './service-fixture.js';

interface LogLine {
  level: number;
  msg: string;
  code?: string;
}

const DEBUG = 20;
const running: Array<{ server: RunningServer; store: Store; dataDir: string }> = [];

afterEach(async () => {
  for (const { server, store, dataDir } of running.splice(0)) {
    await server.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

/** The real service with a debug-level logger whose lines the test reads. */
async function startLogged(persistedQueries: AppOptions['persistedQueries']): Promise<{ url: string; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const dataDir = await makeTempDir('autograph-persisted-log-');
  const store = await openEmbeddedStore(dataDir);
  const app = await createApp({ store, logger, initialSchema: TASK_SCHEMA, persistedQueries });
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  running.push({ server, store, dataDir });
  return { url: server.url, lines };
}

function graphqlErrorLines(lines: LogLine[]): LogLine[] {
  return lines.filter((line) => line.msg === 'graphql request rejected' || line.msg === 'graphql request error');
}

test('every persisted query mistake of a client is logged as a rejected request at debug', async () => {
  const { url, lines } = await startLogged({ maxQueryBytes: 100 });
  const big = `{ queryTask(filter: { title: { anyofterms: "${'x'.repeat(100)}" } }) { title } }`;
  await getGraphQL(url, { extensions: apq(sha256Hex(LIST)) });
  await postGraphQL(url, { query: LIST, extensions: apq(sha256Hex('something else')) });
  await postGraphQL(url, { extensions: apq('not-a-hash') });
  await postGraphQL(url, { query: LIST, extensions: { persistedQuery: 'yes' } });
  await postGraphQL(url, { query: LIST, extensions: { persistedQuery: { version: 2 } } });
  await postGraphQL(url, { query: big, extensions: apq(sha256Hex(big)) });

  const safelisted = await startLogged({ persistedOnly: true });
  await postGraphQL(safelisted.url, { query: LIST });

  const logged = [...graphqlErrorLines(lines), ...graphqlErrorLines(safelisted.lines)];
  expect(logged.map((line) => line.code).sort()).toEqual([...PERSISTED_QUERY_CLIENT_ERROR_CODES].sort());
  expect(logged.every((line) => line.level === DEBUG && line.msg === 'graphql request rejected')).toBe(true);
});
