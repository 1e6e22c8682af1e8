/**
 * `npm run bench [-- <name> ...]`: runs the benchmarks named, or all of them.
 *
 *   npm run bench                         the API comparison (bench/api.ts), then the persisted-query one
 *   npm run bench -- api                  only the API comparison, every scenario
 *   npm run bench -- queryTask getTask    only these API scenarios
 *   npm run bench -- persisted            only bench/persisted.ts
 *   npm run bench -- store                the embedded store micro-benchmark (bench/store.ts; only when named)
 *   npm run bench -- lambda               the lambda host micro-benchmark (bench/lambda.ts; only when named)
 *   npm run bench -- hostile              a well-behaved client under the hostile mix of issue 12 (bench/hostile.ts; only when named)
 *   npm run bench -- schema-build         schema build stages and regexp engines (bench/schema-build.ts; only when named)
 *   npm run bench -- limits               refusing hostile operations vs an ordinary query (bench/limits.ts; only when named)
 *   npm run bench -- growth               addTask latency as the store grows (bench/mutation-growth.ts; only when named)
 *
 * Separate benchmarks run as child processes, so one's heap and timers never disturb another's numbers.
 * Durations come from the environment: BENCH_SECONDS (default 10), BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runApiBench, SCENARIOS } from './api.js';

/** Benchmarks that live in their own file and run as `node <file>`; `inDefault`: part of a bare `npm run bench`. */
const SCRIPTS: Record<string, { file: string; inDefault: boolean }> = {
  persisted: { file: 'persisted.js', inDefault: true },
  store: { file: 'store.js', inDefault: false },
  lambda: { file: 'lambda.js', inDefault: false },
  hostile: { file: 'hostile.js', inDefault: false },
  'schema-build': { file: 'schema-build.js', inDefault: false },
  limits: { file: 'limits.js', inDefault: false },
  growth: { file: 'mutation-growth.js', inDefault: false },
};

function runScript(name: string): boolean {
  const file = path.join(__dirname, SCRIPTS[name]!.file);
  if (!fs.existsSync(file)) {
    console.error(`bench "${name}": ${file} does not exist (not built?)`);
    return false;
  }
  console.log(`\n=== ${name} (${path.relative(process.cwd(), file)}) ===`);
  const result = spawnSync(process.execPath, [file], { stdio: 'inherit', env: process.env });
  return result.status === 0;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const scenarioNames = new Set(SCENARIOS.map((scenario) => scenario.name));
  const known = new Set(['api', ...Object.keys(SCRIPTS), ...scenarioNames]);
  const unknown = args.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    console.error(`unknown benchmark ${unknown.map((name) => `"${name}"`).join(', ')}; known: ${[...known].join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const scenarios = args.filter((name) => scenarioNames.has(name));
  const runApi = args.length === 0 || args.includes('api') || scenarios.length > 0;
  const scripts = args.length === 0
    ? Object.keys(SCRIPTS).filter((name) => SCRIPTS[name]!.inDefault && fs.existsSync(path.join(__dirname, SCRIPTS[name]!.file)))
    : args.filter((name) => name in SCRIPTS);

  let ok = true;
  if (runApi) {
    console.log('=== api: generated service vs hand-written Apollo Server ===');
    const met = await runApiBench(args.includes('api') ? [] : scenarios);
    console.log(met ? '\nevery API target met' : '\nsome API target was MISSED (see above)');
  }
  for (const name of scripts) ok = runScript(name) && ok;
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
