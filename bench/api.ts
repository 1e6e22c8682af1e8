/**
 * The API benchmark at one data size (issues 3 and 17): Autograph, the in-memory graphql-js baseline
 * (bench/in-memory-baseline.ts), the hand-written Apollo baseline over Autograph's store (bench/baseline.ts)
 * and the in-memory baseline's schema and resolvers behind Apollo Server (what Apollo itself costs), measured over HTTP on loopback with autocannon, scenario by scenario
 * (bench/scenarios.ts). Before the scenarios: the load time, the resident memory after load and the
 * restart time of Autograph at this size.
 *
 * Run by bench/run.ts as `node --expose-gc api.js <tasks> [scenario ...]`, one process per size, so that
 * each size starts with a fresh heap and its memory figures are its own. With BENCH_SUMMARY_FILE set, it
 * appends its figures there as one JSON line, for the table across sizes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RoundTripCounter } from '../src/store/counting.js';
import { BENCH_SCHEMA, fillInMemoryTables, loadData, USERS, type LoadedData } from './api-data.js';
import { startAutograph, type AutographService } from './autograph-service.js';
import { startBaseline } from './baseline.js';
import { startInMemoryBaseline } from './in-memory-baseline.js';
import { firstAnswer, measureAlternating, post, slowdown, type Measurement, type Service } from './measure.js';
import { canCollectGarbage, MIB, rssAfterGarbageCollection } from './memory.js';
import { isWrite, SCENARIOS, type RequestBody, type Scenario } from './scenarios.js';
import type { ScenarioSummary, SizeFacts, SizeSummary } from './summary.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Alternating runs per service and scenario; BENCH_SECONDS is split among them. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
/** Connections of `heavy` scenarios (at most CONNECTIONS). */
const HEAVY_CONNECTIONS = Math.min(2, CONNECTIONS);
/** Issue 3: hand-written ÷ Autograph requests/s over the same store. */
const HAND_WRITTEN_TARGET = 1.25;
/** Issue 17: Autograph at most this many times slower than the in-memory baseline. */
const IN_MEMORY_TARGET = 1.5;

const seconds = (from: number): number => (performance.now() - from) / 1000;
const mib = (bytes: number): string => `${(bytes / MIB).toFixed(0)} MiB`;
/** A ratio of requests/s as the reader says it: "2.3x slower", or "1.4x faster" below 1. */
const slowerOrFaster = (ratio: number, digits: number): string => {
  if (!Number.isFinite(ratio) || ratio === 0) return 'not comparable (a service completed no request)';
  return ratio >= 1 ? `${ratio.toFixed(digits)}x slower` : `${(1 / ratio).toFixed(digits)}x faster`;
};


/** Loads `tasks` tasks into a new store, then restarts Autograph on it; answers the restarted service. */
async function loadAndRestart(folder: string, tasks: number): Promise<{ service: AutographService; data: LoadedData; facts: SizeFacts }> {
  const first = await startAutograph(folder, BENCH_SCHEMA);
  // The service running with its schema and no data: what the data adds is measured from here.
  const rssEmpty = rssAfterGarbageCollection();
  const loadStarted = performance.now();
  const data = await loadData(first.store, tasks);
  const loadSeconds = seconds(loadStarted);
  const rssLoaded = rssAfterGarbageCollection();
  await first.close();

  const restartStarted = performance.now();
  const service = await startAutograph(folder);
  await firstAnswer(service.url, { query: 'query($id: ID!) { getTask(id: $id) { id } }', variables: { id: data.taskIds[0] } });
  const restartSeconds = seconds(restartStarted);
  const rssRestarted = rssAfterGarbageCollection();
  return { service, data, facts: { tasks, objects: tasks + USERS, loadSeconds, rssEmpty, rssLoaded, restartSeconds, rssRestarted } };
}

