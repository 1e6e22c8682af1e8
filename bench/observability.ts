/**
 * The cost of observability on the getTask scenario (issue 16: metrics and tracing on may cost at most 5%
 * of the requests/s). The same service runs as one process per variant (bench/observability-variant.ts):
 * - off: `--metrics=false` and no OpenTelemetry SDK;
 * - metrics: Prometheus metrics only;
 * - default: metrics, and traces exported as the CLI exports them with no sampler set (OTEL_TRACES_SAMPLER unset:
 *   parent-based, 1% of the traces no caller decided for, Dgraph's default), which issue 16's 5% is about;
 * - on: metrics, and traces exported as the CLI exports them (`OTEL_EXPORTER_OTLP_ENDPOINT`: LeanTracerProvider,
 *   spans encoded as they end and batched, OTLP/HTTP exporter, protobuf) to a collector stand-in in this
 *   process, every trace sampled;
 * - sampled: the same with `OTEL_TRACES_SAMPLER=parentbased_traceidratio` at `BENCH_SAMPLE_RATIO`;
 * - logged: "on" plus the request log line at `info` (written synchronously to /dev/null);
 * - off-again, unsampled and json (only when named in BENCH_VARIANTS): a second "off" (how far two equal
 *   processes differ), tracing registered with `always_off` (its fixed cost), and "on" exporting OTLP/JSON
 *   (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`, through the SDK's batch span processor).
 *
 * The variants are loaded one at a time (by the load generator process), in an order that rotates round by
 * round, so drift on a shared machine hits all alike. The primary figure is CPU time per request of the
 * variant's process (`process.cpuUsage`, read before and after each run, after the run's spans were
 * exported), which the other jobs of a loaded machine disturb far less than requests/s. A variant's
 * overhead is taken round by round against the same round's "off", and printed as the median with the
 * spread over the rounds. Then a CPU profile of "on" during a run of its own says which part of observability
 * the time goes to, and each process times observability's own work on synthetic requests.
 * No assertions.
 * Run after `npm run build`: node dist/bench/observability.js   (BENCH_SECONDS=2 per run, BENCH_ROUNDS=10,
 * BENCH_CONNECTIONS=10, BENCH_WARMUP_SECONDS=2, BENCH_TASKS=10000, BENCH_SAMPLE_RATIO=0.1,
 * BENCH_VARIANTS=off,metrics,default,sampled,on,logged, BENCH_PER_ROUND=1;
 * BENCH_FRESH=1 with BENCH_STEADY_AFTER_SECONDS=20)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { generateLoad, median, type LoadResult } from './load-generator.js';
import { serveVariant, type VariantReady, type VariantSettings } from './observability-variant.js';
import { startOtlpCollector, type OtlpCollector } from './otlp-collector.js';
import type { PartShares } from './observability-profile.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const TASKS = Number(process.env.BENCH_TASKS ?? 10_000);
/**
 * With BENCH_FRESH: each process also measures a run once it has served this many seconds of load (0: not).
 * At the default 1% sampling the recording code runs for one request in a hundred, so V8 compiles it late:
 * the first seconds of a process cost more than its steady state, and both are printed.
 */
const STEADY_AFTER_SECONDS = Number(process.env.BENCH_STEADY_AFTER_SECONDS ?? 20);
/** BENCH_PER_ROUND=1 also prints each round's overhead, in the order the rounds ran. */
const PER_ROUND = process.env.BENCH_PER_ROUND === '1';
/** The share of traces the "sampled" variant records. */
const SAMPLE_RATIO = Number(process.env.BENCH_SAMPLE_RATIO ?? 0.1);
/** The variant whose CPU time is broken down by a profile after the rounds. */
const PROFILED_VARIANT = 'on';
/** Issue 16: metrics and tracing on may cost at most this share of the requests/s. */
const TARGET_LOSS = 0.05;

interface Variant {
  name: string;
  label: string;
  settings: Omit<VariantSettings, 'tasks'>;
  /** Sampler settings, for a variant that exports traces. */
  tracing?: Record<string, string>;
}

