/**
 * What the hand-written HTTP layer (router, CORS, body reading) costs next to the GraphQL work behind it:
 * a bare node:http handler answering a fixed JSON body (the floor any HTTP layer, framework or not, sits
 * on), the service's GET /health (router only), and POST /graphql of `{ __typename }` with CORS off and
 * with CORS on from a listed origin. The load generator runs in a process of its own. No assertions.
 * Run after `npm run build`: node dist/bench/http-layer.js   (BENCH_SECONDS=5, BENCH_CONNECTIONS=10)
 */
import type autocannon from 'autocannon';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp, type AppOptions } from '../src/server/app.js';
import { startServer, type RunningServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Store } from '../src/store/port.js';
import { generateLoad } from './load-generator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ORIGIN = 'https://app.example.com';
const SCHEMA = 'type Task { id: ID! title: String! }\n';

interface Case {
  name: string;
  options: Omit<autocannon.Options, 'connections' | 'duration'>;
}

async function bareServer(): Promise<{ url: string; server: Server }> {
  const body = JSON.stringify({ status: 'ok', schema: true, store: 'embedded' });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function service(folder: string, options: Partial<AppOptions>): Promise<{ server: RunningServer; store: Store }> {
  const store = await openEmbeddedStore(folder);
  const app = await createApp({ store, logger: createLogger('silent'), initialSchema: SCHEMA, ...options });
  return { server: await startServer({ app, port: 0, host: '127.0.0.1' }), store };
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-http-'));
  const bare = await bareServer();
  const plain = await service(path.join(root, 'plain'), {});
  const withCors = await service(path.join(root, 'cors'), { corsOrigins: [ORIGIN] });
  const typename = JSON.stringify({ query: '{ __typename }' });
  const cases: Case[] = [
    { name: 'bare node:http, fixed JSON', options: { url: `${bare.url}/health` } },
    { name: 'GET /health (router)', options: { url: `${plain.server.url}/health` } },
    { name: 'POST /graphql { __typename }', options: { url: `${plain.server.url}/graphql`, method: 'POST', headers: { 'content-type': 'application/json' }, body: typename } },
    {
      name: 'POST /graphql { __typename }, CORS',
      options: { url: `${withCors.server.url}/graphql`, method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: typename },
    },
  ];
  try {
    console.log(`${CONNECTIONS} connections, ${SECONDS} s per case; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at the start`);
    for (const benchCase of cases) {
      const check = await fetch(String(benchCase.options.url), { method: benchCase.options.method ?? 'GET', headers: benchCase.options.headers as Record<string, string> | undefined, body: benchCase.options.body as string | undefined });
      if (check.status !== 200) throw new Error(`${benchCase.name}: expected HTTP 200, got ${check.status}: ${(await check.text()).slice(0, 300)}`);
      const result = await generateLoad({ ...benchCase.options, connections: CONNECTIONS, duration: SECONDS });
      const rps = result.requests / result.seconds;
      console.log(`  ${benchCase.name.padEnd(36)} ${rps.toFixed(0).padStart(6)} req/s   p50 ${String(result.p50).padStart(3)} ms   p99 ${String(result.p99).padStart(3)} ms   failures ${result.failures}`);
    }
  } finally {
    await new Promise((resolve) => bare.server.close(resolve));
    for (const { server, store } of [plain, withCors]) {
      await server.close();
      await store.close();
    }
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
