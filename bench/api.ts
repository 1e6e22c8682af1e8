/**
 * The API benchmark (issue 3): the generated service and the hand-written baseline (bench/baseline.ts)
 * over the same embedded store holding 100,000 Tasks of 1,000 Users, measured over HTTP on loopback
 * with autocannon, scenario by scenario. Prints requests/s, p50/p99 latency and store round trips per
 * request of each, and the ratio hand-written ÷ generated throughput (target ≤ 1.25).
 */
import type autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { countRoundTrips, type RoundTripCounter } from '../src/store/counting.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import { BENCH_SCHEMA, loadData, TASKS, USERS, usernameOf, type LoadedData } from './api-data.js';
import { startBaseline } from './baseline.js';
import { generateLoad, median, type LoadResult } from './load-generator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Alternating runs per service and scenario; BENCH_SECONDS is split among them. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
/** Connections of `heavy` scenarios (at most CONNECTIONS). */
const HEAVY_CONNECTIONS = Math.min(2, CONNECTIONS);
/** Round-trip target per query scenario: its relation nesting depth + 1. */
const TARGET_RATIO = 1.25;

interface Scenario {
  name: string;
  description: string;
  /** One or more request bodies; autocannon cycles through them. */
  bodies(data: LoadedData): Array<{ query: string; variables?: Record<string, unknown> }>;
  /** Relation nesting depth of a query (round-trip target depth + 1); undefined for mutations. */
  depth?: number;
  /** Whether both services must answer the first body with the same data. */
  compareAnswers: boolean;
  /**
   * Connections for a request that takes hundreds of milliseconds of CPU: more would only queue behind
   * one another on the single-threaded service and run into the load generator's time-out.
   */
  heavy?: boolean;
}

const ADD_BATCH = 100;
let addRound = 0;

export const SCENARIOS: Scenario[] = [
  {
    name: 'queryTask',
    description: 'queryTask(filter: term + Boolean, order: desc createdAt, first: 20)',
    depth: 0,
    compareAnswers: true,
    bodies: () => [{
      query: `query { queryTask(filter: { title: { anyofterms: "urgent" }, completed: false }, order: { desc: createdAt }, first: 20) { id title priority completed createdAt } }`,
    }],
  },
  {
    name: 'getTask',
    description: 'getTask(id) { title user { username name } }, 100 different ids',
    depth: 1,
    compareAnswers: true,
    bodies: (data) => data.taskIds.filter((_, i) => i % Math.floor(data.taskIds.length / 100) === 0).slice(0, 100).map((id) => ({
      query: 'query($id: ID!) { getTask(id: $id) { id title completed user { username name } } }',
      variables: { id },
    })),
  },
  {
    name: 'queryUser',
    description: 'queryUser(first: 100) { username tasks(first: 10) { title } }',
    depth: 1,
    compareAnswers: true,
    heavy: true,
    bodies: () => [{ query: '{ queryUser(first: 100) { username tasks(first: 10) { title } } }' }],
  },
  {
    name: 'aggregateTask',
    description: 'aggregateTask(filter: Boolean) { count priorityMin priorityMax priorityAvg }',
    depth: 0,
    compareAnswers: true,
    heavy: true,
    bodies: () => [{ query: '{ aggregateTask(filter: { completed: true }) { count priorityMin priorityMax priorityAvg } }' }],
  },
  // Last: every addTask request grows the Task collection by 100 (some 200,000 over a run), which would
  // otherwise change the data the later scenarios read.
  {
    name: 'addTask',
    description: `addTask of ${ADD_BATCH} objects, each referencing its user by @id`,
    compareAnswers: false,
    bodies: () => Array.from({ length: 20 }, () => {
      addRound += 1;
      return {
        query: 'mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids } }',
        variables: {
          input: Array.from({ length: ADD_BATCH }, (_, i) => ({
            title: `bench added ${addRound}-${i}`,
            priority: 1 + (i % 5),
            completed: i % 2 === 0,
            createdAt: '2026-01-01T00:00:00.000Z',
            user: { username: usernameOf((addRound * ADD_BATCH + i) % USERS) },
          })),
        },
      };
    }),
  },
];