const ALL_VARIANTS: Variant[] = [
  { name: 'off', label: 'metrics and tracing off', settings: { metrics: false, requestLog: false } },
  { name: 'metrics', label: 'metrics only', settings: { metrics: true, requestLog: false } },
  // As shipped: OTLP export configured, OTEL_TRACES_SAMPLER unset (Dgraph's default, 1% of the traces).
  { name: 'default', label: 'metrics + tracing, default (1%)', settings: { metrics: true, requestLog: false }, tracing: {} },
  { name: 'on', label: 'metrics + tracing, all sampled', settings: { metrics: true, requestLog: false }, tracing: { OTEL_TRACES_SAMPLER: 'always_on' } },
  {
    name: 'sampled',
    label: `metrics + tracing, ${SAMPLE_RATIO} sampled`,
    settings: { metrics: true, requestLog: false },
    tracing: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(SAMPLE_RATIO) },
  },
  { name: 'logged', label: 'metrics + tracing + info log', settings: { metrics: true, requestLog: true }, tracing: { OTEL_TRACES_SAMPLER: 'always_on' } },
  // An A/A check: a second process identical to "off", to see how far two equal processes differ.
  { name: 'off-again', label: 'off, a second process', settings: { metrics: false, requestLog: false } },
  {
    name: 'unsampled',
    label: 'metrics + SDK sampling nothing',
    settings: { metrics: true, requestLog: false },
    tracing: { OTEL_TRACES_SAMPLER: 'always_off' },
  },
  {
    name: 'json',
    label: 'metrics + tracing, OTLP/JSON',
    settings: { metrics: true, requestLog: false },
    tracing: { OTEL_TRACES_SAMPLER: 'always_on', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  },
];
/** The variants run unless BENCH_VARIANTS names others. */
const DEFAULT_VARIANTS = 'off,metrics,default,sampled,on,logged';

function chosenVariants(): Variant[] {
  const names = (process.env.BENCH_VARIANTS ?? DEFAULT_VARIANTS).split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !ALL_VARIANTS.some((variant) => variant.name === name));
  if (unknown.length > 0) throw new Error(`BENCH_VARIANTS: unknown variant ${unknown.join(', ')} (known: ${ALL_VARIANTS.map((v) => v.name).join(', ')})`);
  if (names[0] !== 'off') throw new Error('BENCH_VARIANTS must start with "off", the variant the others are measured against');
  return ALL_VARIANTS.filter((variant) => names.includes(variant.name));
}

interface Run extends LoadResult {
  /** CPU time the variant's process spent per answered request, in µs. */
  cpuMicrosPerRequest: number;
  /**
   * The user-mode part of it. Observability's work is nearly all user-mode; the kernel's part (mostly
   * writing responses) swings with how many answers a socket write carries, which a loaded machine varies.
   */
  userMicrosPerRequest: number;
}

interface CpuReading {
  cpuMicros: number;
  userMicros: number;
}

interface RunningVariant {
  variant: Variant;
  ready: VariantReady;
  child: ChildProcess;
  lines: AsyncIterator<string>;
  runs: Run[];
  /** Every request it answered, warm-up included. */
  answered: number;
}

async function ask<T>(running: RunningVariant, question: string): Promise<T> {
  running.child.stdin!.write(`${question}\n`);
  const answer = await running.lines.next();
  if (answer.done) throw new Error(`the "${running.variant.name}" service stopped`);
  return JSON.parse(answer.value) as T;
}

/** One run: the load, and the CPU time the service spent on it (its spans' export included). */
async function measure(running: RunningVariant, seconds: number): Promise<Run> {
  const before = await ask<CpuReading>(running, 'cpu');
  const load = await generateLoad({
    url: `${running.ready.url}/graphql`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: running.ready.bodies.map((body) => ({ method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })),
  });
  const after = await ask<CpuReading>(running, 'cpu');
  running.answered += load.requests;
  const requests = Math.max(1, load.requests);
  return { ...load, cpuMicrosPerRequest: (after.cpuMicros - before.cpuMicros) / requests, userMicrosPerRequest: (after.userMicros - before.userMicros) / requests };
}

