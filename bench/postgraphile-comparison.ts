/**
 * Autograph next to PostGraphile 4 on PostgreSQL 15 with ordinary indexes (issue 17: what a user would pick
 * instead) and the in-memory graphql-js baseline, on the same data, scenario by scenario, in alternating
 * rounds (bench/measure.ts). On demand only: it needs PostgreSQL and `npm --prefix bench/postgraphile ci`.
 *
 * Run by bench/run.ts as `node --expose-gc postgraphile-comparison.js <tasks> [scenario ...]`, one process
 * per size. It creates a PostgreSQL cluster of its own in a temporary folder (bench/postgres-cluster.ts),
 * loads the bench data into it (bench/postgres-load.ts) and into Autograph's embedded store and the
 * in-memory tables, starts PostGraphile as a process of its own (bench/postgraphile-service.ts), checks
 * that PostGraphile answers each scenario as Autograph does (bench/postgraphile-requests.ts), measures,
 * and removes the cluster at the end.
 *
 * CPU per request: Autograph and the in-memory baseline run in this process (its CPU time); PostGraphile's
 * is its Node process plus every PostgreSQL server process (postmaster, backends, background writers), read
 * from /proc. BENCH_PG_POOL sets PostGraphile's pool (default: 2 connections per CPU).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RoundTripCounter } from '../src/store/counting.js';
import { BENCH_SCHEMA, benchUsers, fillInMemoryTables, loadData, USERS, type LoadedData } from './api-data.js';
import { startAutograph } from './autograph-service.js';
import { startInMemoryBaseline } from './in-memory-baseline.js';
import { measureAlternating, post, slowdown, type Measurement, type Service } from './measure.js';
import { postgraphileFolder, startPostGraphile } from './postgraphile-service.js';
import { asAutographAnswer, createTaskFieldsTranslation, NOT_TRANSLATED, POSTGRAPHILE_TRANSLATIONS, type PostGraphileTranslation } from './postgraphile-requests.js';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';
import { loadPostgres } from './postgres-load.js';
import { canReadProcessCpu, processTreesCpuMicros } from './process-cpu.js';
import { isWrite, SCENARIOS, type RequestBody, type Scenario } from './scenarios.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
/** Connections of `heavy` scenarios, as in bench/api.ts. */
const HEAVY_CONNECTIONS = Math.min(2, CONNECTIONS);
const POOL_SIZE = Number(process.env.BENCH_PG_POOL ?? 2 * os.cpus().length);

const seconds = (from: number): number => (performance.now() - from) / 1000;

interface Compared {
  scenario: Scenario;
  autograph: Measurement;
  inMemory: Measurement;
  postgraphile: Measurement;
  /** Autograph ÷ PostGraphile and Autograph ÷ in-memory: medians over the rounds of the other's req/s over Autograph's. */
  versusPostGraphile: number;
  versusInMemory: number;
  /** Other ways of asking PostGraphile the same (addTask through 100 `createTask` fields). */
  variants: Array<{ label: string; measurement: Measurement; versus: number }>;
}

/** A scenario asked of PostGraphile another way, measured beside the main translation. */
interface Variant {
  label: string;
  translation: PostGraphileTranslation;
}

/** addTask through PostGraphile's generated `createTask`, one field per task, users by id. */
const variantsOf = (scenario: Scenario): Variant[] =>
  scenario.name === 'addTask'
    ? [{ label: 'PostGraphile, 100 × createTask', translation: createTaskFieldsTranslation(new Map(benchUsers().map((user) => [user.username, user._id]))) }]
    : [];

/** "2.3x slower", or "1.4x faster" below 1. */
const slowerOrFaster = (ratio: number): string => {
  if (!Number.isFinite(ratio) || ratio === 0) return 'not comparable (a service completed no request)';
  return ratio >= 1 ? `${ratio.toFixed(2)}x slower` : `${(1 / ratio).toFixed(2)}x faster`;
};

const ms = (value: number): string => value.toFixed(value < 10 ? 2 : 0);

