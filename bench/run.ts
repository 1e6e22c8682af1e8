/**
 * `npm run bench [-- <name> ...]`: runs the benchmarks named, or the default ones.
 *
 *   npm run bench                         the API comparison at BENCH_SIZES, then the persisted-query one
 *   npm run bench -- api                  only the API comparison, every scenario, at BENCH_SIZES
 *   npm run bench -- scale                the API comparison at 10,000, 100,000 and 1,000,000 tasks
 *   npm run bench -- queryTask getTask    only these API scenarios (with `scale`: at its sizes)
 *   npm run bench -- persisted            only bench/persisted.ts
 *   npm run bench -- store                the embedded store micro-benchmark (bench/store.ts; only when named)
 *   npm run bench -- lambda               the lambda host micro-benchmark (bench/lambda.ts; only when named)
 *   npm run bench -- hostile              a well-behaved client under the hostile mix of issue 12 (bench/hostile.ts; only when named)
 *   npm run bench -- schema-build         schema build stages and regexp engines (bench/schema-build.ts; only when named)
 *   npm run bench -- limits               refusing hostile operations vs an ordinary query (bench/limits.ts; only when named)
 *   npm run bench -- growth               addTask latency as the store grows (bench/mutation-growth.ts; only when named)
 *   npm run bench -- jwt                  token verification per algorithm, static key and JWK Set (bench/jwt.ts; only when named)
 *   npm run bench -- http                 the HTTP layer (router, CORS) next to bare node:http (bench/http-layer.ts; only when named)
 *   npm run bench -- observability        getTask with metrics and tracing off, on, and on with request logs (bench/observability.ts; only when named)
 *   npm run bench -- export               export, backup and import of BENCH_OBJECTS Tasks over HTTP (bench/export.ts; only when named)
 *   npm run bench -- schema-changes       the change report of an upload: diff cost and stored-data checks (bench/schema-changes.ts; only when named)
 *   npm run bench -- cascade              @cascade next to the same reads without it (bench/cascade.ts; only when named)
 *   npm run bench -- storage-names        reads under @dgraph storage names vs own names, and @secret's bcrypt work (bench/storage-names.ts; only when named)
 *   npm run bench -- restart              a restart's downtime (stop, start) after a load and after a burst of writes (bench/restart.ts; only when named)
 *   npm run bench -- subscriptions        1,000 subscribers under 100 writes/s: write → delivery, CPU, RSS (bench/subscriptions.ts; only when named)
 *   npm run bench -- postgraphile         Autograph vs PostGraphile 4 on PostgreSQL 15 vs in-memory graphql-js at 100,000 tasks
 *                                         (BENCH_SIZES); with scenario names, only those (bench/postgraphile-comparison.ts; only
 *                                         when named; needs PostgreSQL 15 and `npm --prefix bench/postgraphile ci`)
 *
 * Every benchmark, and the API comparison at every size, runs as a child process of its own, so one's heap,
 * memory and timers never disturb another's numbers. Durations come from the environment: BENCH_SECONDS,
 * BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS; sizes from BENCH_SIZES (tasks, comma-separated).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCENARIOS } from './scenarios.js';
import { sizesFrom } from './sizes.js';
import { tableAcrossSizes, type SizeSummary } from './summary.js';

/** Benchmarks that live in their own file and run as `node <file>`; `inDefault`: part of a bare `npm run bench`. */
const SCRIPTS: Record<string, { file: string; inDefault: boolean; nodeArgs?: string[] }> = {
  persisted: { file: 'persisted.js', inDefault: true },
  store: { file: 'store.js', inDefault: false },
  lambda: { file: 'lambda.js', inDefault: false },
  hostile: { file: 'hostile.js', inDefault: false },
  'schema-build': { file: 'schema-build.js', inDefault: false },
  limits: { file: 'limits.js', inDefault: false },
  growth: { file: 'mutation-growth.js', inDefault: false },
  jwt: { file: 'jwt.js', inDefault: false },
  http: { file: 'http-layer.js', inDefault: false },
  observability: { file: 'observability.js', inDefault: false },
  export: { file: 'export.js', inDefault: false, nodeArgs: ['--expose-gc', '--max-old-space-size=8192'] },
  'schema-changes': { file: 'schema-changes.js', inDefault: false },
  cascade: { file: 'cascade.js', inDefault: false },
  'storage-names': { file: 'storage-names.js', inDefault: false },
  subscriptions: { file: 'subscriptions.js', inDefault: false },
  restart: { file: 'restart.js', inDefault: false, nodeArgs: ['--max-old-space-size=8192'] },
};

