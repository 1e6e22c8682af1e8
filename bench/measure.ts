/**
 * The API benchmark's harness: loads services over HTTP with the load generator in alternating rounds and
 * sums up each one's requests/s, latency, CPU time per request and store round trips per request.
 */
import type autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import type { RoundTripCounter } from '../src/store/counting.js';
import { generateLoad, median, type LoadResult } from './load-generator.js';

export interface Service {
  label: string;
  url: string;
  /** The scenario's requests as this service's API phrases them; by default the bodies every service is given. */
  bodies?: unknown[];
  /**
   * CPU time so far, in µs, of each process that serves it (read before and after each run); by default
   * this process's, where the in-process services run.
   */
  cpuClock?: CpuClock;
}

export type CpuClock = () => Record<string, number>;

/** This process's CPU time: the services it runs itself (the load generator is another process). */
export const thisProcessCpuClock: CpuClock = () => {
  const { user, system } = process.cpuUsage();
  return { 'this process': user + system };
};

/** One timed run of the load generator against one service. */
export interface Run extends LoadResult {
  /** CPU time of the service's processes (by default this process) until the run's requests were all answered. */
  cpuMicros: number;
  /** The same, per process of the service (the names its `cpuClock` gives). */
  cpuMicrosByProcess?: Record<string, number>;
}

export interface Measurement {
  /** Completed requests over the runs' total time. */
  requestsPerSecond: number;
  /** Medians over the runs. */
  p50: number;
  p99: number;
  /** CPU time per request sent: what one request costs the service, whatever else the machine is doing. */
  cpuMsPerRequest: number;
  /** Store round trips of one request sent alone. */
  roundTrips: number;
  failures: number;
  runs: Run[];
}

export interface LoadSettings {
  warmUpSeconds: number;
  /** Measured seconds per service, split over the rounds. */
  seconds: number;
  rounds: number;
  connections: number;
}

export async function post(url: string, body: unknown): Promise<{ data?: unknown; errors?: unknown }> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as { data?: unknown; errors?: unknown };
}

/** Waits until no request is left over from a load run (autocannon stops sending, the service keeps working). */
export async function settle(counter: RoundTripCounter): Promise<void> {
  for (;;) {
    counter.reset();
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (counter.count === 0) return;
  }
}

/** One request alone, to count its store round trips exactly and to time it. */
async function probe(url: string, counter: RoundTripCounter, body: unknown): Promise<{ roundTrips: number; seconds: number }> {
  await settle(counter);
  const started = performance.now();
  const answer = await post(url, body);
  const seconds = (performance.now() - started) / 1000;
  const roundTrips = counter.count;
  if (answer.errors) throw new Error(`${url}: the request failed: ${JSON.stringify(answer)}`);
  return { roundTrips, seconds };
}

/** A run lasts at least this many times the slowest service's request sent alone, so that it completes a few. */
const MIN_REQUESTS_PER_RUN = 5;

/**
 * Seconds of each run: the measured time split over the rounds, or longer where one request takes so long
 * that a run would complete none or one (seconds each at a million objects), in whole seconds as autocannon counts.
 */
export function runSeconds(settings: LoadSettings, slowestRequestSeconds: number): number {
  const planned = settings.seconds / settings.rounds;
  const needed = MIN_REQUESTS_PER_RUN * slowestRequestSeconds;
  return needed > planned ? Math.ceil(needed) : planned;
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

/** The CPU time each process spent between two readings of a clock. */
export function cpuSpent(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, micros]) => [name, micros - (before[name] ?? 0)]));
}

/** Loads one service for `seconds`, then waits until every request sent has been answered. */
async function run(service: Service, counter: RoundTripCounter, bodies: unknown[], seconds: number, connections: number): Promise<Run> {
  const clock = service.cpuClock ?? thisProcessCpuClock;
  const cpuBefore = clock();
  const load = await generateLoad(loadOptions(service.url, service.bodies ?? bodies, seconds, connections));
  await settle(counter);
  const byProcess = cpuSpent(cpuBefore, clock());
  return { ...load, cpuMicros: Object.values(byProcess).reduce((sum, micros) => sum + micros, 0), cpuMicrosByProcess: byProcess };
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
 * Measures every service in `rounds` runs of `seconds / rounds` each (after a warm-up of each), the order
 * rotating from round to round (starting at `firstIndex`), so that a change in machine load falls on all
 * alike. Measurements come back in the order of `services`.
 */
export async function measureAlternating(
  services: readonly Service[],
  counter: RoundTripCounter,
  bodies: unknown[],
  settings: LoadSettings,
  firstIndex: number,
): Promise<{ measurements: Measurement[]; runSeconds: number }> {
  const probes: Array<{ roundTrips: number; seconds: number }> = [];
  for (const service of services) probes.push(await probe(service.url, counter, (service.bodies ?? bodies)[0]));
  const seconds = runSeconds(settings, Math.max(...probes.map((one) => one.seconds)));
  for (const service of services) {
    await generateLoad(loadOptions(service.url, service.bodies ?? bodies, settings.warmUpSeconds, settings.connections));
    await settle(counter);
  }
  const runs: Run[][] = services.map(() => []);
  for (let round = 0; round < settings.rounds; round++) {
    for (let turn = 0; turn < services.length; turn++) {
      const index = (firstIndex + round + turn) % services.length;
      runs[index]!.push(await run(services[index]!, counter, bodies, seconds, settings.connections));
    }
  }
  return { measurements: runs.map((serviceRuns, index) => summarize(serviceRuns, probes[index]!.roundTrips)), runSeconds: seconds };
}

/**
 * How many times `slower`'s requests/s go into `faster`'s: the median over the rounds of their ratio, or
 * the ratio of the totals when a run of either completed no request (a round's ratio means nothing then).
 */
export function slowdown(slower: Measurement, faster: Measurement): number {
  const rate = (one: Run) => one.requests / one.seconds;
  const rounds = Math.min(slower.runs.length, faster.runs.length);
  const everyRunCompleted = [...slower.runs, ...faster.runs].every((one) => one.requests > 0);
  if (rounds === 0 || !everyRunCompleted) return faster.requestsPerSecond / slower.requestsPerSecond;
  return median(slower.runs.slice(0, rounds).map((run, round) => rate(faster.runs[round]!) / rate(run)));
}

/** How long a restarted service may take to answer its first query before a benchmark gives up. */
const RESTART_LIMIT_MS = 300_000;

/** Posts `body` until it answers with data: a restarted service is up once its first query is answered. */
export async function firstAnswer(url: string, body: unknown): Promise<void> {
  const deadline = performance.now() + RESTART_LIMIT_MS;
  for (;;) {
    const answer = await post(url, body).catch(() => undefined);
    if (answer?.data && !answer.errors) return;
    if (performance.now() > deadline) throw new Error(`the restarted service did not answer within ${RESTART_LIMIT_MS} ms: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