/** One timed run of the load generator against one service. */
interface Run extends LoadResult {
  /** CPU time of this process (the services; the load generator is another process) until the run's requests were all answered. */
  cpuMicros: number;
}

interface Measurement {
  /** Completed requests over the runs' total time. */
  requestsPerSecond: number;
  /** Medians over the runs. */
  p50: number;
  p99: number;
  /** CPU time per request sent: what one request costs the service, whatever else the machine is doing. */
  cpuMsPerRequest: number;
  roundTrips: number;
  failures: number;
  runs: Run[];
}

async function post(url: string, body: unknown): Promise<{ data?: unknown; errors?: unknown }> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as { data?: unknown; errors?: unknown };
}

/** Waits until no request is left over from a load run (autocannon stops sending, the service keeps working). */
async function settle(counter: RoundTripCounter): Promise<void> {
  for (;;) {
    counter.reset();
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (counter.count === 0) return;
  }
}

/** One request alone, to count its store round trips exactly and to read its answer. */
async function probe(url: string, counter: RoundTripCounter, body: unknown): Promise<{ answer: unknown; roundTrips: number }> {
  await settle(counter);
  const answer = await post(url, body);
  const roundTrips = counter.count;
  if ((answer as { errors?: unknown }).errors) throw new Error(`${url}: the request failed: ${JSON.stringify(answer)}`);
  return { answer, roundTrips };
}

function loadOptions(url: string, bodies: unknown[], duration: number, connections: number): autocannon.Options {
  return {
    url: `${url}/graphql`,
    connections,
    duration,
    // Seconds; a slow answer is measured, not dropped.
    timeout: 60,
    requests: bodies.map((body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })),
  } as autocannon.Options;
}

/** Loads one service for `seconds`, then waits until every request sent has been answered. */
async function run(url: string, counter: RoundTripCounter, bodies: unknown[], seconds: number, connections: number): Promise<Run> {
  const cpuBefore = process.cpuUsage();
  const load = await generateLoad(loadOptions(url, bodies, seconds, connections));
  await settle(counter);
  const cpu = process.cpuUsage(cpuBefore);
  return { ...load, cpuMicros: cpu.user + cpu.system };
}

function summarize(runs: Run[], roundTrips: number): Measurement {
  const total = (pick: (run: Run) => number) => runs.reduce((sum, one) => sum + pick(one), 0);
  return {
    requestsPerSecond: total((one) => one.requests) / total((one) => one.seconds),
    p50: median(runs.map((one) => one.p50)),
    p99: median(runs.map((one) => one.p99)),
    cpuMsPerRequest: total((one) => one.cpuMicros) / 1000 / Math.max(1, total((one) => one.sent)),
    roundTrips,
    failures: total((one) => one.failures),
    runs,
  };
}

/**
 * Measures both services in ROUNDS alternating runs of SECONDS / ROUNDS each (after a warm-up of each), so
 * that a change in machine load falls on both alike; the ratio is the median of the rounds' ratios.
 */
async function compare(
  services: { generated: string; baseline: string },
  counter: RoundTripCounter,
  bodies: unknown[],
  connections: number,
  generatedFirst: boolean,
): Promise<{ ours: Measurement; theirs: Measurement; ratio: number }> {
  const roundTrips = { generated: (await probe(services.generated, counter, bodies[0])).roundTrips, baseline: (await probe(services.baseline, counter, bodies[0])).roundTrips };
  for (const url of [services.generated, services.baseline]) {
    await generateLoad(loadOptions(url, bodies, WARM_UP_SECONDS, connections));
    await settle(counter);
  }
  const seconds = SECONDS / ROUNDS;
  const runs: { generated: Run[]; baseline: Run[] } = { generated: [], baseline: [] };
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order: Array<'generated' | 'baseline'> = (round % 2 === 0) === generatedFirst ? ['generated', 'baseline'] : ['baseline', 'generated'];
    for (const side of order) runs[side].push(await run(services[side], counter, bodies, seconds, connections));
    const rate = (one: Run) => one.requests / one.seconds;
    ratios.push(rate(runs.baseline[round]!) / rate(runs.generated[round]!));
  }
  return { ours: summarize(runs.generated, roundTrips.generated), theirs: summarize(runs.baseline, roundTrips.baseline), ratio: median(ratios) };
}

