/**
 * Persisted query benchmark against the real service (createApp with default options, wired as the CLI
 * serves it, over the embedded store in a temporary folder): the same query, once registered, sent as a
 * hash-only GET (what Apollo Client's persisted query link sends) versus sent in full by POST, in
 * alternating rounds. Prints the median requests/s, p50 and p99 latency of each; no assertions.
 * Run after `npm run build`: node dist/bench/persisted.js   (BENCH_SECONDS=10, BENCH_CONNECTIONS=10, BENCH_ROUNDS=3), or
 * from source: node -e "require('ts-node').register({ transpileOnly: true, experimentalResolver: true }); require('./bench/persisted.ts')"
 */
import type autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha256Hex } from '../src/persisted/index.js';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import { generateLoad, median } from './load-generator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const SCHEMA = `type Task {
  id: ID!
  title: String! @search(by: [term])
  completed: Boolean! @search
  user: User!
}

type User {
  username: String! @id @search(by: [hash])
  name: String
  tasks: [Task] @hasInverse(field: user)
}
`;

/** A dashboard screen: a few lists and counts; executing it dominates the cost of a request. */
const DASHBOARD = `query Dashboard($first: Int, $username: String!) {
  open: queryTask(filter: { completed: false }, order: { asc: title }, first: $first) {
    id
    title
    completed
    user { username name }
  }
  done: queryTask(filter: { completed: true }, order: { desc: title }, first: $first) {
    id
    title
    completed
    user { username name }
  }
  mine: queryUser(filter: { username: { eq: $username } }) {
    username
    name
    tasks(first: $first, order: { asc: title }) { id title completed }
  }
  openCount: aggregateTask(filter: { completed: false }) { count }
  doneCount: aggregateTask(filter: { completed: true }) { count }
}`;

/**
 * A detail screen written the way generated client code often is: one object, many (aliased) fields,
 * fragments. The text is large and executing it is cheap, so what the request costs before execution
 * (transfer, JSON, hashing, the document cache) shows.
 */
const DETAIL = `query TaskDetail($id: ID!) {
  task: getTask(id: $id) {
    ...TaskHeader
    ${Array.from({ length: 60 }, (_, i) => `title${i}: title completed${i}: completed`).join('\n    ')}
    user { ...UserCard }
  }
}
fragment TaskHeader on Task { id title completed }
fragment UserCard on User { username name ${Array.from({ length: 30 }, (_, i) => `name${i}: name`).join(' ')} }`;

interface Scenario {
  name: string;
  query: string;
  variables: Record<string, unknown>;
}

interface Summary {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, connection errors and time-outs. */
  failures: number;
}

async function measure(label: string, options: autocannon.Options): Promise<Summary> {
  const result = await generateLoad({ ...LOAD, duration: SECONDS, ...options });
  return { label, requestsPerSecond: result.requests / result.seconds, p50: result.p50, p99: result.p99, failures: result.failures };
}

const WARM_UP_SECONDS = 2;
/** The load generator runs in a process of its own, so it shares neither the service's event loop nor its CPU time. */
const LOAD = { connections: CONNECTIONS } as const;

/** Registers the scenario's query, checks both forms answer alike, then measures each. */
async function compare(url: string, scenario: Scenario): Promise<void> {
  const hash = sha256Hex(scenario.query);
  const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });
  const full = await post(url, { query: scenario.query, variables: scenario.variables, extensions: JSON.parse(extensions) });
  const hashOnlyUrl = `${url}/graphql?${new URLSearchParams({ variables: JSON.stringify(scenario.variables), extensions })}`;
  const check = await fetch(hashOnlyUrl, { headers: { 'content-type': 'application/json' } });
  if (JSON.stringify(await check.json()) !== JSON.stringify(full)) {
    throw new Error(`${scenario.name}: the hash-only GET does not answer what the full POST answers`);
  }
  const hashOnlyGet: autocannon.Options = { url: hashOnlyUrl, headers: { 'content-type': 'application/json' } };
  const fullPost: autocannon.Options = {
    url: `${url}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: scenario.query, variables: scenario.variables }),
  };
  await generateLoad({ ...LOAD, ...hashOnlyGet, duration: WARM_UP_SECONDS });
  await generateLoad({ ...LOAD, ...fullPost, duration: WARM_UP_SECONDS });
  console.log(`\n${scenario.name}: query ${Buffer.byteLength(scenario.query)} bytes; hash-only GET URL ${hashOnlyUrl.length - url.length} bytes`);
  const runs: Record<'get' | 'post', Summary[]> = { get: [], post: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which goes first, so a drift in machine load does not favour one side.
    if (round % 2 === 0) {
      runs.get.push(await measure('hash-only GET', hashOnlyGet));
      runs.post.push(await measure('full query POST', fullPost));
    } else {
      runs.post.push(await measure('full query POST', fullPost));
      runs.get.push(await measure('hash-only GET', hashOnlyGet));
    }
  }
  for (const summaries of [runs.get, runs.post]) {
    const rps = median(summaries.map((summary) => summary.requestsPerSecond));
    const p50 = median(summaries.map((summary) => summary.p50));
    const p99 = median(summaries.map((summary) => summary.p99));
    const failures = summaries.reduce((sum, summary) => sum + summary.failures, 0);
    console.log(
      `  ${summaries[0]!.label.padEnd(16)} ${rps.toFixed(0).padStart(7)} req/s   p50 ${String(p50).padStart(4)} ms   p99 ${String(p99).padStart(4)} ms` +
        `   (median of ${ROUNDS}; req/s per run: ${summaries.map((summary) => summary.requestsPerSecond.toFixed(0)).join(', ')})` +
        (failures > 0 ? `   ${failures} failed requests!` : ''),
    );
  }
}

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as { errors?: unknown };
  if (!response.ok || answer.errors) {
    throw new Error(`setup request failed (${response.status}): ${JSON.stringify(answer)}`);
  }
  return answer;
}

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-persisted-'));
  const store = await openEmbeddedStore(folder);
  // Default options: persisted queries are wired in as the CLI serves them.
  const app = await createApp({ store, logger: createLogger('silent'), initialSchema: SCHEMA });
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  try {
    await post(server.url, {
      query: 'mutation Seed($input: [AddTaskInput!]!) { addTask(input: $input) { numUids } }',
      variables: {
        input: Array.from({ length: 50 }, (_, i) => ({
          title: `Task ${i}`,
          completed: i % 2 === 0,
          user: { username: `user${i % 5}`, name: `User ${i % 5}` },
        })),
      },
    });
    const seeded = (await post(server.url, { query: '{ queryTask(first: 1) { id } }' })) as { data: { queryTask: { id: string }[] } };
    const scenarios: Scenario[] = [
      { name: 'dashboard', query: DASHBOARD, variables: { first: 5, username: 'user1' } },
      { name: 'detail', query: DETAIL, variables: { id: seeded.data.queryTask[0]!.id } },
    ];
    const load = os.loadavg()[0]!.toFixed(1);
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s per run, after a ${WARM_UP_SECONDS} s warm-up of each; ` +
        `${os.cpus().length} CPUs, load average ${load} at the start`,
    );
    for (const scenario of scenarios) {
      await compare(server.url, scenario);
    }
    console.log('persisted query cache:', JSON.stringify(app.persistedQueries.cache.stats()));
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