const DEFAULT_SIZES = [10_000, 100_000];
const SCALE_SIZES = [10_000, 100_000, 1_000_000];
const POSTGRAPHILE_SIZES = [100_000];
/** Heap limit of an API comparison process: a million tasks live twice in it (store and in-memory tables). */
const API_HEAP_MB = 8192;


function runScript(name: string): boolean {
  const file = path.join(__dirname, SCRIPTS[name]!.file);
  if (!fs.existsSync(file)) {
    console.error(`bench "${name}": ${file} does not exist (not built?)`);
    return false;
  }
  console.log(`\n=== ${name} (${path.relative(process.cwd(), file)}) ===`);
  const result = spawnSync(process.execPath, [...(SCRIPTS[name]!.nodeArgs ?? []), file], { stdio: 'inherit', env: process.env });
  return result.status === 0;
}

/** The API comparison at each size in a process of its own, then the table across the sizes. */
function runApiSizes(sizes: readonly number[], scenarios: readonly string[]): boolean {
  const summaryFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-summary-')), 'sizes.jsonl');
  let ok = true;
  for (const size of sizes) {
    console.log(`\n=== api at ${size.toLocaleString('en')} tasks: Autograph vs in-memory graphql-js vs hand-written Apollo vs in-memory on Apollo Server ===`);
    const result = spawnSync(
      process.execPath,
      ['--expose-gc', `--max-old-space-size=${API_HEAP_MB}`, path.join(__dirname, 'api.js'), String(size), ...scenarios],
      { stdio: 'inherit', env: { ...process.env, BENCH_SUMMARY_FILE: summaryFile } },
    );
    ok = result.status === 0 && ok;
  }
  if (fs.existsSync(summaryFile)) {
    const summaries = fs.readFileSync(summaryFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as SizeSummary);
    console.log(`\n${tableAcrossSizes(summaries).join('\n')}`);
  }
  fs.rmSync(path.dirname(summaryFile), { recursive: true, force: true });
  return ok;
}

/** Autograph vs PostGraphile at each size, in a process of its own per size. */
function runPostGraphileSizes(sizes: readonly number[], scenarios: readonly string[]): boolean {
  let ok = true;
  for (const size of sizes) {
    console.log(`\n=== postgraphile at ${size.toLocaleString('en')} tasks: Autograph vs in-memory graphql-js vs PostGraphile 4 on PostgreSQL ===`);
    const result = spawnSync(
      process.execPath,
      ['--expose-gc', `--max-old-space-size=${API_HEAP_MB}`, path.join(__dirname, 'postgraphile-comparison.js'), String(size), ...scenarios],
      { stdio: 'inherit', env: process.env },
    );
    ok = result.status === 0 && ok;
  }
  return ok;
}

function main(): void {
  const args = process.argv.slice(2);
  const scenarioNames = new Set(SCENARIOS.map((scenario) => scenario.name));
  const known = new Set(['api', 'scale', 'postgraphile', ...Object.keys(SCRIPTS), ...scenarioNames]);
  const unknown = args.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    console.error(`unknown benchmark ${unknown.map((name) => `"${name}"`).join(', ')}; known: ${[...known].join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const scenarios = args.filter((name) => scenarioNames.has(name));
  const comparePostGraphile = args.includes('postgraphile');
  // Scenario names go to the PostGraphile comparison when it is named, else to the API comparison.
  const runApi = args.length === 0 || args.includes('api') || args.includes('scale') || (scenarios.length > 0 && !comparePostGraphile);
  let sizes: number[];
  let postgraphileSizes: number[];
  try {
    sizes = sizesFrom(process.env.BENCH_SIZES, args.includes('scale') ? SCALE_SIZES : DEFAULT_SIZES);
    postgraphileSizes = sizesFrom(process.env.BENCH_SIZES, POSTGRAPHILE_SIZES);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return;
  }
  const scripts = args.length === 0
    ? Object.keys(SCRIPTS).filter((name) => SCRIPTS[name]!.inDefault && fs.existsSync(path.join(__dirname, SCRIPTS[name]!.file)))
    : args.filter((name) => name in SCRIPTS);

  let ok = true;
  if (runApi) ok = runApiSizes(sizes, scenarios) && ok;
  if (comparePostGraphile) ok = runPostGraphileSizes(postgraphileSizes, scenarios) && ok;
  for (const name of scripts) ok = runScript(name) && ok;
  if (!ok) process.exitCode = 1;
}

main();