const row = (label: string, m: Measurement) =>
  `  ${label.padEnd(13)} ${m.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms   ` +
  `CPU ${m.cpuMsPerRequest.toFixed(m.cpuMsPerRequest < 10 ? 2 : 0).padStart(6)} ms/request   round trips/request ${String(m.roundTrips).padStart(3)}` +
  `   (req/s per run: ${m.runs.map((one) => (one.requests / one.seconds).toFixed(0)).join(', ')})` +
  (m.failures > 0 ? `   ${m.failures} failed requests!` : '');

/** Runs the named scenarios (all when `names` is empty). Returns false when a target was missed. */
export async function runApiBench(names: readonly string[] = []): Promise<boolean> {
  const chosen = names.length === 0 ? SCENARIOS : SCENARIOS.filter((scenario) => names.includes(scenario.name));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-api-'));
  const inner = await openEmbeddedStore(folder);
  const { store, counter } = countRoundTrips(inner);
  const app = await createApp({ store, logger: createLogger('silent'), initialSchema: BENCH_SCHEMA });
  const generated = await startServer({ app, port: 0, host: '127.0.0.1' });
  const baseline = await startBaseline(store);
  let allMet = true;
  try {
    const started = performance.now();
    const data = await loadData(store);
    console.log(
      `loaded ${USERS} Users and ${TASKS} Tasks through the Store port (insertMany of 10,000) in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `${CONNECTIONS} connections (${HEAVY_CONNECTIONS} for the heavy scenarios), ${WARM_UP_SECONDS} s warm-up + ${SECONDS} s per service and scenario in ${ROUNDS} alternating runs; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`,
    );
    for (const [index, scenario] of chosen.entries()) {
      const bodies = scenario.bodies(data);
      if (scenario.compareAnswers) {
        const [ours, theirs] = [await post(generated.url, bodies[0]), await post(baseline.url, bodies[0])];
        if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
          throw new Error(`${scenario.name}: the two services answer differently:\n generated ${JSON.stringify(ours).slice(0, 500)}\n hand-written ${JSON.stringify(theirs).slice(0, 500)}`);
        }
      }
      // Which side goes first alternates per scenario and per round, so drift in machine load (or a
      // growing collection) favours neither.
      const connections = scenario.heavy ? HEAVY_CONNECTIONS : CONNECTIONS;
      const { ours, theirs, ratio } = await compare({ generated: generated.url, baseline: baseline.url }, counter, bodies, connections, index % 2 === 0);
      const cpuRatio = ours.cpuMsPerRequest / theirs.cpuMsPerRequest;
      const roundTripTarget = scenario.depth === undefined ? undefined : scenario.depth + 1;
      const ratioMet = ratio <= TARGET_RATIO;
      const roundTripsMet = roundTripTarget === undefined || ours.roundTrips === roundTripTarget;
      allMet &&= ratioMet && roundTripsMet && ours.failures === 0 && theirs.failures === 0;
      console.log(`\n${scenario.name}: ${scenario.description} (${connections} connections)`);
      console.log(row('generated', ours));
      console.log(row('hand-written', theirs));
      console.log(
        `  ratio hand-written/generated req/s: ${ratio.toFixed(2)}x, median of ${ROUNDS} rounds (target ≤ ${TARGET_RATIO}x: ${ratioMet ? 'met' : 'MISSED'})` +
          (roundTripTarget === undefined ? '' : `; round trips target depth ${scenario.depth} + 1 = ${roundTripTarget}: ${roundTripsMet ? 'met' : 'MISSED'}`),
      );
      console.log(`  ratio generated/hand-written CPU per request: ${cpuRatio.toFixed(2)}x`);
    }
  } finally {
    await baseline.close();
    await generated.close();
    await store.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
  return allMet;
}