async function startVariant(variant: Variant, collector: OtlpCollector): Promise<RunningVariant> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  if (variant.tracing) Object.assign(env, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpointFor(variant.name), ...variant.tracing });
  const child = spawn(process.execPath, [__filename, 'serve', JSON.stringify({ ...variant.settings, tasks: TASKS })], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error(`the "${variant.name}" service stopped before serving`);
  return { variant, ready: JSON.parse(first.value) as VariantReady, child, lines, runs: [], answered: 0 };
}

async function sameAnswers(variants: RunningVariant[]): Promise<void> {
  const answers = await Promise.all(variants.map(async (running) => {
    const response = await fetch(`${running.ready.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(running.ready.bodies[0]) });
    running.answered += 1;
    return JSON.stringify(await response.json());
  }));
  if (new Set(answers).size !== 1 || answers[0]!.includes('"errors"')) throw new Error(`the variants answer differently: ${answers.join(' | ')}`);
}

/** The value below which a share `q` of `values` lies (linear between neighbours). */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (at - low);
}

/** "median [p25 … p75] (min … max)" of per-round percentages. */
function spreadOf(percentages: number[]): string {
  const f = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
  return `${f(median(percentages))}% [${f(quantile(percentages, 0.25))} … ${f(quantile(percentages, 0.75))}] (${f(Math.min(...percentages))} … ${f(Math.max(...percentages))})`;
}

const rate = (run: LoadResult) => run.requests / run.seconds;

function report(variants: RunningVariant[], spansReceived: Array<{ spans: number; requests: number }> | undefined, instrumentCosts: number[][] | undefined): void {
  const off = variants[0]!;
  const offCpu = median(off.runs.map((run) => run.cpuMicrosPerRequest));
  console.log(`\ngetTask at ${TASKS.toLocaleString('en')} tasks, ${CONNECTIONS} connections, one variant at a time in rotating order, ${ROUNDS} rounds of ${SECONDS} s.`);
  console.log(`Machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((load) => load.toFixed(2)).join(' ')} at the end.`);
  console.log('Overheads are taken round by round against the same round\'s "off": median [middle half] (min … max) over the rounds.\n');
  console.log(`  ${'variant'.padEnd(32)} ${'CPU µs/req'.padStart(10)}  ${'CPU overhead'.padEnd(38)} ${'req/s'.padStart(6)}  req/s change`);
  for (const running of variants) {
    const cpu = median(running.runs.map((run) => run.cpuMicrosPerRequest));
    const cpuOverheads = running.runs.map((run, round) => (run.cpuMicrosPerRequest / off.runs[round]!.cpuMicrosPerRequest - 1) * 100);
    const rateChanges = running.runs.map((run, round) => (rate(run) / rate(off.runs[round]!) - 1) * 100);
    const failures = running.runs.reduce((sum, run) => sum + run.failures, 0);
    console.log(
      `  ${running.variant.label.padEnd(32)} ${cpu.toFixed(1).padStart(10)}  ${(running === off ? '' : spreadOf(cpuOverheads)).padEnd(38)} ` +
        `${median(running.runs.map(rate)).toFixed(0).padStart(6)}  ${running === off ? '' : spreadOf(rateChanges)}${failures > 0 ? `   ${failures} failed requests!` : ''}`,
    );
  }
  if (PER_ROUND) {
    console.log('\n  CPU overhead round by round, in the order the rounds ran (a cost that falls round by round is the JIT still warming up):');
    for (const running of variants.slice(1)) {
      const overheads = running.runs.map((run, round) => (run.cpuMicrosPerRequest / off.runs[round]!.cpuMicrosPerRequest - 1) * 100);
      console.log(`    ${running.variant.label.padEnd(32)} ${overheads.map((value) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`).join(' ')}`);
    }
  }
  console.log('\n  Issue 16 target: ≤ 5% fewer req/s. On a saturated single-threaded service req/s go as 1 ÷ CPU per request, so');
  console.log('  the loss the CPU overhead c implies is 1 − 1/(1 + c); the same for the middle half of the rounds:');
  for (const running of variants.slice(1)) {
    const losses = running.runs.map((run, round) => (1 - off.runs[round]!.cpuMicrosPerRequest / run.cpuMicrosPerRequest) * 100);
    const loss = median(losses);
    const verdict = quantile(losses, 0.75) <= TARGET_LOSS * 100 ? 'met' : loss <= TARGET_LOSS * 100 ? 'met by the median, not by the whole middle half' : 'MISSED';
    console.log(`    ${running.variant.label.padEnd(32)} ${loss.toFixed(1)}% [${quantile(losses, 0.25).toFixed(1)} … ${quantile(losses, 0.75).toFixed(1)}] → ${verdict}`);
  }
  console.log('\n  User-mode CPU only (observability\'s work is user-mode; the kernel\'s share, mostly response writes, varies with the load): µs per request, and overhead against the same round\'s "off":');
  for (const running of variants) {
    const user = median(running.runs.map((run) => run.userMicrosPerRequest));
    const overheads = running.runs.map((run, round) => (run.userMicrosPerRequest / off.runs[round]!.userMicrosPerRequest - 1) * 100);
    console.log(`    ${running.variant.label.padEnd(32)} ${user.toFixed(1).padStart(7)}  ${running === off ? '' : spreadOf(overheads)}`);
  }
  if (!spansReceived) return;
  console.log('\n  Spans the collector stand-in received (OTLP/HTTP), per request answered (3 per getTask: the request and two store calls):');
  variants.forEach((running, i) => {
    if (!running.variant.tracing) return;
    const { spans, requests } = spansReceived[i]!;
    console.log(`    ${running.variant.label.padEnd(32)} ${spans.toLocaleString('en')} spans for ${requests.toLocaleString('en')} requests = ${(spans / requests).toFixed(3)}`);
  });
  if (!instrumentCosts) return;
  console.log(`\n  Observability's own CPU time per request (synthetic requests in each process, instrumented minus bare, in alternated blocks): median [middle half], and as a share of the ${offCpu.toFixed(0)} µs "off" spends per getTask request:`);
  variants.forEach((running, i) => {
    const micros = instrumentCosts[i]!;
    const f = (value: number) => value.toFixed(1);
    console.log(
      `    ${running.variant.label.padEnd(32)} ${f(median(micros)).padStart(5)} µs [${f(quantile(micros, 0.25))} … ${f(quantile(micros, 0.75))}]` +
        ` = ${((median(micros) / offCpu) * 100).toFixed(1)}%`,
    );
  });
}

/** Each part's share of the profiled variant's CPU time, and the µs per request that makes of its median CPU time. */
function reportProfile(profiled: RunningVariant, shares: PartShares): void {
  const cpu = median(profiled.runs.map((run) => run.cpuMicrosPerRequest));
  console.log(`\n  Where "${profiled.variant.label}" spends its CPU (a profile of a separate ${SECONDS * 2} s run; each part's share × its ${cpu.toFixed(0)} µs per request):`);
  for (const [part, share] of Object.entries(shares)) {
    console.log(`    ${part.padEnd(54)} ${(share * 100).toFixed(1).padStart(5)}%  ${(share * cpu).toFixed(1).padStart(6)} µs`);
  }
}

/**
 * BENCH_FRESH=1: every round starts each variant in a new process (warmed up, measured, stopped), so
 * what differs between two processes of the same code (code placement, what the JIT happened to optimize)
 * becomes round-to-round spread instead of a bias that stays with one variant for the whole run. Each
 * process is measured twice: in its first seconds (after BENCH_WARMUP_SECONDS of load) and in steady state
 * (after BENCH_STEADY_AFTER_SECONDS). Slower, and without the profile and the synthetic requests.
 */
async function mainFresh(collector: OtlpCollector): Promise<void> {
  const chosen = chosenVariants();
  const runsByVariant = chosen.map(() => [] as Run[]);
  const steadyRunsByVariant = chosen.map(() => [] as Run[]);
  const answeredByVariant = chosen.map(() => 0);
  let last: RunningVariant[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    last = [];
    for (let turn = 0; turn < chosen.length; turn += 1) {
      const index = (round + turn) % chosen.length;
      const running = await startVariant(chosen[index]!, collector);
      try {
        if (round === 0 && turn === 0) await sameAnswers([running]);
        await measure(running, WARM_UP_SECONDS);
        runsByVariant[index]!.push(await measure(running, SECONDS));
        if (STEADY_AFTER_SECONDS > 0) {
          await measure(running, Math.max(0, STEADY_AFTER_SECONDS - WARM_UP_SECONDS - SECONDS));
          steadyRunsByVariant[index]!.push(await measure(running, SECONDS));
        }
        answeredByVariant[index]! += running.answered;
      } finally {
        running.child.stdin!.end();
        await new Promise((done) => running.child.once('close', done));
      }
      last[index] = running;
    }
  }
  const variants = last.map((running, index) => ({ ...running, runs: runsByVariant[index]!, answered: answeredByVariant[index]! }));
  const spans = variants.map((running) => ({ spans: collector.spansOf(running.variant.name), requests: running.answered }));
  console.log(`\nEvery variant in a new process each round (BENCH_FRESH). First seconds: the run after ${WARM_UP_SECONDS} s of load.`);
  report(variants, spans, undefined);
  if (STEADY_AFTER_SECONDS <= 0) return;
  console.log(`\nThe same processes in steady state: a run after ${STEADY_AFTER_SECONDS} s of load (the spans above count both runs).`);
  report(variants.map((running, index) => ({ ...running, runs: steadyRunsByVariant[index]! })), undefined, undefined);
}

async function main(): Promise<void> {
  const collector = await startOtlpCollector();
  if (process.env.BENCH_FRESH === '1') {
    try {
      await mainFresh(collector);
    } finally {
      await collector.close();
    }
    return;
  }
  const variants: RunningVariant[] = [];
  try {
    for (const variant of chosenVariants()) variants.push(await startVariant(variant, collector));
    await sameAnswers(variants);
    for (const running of variants) await measure(running, WARM_UP_SECONDS);
    // One variant at a time, each round starting one variant later, so no variant always follows another.
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let turn = 0; turn < variants.length; turn += 1) {
        const running = variants[(round + turn) % variants.length]!;
        running.runs.push(await measure(running, SECONDS));
      }
    }
    // Counted before the profiled run and the synthetic requests, which are traced too. Each run ended with its spans flushed.
    const spans = variants.map((running) => ({ spans: collector.spansOf(running.variant.name), requests: running.answered }));
    const profiled = variants.find((running) => running.variant.name === PROFILED_VARIANT);
    let shares: PartShares | undefined;
    if (profiled) {
      await ask(profiled, 'profile-start');
      await measure(profiled, SECONDS * 2);
      shares = (await ask<{ shares: PartShares }>(profiled, 'profile-stop')).shares;
    }
    const instrumentCosts: number[][] = [];
    for (const running of variants) instrumentCosts.push((await ask<{ instrumentMicros: number[] }>(running, 'instruments')).instrumentMicros);
    report(variants, spans, instrumentCosts);
    if (profiled && shares) reportProfile(profiled, shares);
  } finally {
    for (const running of variants) running.child.stdin!.end();
    await Promise.all(variants.map((running) => new Promise((done) => running.child.once('close', done))));
    await collector.close();
  }
}

if (process.argv[2] === 'serve') {
  serveVariant(JSON.parse(process.argv[3]!) as VariantSettings).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