/** CPU time per request sent, per process of the service, summed over its runs. */
function cpuByProcess(measurement: Measurement): Record<string, number> {
  const sent = Math.max(1, measurement.runs.reduce((sum, run) => sum + run.sent, 0));
  const micros: Record<string, number> = {};
  for (const run of measurement.runs) {
    for (const [name, value] of Object.entries(run.cpuMicrosByProcess ?? {})) micros[name] = (micros[name] ?? 0) + value;
  }
  return Object.fromEntries(Object.entries(micros).map(([name, value]) => [name, value / 1000 / sent]));
}

function cpuText(measurement: Measurement, counted: boolean): string {
  if (!counted) return 'CPU not counted (no /proc)';
  const parts = Object.entries(cpuByProcess(measurement));
  const detail = parts.length > 1 ? ` (${parts.map(([name, value]) => `${name} ${ms(value)}`).join(' + ')})` : '';
  return `CPU ${ms(measurement.cpuMsPerRequest).padStart(6)} ms/request${detail}`;
}

const row = (label: string, m: Measurement, cpuCounted = true): string =>
  `  ${label.padEnd(28)} ${m.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(m.p50).padStart(5)} ms   p99 ${String(m.p99).padStart(5)} ms   ` +
  `${cpuText(m, cpuCounted)}   (req/s per run: ${m.runs.map((one) => (one.requests / one.seconds).toFixed(0)).join(', ')})` +
  (m.failures > 0 ? `   ${m.failures} failed requests!` : '');

/**
 * Autograph, the in-memory baseline and PostGraphile (each translation, its answer translated back) must
 * give the same JSON for each of the scenario's bodies; for a write, Autograph and PostGraphile for its
 * first body (the answer is a count).
 */
async function checkSameAnswers(scenario: Scenario, translations: readonly Variant[], bodies: RequestBody[], services: { autograph: string; inMemory: string; postgraphile: string }): Promise<void> {
  const checked = scenario.compareAnswers ? bodies : bodies.slice(0, 1);
  for (const body of checked) {
    const answers: Array<[string, unknown]> = [['Autograph', await post(services.autograph, body)]];
    for (const { label, translation } of translations) {
      answers.push([`${label} (translated)`, asAutographAnswer(translation, await post(services.postgraphile, translation.request(body)))]);
    }
    if (scenario.compareAnswers) answers.push(['in-memory graphql-js', await post(services.inMemory, body)]);
    const texts = answers.map(([, answer]) => JSON.stringify(answer));
    if (texts.some((text) => text !== texts[0])) {
      throw new Error(
        `${scenario.name}: the services answer ${JSON.stringify(body).slice(0, 300)} differently:\n` +
          answers.map(([label], index) => ` ${label}: ${texts[index]!.slice(0, 600)}`).join('\n'),
      );
    }
  }
}