function printFacts(facts: SizeFacts, inMemory: { fillSeconds: number; rss: number }): void {
  const perHundredThousand = ((facts.rssLoaded - facts.rssEmpty) / facts.objects) * 100_000;
  console.log(`${facts.tasks.toLocaleString('en')} Tasks over ${USERS.toLocaleString('en')} Users; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`  load through the Store port (insertMany of 10,000): ${facts.loadSeconds.toFixed(1)} s`);
  console.log(
    `  RSS${canCollectGarbage ? '' : ' (no --expose-gc: garbage not collected first)'}: serving with no data ${mib(facts.rssEmpty)}, after load ${mib(facts.rssLoaded)} ` +
      `(${mib(perHundredThousand)} per 100,000 objects), after restart ${mib(facts.rssRestarted)}`,
  );
  console.log(`  restart (close the store, reopen the folder, until the first query is answered): ${facts.restartSeconds.toFixed(2)} s`);
  console.log(`  in-memory baseline: tables filled in ${inMemory.fillSeconds.toFixed(1)} s; RSS with the tables added ${mib(inMemory.rss)}`);
  console.log(
    `  ${CONNECTIONS} connections (${HEAVY_CONNECTIONS} for the heavy scenarios), ${WARM_UP_SECONDS} s warm-up + ${SECONDS} s per service and scenario in ${ROUNDS} rotating rounds`,
  );
}

/** Every service must answer each body of the scenario with the very same JSON. */
async function checkSameAnswers(scenario: Scenario, services: readonly Service[], bodies: RequestBody[]): Promise<void> {
  for (const body of bodies) {
    const answers = await Promise.all(services.map(async (service) => JSON.stringify(await post(service.url, body))));
    const differing = services.findIndex((_, index) => answers[index] !== answers[0]);
    if (differing > 0) {
      throw new Error(
        `${scenario.name}: the services answer ${JSON.stringify(body).slice(0, 300)} differently:\n` +
          services.map((service, index) => ` ${service.label}: ${answers[index]!.slice(0, 500)}`).join('\n'),
      );
    }
  }
}

const row = (label: string, m: Measurement) =>
  `  ${label.padEnd(30)} ${m.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(m.p50).padStart(5)} ms   p99 ${String(m.p99).padStart(5)} ms   ` +
  `CPU ${m.cpuMsPerRequest.toFixed(m.cpuMsPerRequest < 10 ? 2 : 0).padStart(6)} ms/request   round trips ${String(m.roundTrips).padStart(3)}` +
  `   (req/s per run: ${m.runs.map((one) => (one.requests / one.seconds).toFixed(0)).join(', ')})` +
  (m.failures > 0 ? `   ${m.failures} failed requests!` : '');

const met = (value: boolean) => (value ? 'met' : 'MISSED');

/** Measures one scenario on the four services and prints its figures. */
async function runScenario(scenario: Scenario, services: readonly [Service, Service, Service, Service], counter: RoundTripCounter, data: LoadedData, firstIndex: number): Promise<ScenarioSummary> {
  const bodies = scenario.bodies(data);
  if (scenario.compareAnswers) await checkSameAnswers(scenario, services, bodies);
  const connections = scenario.heavy ? HEAVY_CONNECTIONS : CONNECTIONS;
  const settings = { warmUpSeconds: WARM_UP_SECONDS, seconds: SECONDS, rounds: ROUNDS, connections };
  const measured = await measureAlternating(services, counter, bodies, settings, firstIndex);
  const [ours, memory, theirs, memoryOnApollo] = measured.measurements as [Measurement, Measurement, Measurement, Measurement];
  const versusInMemory = slowdown(ours, memory);
  const versusInMemoryOnApollo = slowdown(ours, memoryOnApollo);
  const versusHandWritten = slowdown(ours, theirs);
  const roundTripTarget = scenario.depth === undefined ? undefined : scenario.depth + 1;
  const longer = measured.runSeconds > SECONDS / ROUNDS ? `; runs of ${measured.runSeconds} s, as one request takes long` : '';
  console.log(`\n${scenario.name}: ${scenario.description} (${connections} connections${longer})`);
  console.log(row(services[0].label, ours));
  console.log(row(services[1].label, memory));
  console.log(row(services[2].label, theirs));
  console.log(row(services[3].label, memoryOnApollo));
  console.log(`  Autograph ÷ in-memory: ${slowerOrFaster(versusInMemory, 1)} (over ${ROUNDS} rounds; issue 17 target ≤ ${IN_MEMORY_TARGET}x: ${met(versusInMemory <= IN_MEMORY_TARGET)})`);
  console.log(
    `  Autograph ÷ in-memory on Apollo Server: ${slowerOrFaster(versusInMemoryOnApollo, 1)}; in-memory on Apollo ÷ in-memory: ${slowerOrFaster(slowdown(memoryOnApollo, memory), 1)}` +
      ` (what Apollo Server's pipeline costs by itself)`,
  );
  console.log(
    `  Autograph ÷ hand-written: ${slowerOrFaster(versusHandWritten, 2)} (target ≤ ${HAND_WRITTEN_TARGET}x: ${met(versusHandWritten <= HAND_WRITTEN_TARGET)})` +
      (roundTripTarget === undefined ? '' : `; round trips target depth ${scenario.depth} + 1 = ${roundTripTarget}: ${met(ours.roundTrips === roundTripTarget)}`) +
      `; CPU per request Autograph ÷ hand-written ${(ours.cpuMsPerRequest / theirs.cpuMsPerRequest).toFixed(2)}x`,
  );
  return { name: scenario.name, autograph: ours, inMemory: memory, handWritten: theirs, inMemoryOnApollo: memoryOnApollo, slowdownVersusInMemory: versusInMemory };
}

/** Runs the named scenarios (all when `names` is empty) at `tasks` tasks. */
export async function runApiBench(tasks: number, names: readonly string[] = []): Promise<SizeSummary> {
  const chosen = names.length === 0 ? SCENARIOS : SCENARIOS.filter((scenario) => names.includes(scenario.name));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-api-'));
  const running: Array<{ close(): Promise<void> }> = [];
  try {
    const { service: autograph, data, facts } = await loadAndRestart(folder, tasks);
    running.push(autograph);
    const fillStarted = performance.now();
    const tables = fillInMemoryTables(tasks);
    const inMemory = await startInMemoryBaseline(tables);
    running.push(inMemory);
    // The same tables (addTask, the last scenario, appends to them through both).
    const inMemoryApollo = await startInMemoryBaseline(tables, 'apollo');
    running.push(inMemoryApollo);
    const fillSeconds = seconds(fillStarted);
    const rssWithTables = rssAfterGarbageCollection();
    const handWritten = await startBaseline(autograph.store);
    running.push(handWritten);
    printFacts(facts, { fillSeconds, rss: rssWithTables });
    const summary: SizeSummary = { facts, scenarios: [] };
    for (const [index, scenario] of chosen.entries()) {
      const services = [
        { label: 'Autograph', url: autograph.url },
        { label: isWrite(scenario) ? 'in-memory (no durability)' : 'in-memory graphql-js', url: inMemory.url },
        { label: 'hand-written Apollo', url: handWritten.url },
        { label: isWrite(scenario) ? 'in-memory on Apollo (no dur.)' : 'in-memory on Apollo Server', url: inMemoryApollo.url },
      ] as const;
      summary.scenarios.push(await runScenario(scenario, services, autograph.counter, data, index));
    }
    return summary;
  } finally {
    // The baselines first: the hand-written one reads Autograph's store, which closes with Autograph.
    for (const service of running.reverse()) await service.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [size, ...names] = process.argv.slice(2);
  const tasks = Number(size);
  if (!Number.isInteger(tasks) || tasks < 100) throw new Error(`usage: node api.js <tasks (an integer ≥ 100)> [scenario ...]; got "${size}"`);
  const unknown = names.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((scenario) => scenario.name).join(', ')}`);
  const summary = await runApiBench(tasks, names);
  const file = process.env.BENCH_SUMMARY_FILE;
  if (file) fs.appendFileSync(file, `${JSON.stringify(summary)}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
