/**
 * What `@cascade` costs next to the same read without it: the real service (createApp over the embedded
 * store in a temporary folder) on the API benchmark's data (1,000 users, BENCH_TASKS tasks), each case
 * sent by the load generator in a process of its own. Prints requests/s, p50 and p99 per case and how many
 * objects the first answer held; no assertions.
 * Run after `npm run build`: node dist/bench/cascade.js   (BENCH_SECONDS=10, BENCH_CONNECTIONS=10, BENCH_TASKS=10000)
 */
import type autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import { BENCH_SCHEMA, loadData, RARE_TERM } from './api-data.js';
import { generateLoad } from './load-generator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TASKS = Number(process.env.BENCH_TASKS ?? 10_000);

const RARE = `{ title: { anyofterms: "${RARE_TERM}" }, completed: false }`;

const CASES: Array<{ name: string; query: string }> = [
  { name: 'users, each with its open rare tasks', query: `{ queryUser(first: 20) { username tasks(filter: ${RARE}) { title } } }` },
  { name: 'the same @cascade: users without one drop', query: `{ queryUser(first: 20) @cascade { username tasks(filter: ${RARE}) { title } } }` },
  { name: 'users with any task (has filter)', query: '{ queryUser(filter: { has: tasks }, first: 20) { username } }' },
  { name: 'tasks @cascade(fields: ["priority"])', query: '{ queryTask(first: 20) @cascade(fields: ["priority"]) { title priority } }' },
];

async function post(url: string, body: string): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, json: await response.json() };
}

function objectsIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + objectsIn(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Object.values(value).reduce((sum: number, item) => sum + objectsIn(item), 0);
}

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-cascade-'));
  const store = await openEmbeddedStore(folder);
  const app = await createApp({ store, logger: createLogger('silent'), initialSchema: BENCH_SCHEMA });
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  try {
    await loadData(store, TASKS);
    console.log(`${TASKS} tasks, ${CONNECTIONS} connections, ${SECONDS} s per case; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at the start`);
    for (const benchCase of CASES) {
      const body = JSON.stringify({ query: benchCase.query });
      const check = await post(server.url, body);
      if (check.status !== 200 || check.json.errors) throw new Error(`${benchCase.name}: ${JSON.stringify(check.json).slice(0, 300)}`);
      const options: autocannon.Options = { url: `${server.url}/graphql`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: CONNECTIONS, duration: SECONDS };
      const result = await generateLoad(options);
      const rps = result.requests / result.seconds;
      console.log(
        `  ${benchCase.name.padEnd(44)} ${rps.toFixed(0).padStart(6)} req/s   p50 ${String(result.p50).padStart(4)} ms   p99 ${String(result.p99).padStart(4)} ms   ${objectsIn(check.json.data)} objects`,
      );
    }
  } finally {
    await server.close();
    await store.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