async function runScenario(
  scenario: Scenario,
  data: LoadedData,
  urls: { autograph: string; inMemory: string; postgraphile: string },
  postgraphileCpu: Service['cpuClock'],
  counter: RoundTripCounter,
  firstIndex: number,
): Promise<Compared> {
  const main: Variant = { label: 'PostGraphile + PostgreSQL', translation: POSTGRAPHILE_TRANSLATIONS[scenario.name]! };
  const variants = variantsOf(scenario);
  const bodies = scenario.bodies(data);
  await checkSameAnswers(scenario, [main, ...variants], bodies, urls);
  const postgraphileService = ({ label, translation }: Variant): Service => ({
    label,
    url: urls.postgraphile,
    bodies: bodies.map((body) => translation.request(body)),
    cpuClock: postgraphileCpu,
  });
  const services: Service[] = [
    { label: 'Autograph', url: urls.autograph },
    { label: isWrite(scenario) ? 'in-memory (no durability)' : 'in-memory graphql-js', url: urls.inMemory },
    postgraphileService(main),
    ...variants.map(postgraphileService),
  ];
  const connections = scenario.heavy ? HEAVY_CONNECTIONS : CONNECTIONS;
  const measured = await measureAlternating(services, counter, bodies, { warmUpSeconds: WARM_UP_SECONDS, seconds: SECONDS, rounds: ROUNDS, connections }, firstIndex);
  const [autograph, inMemory, postgraphile, ...others] = measured.measurements as [Measurement, Measurement, Measurement, ...Measurement[]];
  const compared: Compared = {
    scenario,
    autograph,
    inMemory,
    postgraphile,
    versusPostGraphile: slowdown(autograph, postgraphile),
    versusInMemory: slowdown(autograph, inMemory),
    variants: others.map((measurement, index) => ({ label: variants[index]!.label, measurement, versus: slowdown(autograph, measurement) })),
  };
  const longer = measured.runSeconds > SECONDS / ROUNDS ? `; runs of ${measured.runSeconds} s, as one request takes long` : '';
  console.log(`\n${scenario.name}: ${scenario.description} (${connections} connections${longer})`);
  console.log(row(services[0]!.label, autograph));
  console.log(row(services[1]!.label, inMemory));
  console.log(row(services[2]!.label, postgraphile, canReadProcessCpu));
  for (const variant of compared.variants) console.log(row(variant.label, variant.measurement, canReadProcessCpu));
  const cpuRatio = canReadProcessCpu ? `; CPU per request Autograph ÷ PostGraphile + PostgreSQL ${(autograph.cpuMsPerRequest / postgraphile.cpuMsPerRequest).toFixed(2)}x` : '';
  console.log(`  Autograph ÷ PostGraphile: ${slowerOrFaster(compared.versusPostGraphile)}${cpuRatio}`);
  for (const variant of compared.variants) console.log(`  Autograph ÷ ${variant.label}: ${slowerOrFaster(variant.versus)}`);
  console.log(`  Autograph ÷ in-memory: ${slowerOrFaster(compared.versusInMemory)}`);
  return compared;
}

/** The closing table: one row per scenario. */
function printTable(results: readonly Compared[]): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rate = (m: Measurement) => `${m.requestsPerSecond.toFixed(0)} (p50 ${m.p50} ms, p99 ${m.p99} ms)`;
  console.log('\nAutograph ÷ PostGraphile: the median over the rounds of PostGraphile\'s requests/s over Autograph\'s (below 1: Autograph faster)\n');
  console.log(line(['scenario', 'Autograph req/s', 'PostGraphile req/s', 'in-memory req/s', 'Autograph ÷ PostGraphile', 'CPU ms/request: Autograph, PostGraphile + PostgreSQL']));
  console.log(line(['---', '---', '---', '---', '---', '---']));
  for (const result of results) {
    const cpu = canReadProcessCpu
      ? `${ms(result.autograph.cpuMsPerRequest)}, ${Object.values(cpuByProcess(result.postgraphile)).map(ms).join(' + ')}`
      : `${ms(result.autograph.cpuMsPerRequest)}, not counted`;
    console.log(line([result.scenario.name, rate(result.autograph), rate(result.postgraphile), rate(result.inMemory), `${result.versusPostGraphile.toFixed(2)}x`, cpu]));
    for (const variant of result.variants) {
      const variantCpu = canReadProcessCpu ? `${ms(result.autograph.cpuMsPerRequest)}, ${Object.values(cpuByProcess(variant.measurement)).map(ms).join(' + ')}` : 'not counted';
      console.log(line([`${result.scenario.name} (${variant.label})`, rate(result.autograph), rate(variant.measurement), rate(result.inMemory), `${variant.versus.toFixed(2)}x`, variantCpu]));
    }
  }
  const write = results.find((result) => result.scenario.name === 'addTask');
  if (write) {
    const met = write.versusPostGraphile <= 1 ? 'met' : 'MISSED';
    console.log(`\nissue 17, adding 100 objects per mutation at least as fast as PostGraphile (add_tasks): ${met} (Autograph ${slowerOrFaster(write.versusPostGraphile)})`);
  }
}

/** Stops what this process started if it is interrupted, so that no PostgreSQL server outlives the bench. */
function cleanUpOnSignal(cleanUps: Array<() => void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const cleanUp of cleanUps.reverse()) cleanUp();
      process.exit(128 + os.constants.signals[signal]);
    });
  }
}

interface Facts {
  tasks: number;
  postgresLoadSeconds: number;
  databaseSize: string;
  autographLoadSeconds: number;
  cluster: PostgresCluster;
}

