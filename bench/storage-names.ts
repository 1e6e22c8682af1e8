/**
 * What issue 13's storage features cost. Two services on two embedded stores holding the same data (the
 * API benchmark's users and tasks, written through the Store port): one serves it under its own names
 * (`bench/api-data.ts`'s schema), the other under other GraphQL names with `@dgraph(type:, pred:)`
 * pointing at the same stored names, so every read goes through the collection translation and the
 * stored-name resolvers. Both are loaded alternately, round by round; the ratio is the median over the
 * rounds. Then the `@secret` work: sequential `addAccount` (one bcrypt hash), `checkAccountPassword`
 * (right and wrong password: one bcrypt compare) and an unknown account (no bcrypt), median latency.
 * No assertions.
 * Run after `npm run build`: node dist/bench/storage-names.js   (BENCH_SECONDS=5, BENCH_ROUNDS=3,
 * BENCH_CONNECTIONS=10, BENCH_TASKS=10000)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import { BENCH_SCHEMA, loadData, RARE_TERM } from './api-data.js';
import { generateLoad, median } from './load-generator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TASKS = Number(process.env.BENCH_TASKS ?? 10_000);
const PASSWORD_REQUESTS = 10;

const ACCOUNT = 'type Account @secret(field: "password") {\n  login: String! @id\n}\n';

/** The same stored data under other GraphQL names. */
const RENAMED_SCHEMA = `type Job @dgraph(type: "Task") {
  id: ID!
  name: String! @dgraph(pred: "title") @search(by: [term])
  prio: Int @dgraph(pred: "priority") @search
  done: Boolean! @dgraph(pred: "completed") @search
  createdAt: DateTime @search
  owner: Person! @dgraph(pred: "user")
}

type Person @dgraph(type: "User") {
  username: String! @id
  name: String
  jobs: [Job] @hasInverse(field: owner)
}
`;

interface Variant {
  label: string;
  schema: string;
  queries: Record<string, string>;
}

const VARIANTS: Variant[] = [
  {
    label: 'own names',
    schema: BENCH_SCHEMA + ACCOUNT,
    queries: {
      filtered: `{ queryTask(filter: { completed: false, title: { anyofterms: "${RARE_TERM}" } }, order: { desc: priority }, first: 20) { title priority user { username } } }`,
      nested: '{ queryUser(first: 20) { username tasks(first: 10, order: { asc: createdAt }) { title completed } } }',
    },
  },
  {
    label: '@dgraph names',
    schema: RENAMED_SCHEMA + ACCOUNT,
    queries: {
      filtered: `{ queryJob(filter: { done: false, name: { anyofterms: "${RARE_TERM}" } }, order: { desc: prio }, first: 20) { name prio owner { username } } }`,
      nested: '{ queryPerson(first: 20) { username jobs(first: 10, order: { asc: createdAt }) { name done } } }',
    },
  },
];

interface Service {
  variant: Variant;
  url: string;
  close(): Promise<void>;
}

async function startService(variant: Variant): Promise<Service> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-storage-names-'));
  const store = await openEmbeddedStore(folder);
  const app = await createApp({ store, logger: createLogger('silent'), initialSchema: BENCH_SCHEMA + ACCOUNT });
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  await loadData(store, TASKS);
  const upload = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: variant.schema });
  if (!upload.ok) throw new Error(`schema upload failed: ${await upload.text()}`);
  return {
    variant,
    url: server.url,
    async close() {
      await server.close();
      await store.close();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function post(url: string, query: string): Promise<{ data?: Record<string, unknown>; errors?: unknown[] }> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
}

async function requestsPerSecond(url: string, query: string, seconds: number): Promise<number> {
  const result = await generateLoad({
    url: `${url}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.failures > 0) throw new Error(`${result.failures} failed requests`);
  return result.requests / result.seconds;
}

async function compareReads(services: Service[]): Promise<void> {
  for (const scenario of Object.keys(VARIANTS[0]!.queries)) {
    for (const service of services) {
      const answer = await post(service.url, service.variant.queries[scenario]!);
      if (answer.errors) throw new Error(`${service.variant.label} ${scenario}: ${JSON.stringify(answer.errors)}`);
      await requestsPerSecond(service.url, service.variant.queries[scenario]!, 1);
    }
    const rates = services.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) rates[index]!.push(await requestsPerSecond(services[index]!.url, services[index]!.variant.queries[scenario]!, SECONDS / ROUNDS));
    }
    const ratios = rates[1]!.map((rate, round) => rate / rates[0]![round]!);
    console.log(`${scenario.padEnd(9)} ${services.map((service, index) => `${service.variant.label}: ${median(rates[index]!).toFixed(0)} req/s`).join('   ')}   ratio ${median(ratios).toFixed(3)}`);
  }
}

async function medianLatency(url: string, queries: string[], expectErrors = false): Promise<number> {
  const times: number[] = [];
  for (const query of queries) {
    const started = process.hrtime.bigint();
    const answer = await post(url, query);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (!expectErrors && answer.errors) throw new Error(JSON.stringify(answer.errors));
  }
  return median(times);
}

async function passwordWork(service: Service): Promise<void> {
  const logins = Array.from({ length: PASSWORD_REQUESTS }, (_, index) => `user${index}`);
  const add = await medianLatency(service.url, logins.map((login) => `mutation { addAccount(input: [{ login: "${login}", password: "pw-${login}" }]) { numUids } }`));
  const right = await medianLatency(service.url, logins.map((login) => `{ checkAccountPassword(login: "${login}", password: "pw-${login}") { login } }`));
  const wrong = await medianLatency(service.url, logins.map((login) => `{ checkAccountPassword(login: "${login}", password: "guess") { login } }`));
  const unknown = await medianLatency(service.url, logins.map((login) => `{ checkAccountPassword(login: "nobody-${login}", password: "guess") { login } }`));
  const eleven = Array.from({ length: 11 }, (_, index) => `c${index}: checkAccountPassword(login: "user0", password: "g${index}") { login }`);
  const refused = await medianLatency(service.url, [`{ ${eleven.join(' ')} }`], true);
  console.log(`@secret (median of ${PASSWORD_REQUESTS} sequential requests): addAccount ${add.toFixed(1)} ms, check right ${right.toFixed(1)} ms, wrong ${wrong.toFixed(1)} ms, unknown login ${unknown.toFixed(1)} ms; 11 checks in one request (10 run, 1 refused) ${refused.toFixed(0)} ms`);
}

async function main(): Promise<void> {
  console.log(`storage names: ${TASKS} tasks, ${CONNECTIONS} connections, ${SECONDS} s per variant and scenario over ${ROUNDS} rounds, load average ${os.loadavg()[0]!.toFixed(1)}`);
  const services: Service[] = [];
  try {
    for (const variant of VARIANTS) services.push(await startService(variant));
    await compareReads(services);
    await passwordWork(services[0]!);
  } finally {
    for (const service of services) await service.close();
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