function printFacts(facts: Facts): void {
  console.log(`${facts.tasks.toLocaleString('en')} Tasks over ${USERS.toLocaleString('en')} Users; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`  ${facts.cluster.version}, its server run as the OS user "${facts.cluster.osUser}"; PostGraphile's pool: ${POOL_SIZE} connections over the unix socket`);
  console.log(
    `  load: PostgreSQL (COPY, then indexes and VACUUM ANALYZE) ${facts.postgresLoadSeconds.toFixed(1)} s, database ${facts.databaseSize}; ` +
      `Autograph through the Store port ${facts.autographLoadSeconds.toFixed(1)} s`,
  );
  console.log(`  ${CONNECTIONS} connections (${HEAVY_CONNECTIONS} for the heavy scenarios), ${WARM_UP_SECONDS} s warm-up + ${SECONDS} s per service and scenario in ${ROUNDS} rotating rounds`);
  if (!canReadProcessCpu) console.log("  no /proc here: PostGraphile's and PostgreSQL's CPU time are not counted");
}

export async function runPostGraphileComparison(tasks: number, names: readonly string[]): Promise<Compared[]> {
  const chosen = SCENARIOS.filter((scenario) => names.length === 0 || names.includes(scenario.name));
  for (const scenario of chosen.filter((one) => !(one.name in POSTGRAPHILE_TRANSLATIONS))) {
    console.log(`${scenario.name}: not compared with PostGraphile: ${NOT_TRANSLATED[scenario.name] ?? 'no PostGraphile request for it'}`);
  }
  const compared = chosen.filter((scenario) => scenario.name in POSTGRAPHILE_TRANSLATIONS);
  const folder = postgraphileFolder();
  const storeFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-postgraphile-'));
  const running: Array<{ close(): Promise<void> }> = [];
  const cleanUps: Array<() => void> = [() => fs.rmSync(storeFolder, { recursive: true, force: true })];
  cleanUpOnSignal(cleanUps);
  let cluster: PostgresCluster | undefined;
  try {
    cluster = await startPostgresCluster('bench');
    cleanUps.push(cluster.stop);
    const postgresStarted = performance.now();
    await loadPostgres(cluster, folder, tasks);
    const postgresLoadSeconds = seconds(postgresStarted);
    const databaseSize = (await cluster.psql(['-A', '-t', '-c', "select pg_size_pretty(pg_database_size('bench'))"])).trim();
    const postgraphile = await startPostGraphile(cluster.env, POOL_SIZE);
    running.push(postgraphile);
    cleanUps.push(() => {
      try {
        process.kill(postgraphile.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    });

    const autograph = await startAutograph(storeFolder, BENCH_SCHEMA);
    running.push(autograph);
    const autographStarted = performance.now();
    const data = await loadData(autograph.store, tasks);
    const autographLoadSeconds = seconds(autographStarted);
    const inMemory = await startInMemoryBaseline(fillInMemoryTables(tasks));
    running.push(inMemory);
    printFacts({ tasks, postgresLoadSeconds, databaseSize, autographLoadSeconds, cluster });

    const roots = { PostGraphile: postgraphile.pid, PostgreSQL: cluster.postmasterPid };
    const postgraphileCpu = canReadProcessCpu ? () => processTreesCpuMicros(roots) : () => ({});
    const urls = { autograph: autograph.url, inMemory: inMemory.url, postgraphile: postgraphile.url };
    const results: Compared[] = [];
    for (const [index, scenario] of compared.entries()) results.push(await runScenario(scenario, data, urls, postgraphileCpu, autograph.counter, index));
    printTable(results);
    console.log(`\nload average at the end (1, 5, 15 min): ${os.loadavg().map((value) => value.toFixed(1)).join(', ')}`);
    return results;
  } finally {
    for (const service of running.reverse()) await service.close();
    cluster?.stop();
    fs.rmSync(storeFolder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [size, ...names] = process.argv.slice(2);
  const tasks = Number(size);
  if (!Number.isInteger(tasks) || tasks < 100) throw new Error(`usage: node postgraphile-comparison.js <tasks (an integer ≥ 100)> [scenario ...]; got "${size}"`);
  const unknown = names.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((scenario) => scenario.name).join(', ')}`);
  await runPostGraphileComparison(tasks, names);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
