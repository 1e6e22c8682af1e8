/**
 * Two builds of Autograph side by side in one process, with the in-memory graphql-js baseline, for a
 * change whose effect is smaller than the noise between two runs of `npm run bench` on a shared machine:
 *
 *   node --expose-gc dist/bench/compare-builds.js <other build's dist folder> <tasks> <scenario> [scenario ...]
 *
 * e.g. a copy of `dist` made before the change (`cp -r dist /tmp/dist-before`), then `npm run build`.
 * Each build serves its own embedded store in a temporary folder, loaded with the same data; the load
 * generator takes turns between the three services in rotating rounds (bench/measure.ts), so a change in
 * machine load falls on all alike. Printed per service: requests/s, p50 and p99 latency (medians over the
 * rounds), CPU time per request, and the median over the rounds of how many times slower than the
 * in-memory baseline it was. `BENCH_ROUNDS` (default 6) and `BENCH_SECONDS` (measured seconds per service,
 * split over the rounds; default 6) set the length.
 * `BENCH_APOLLO_BASELINE=1` adds the in-memory baseline behind Apollo Server as a fourth service, the least
 * a request can cost on Autograph's stack; each build's CPU per request is then also compared with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_SCHEMA, fillInMemoryTables, loadData, type LoadedData } from './api-data.js';
import type { AutographService } from './autograph-service.js';
import { startInMemoryBaseline } from './in-memory-baseline.js';
import { median } from './load-generator.js';
import { measureAlternating, type Measurement, type Run, type Service } from './measure.js';
import { SCENARIOS } from './scenarios.js';

type StartAutograph = (folder: string, initialSchema?: string) => Promise<AutographService>;

const usage = 'usage: compare-builds.js <other dist folder> <tasks> <scenario> [scenario ...]';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 6));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WITH_APOLLO_BASELINE = process.env.BENCH_APOLLO_BASELINE === '1';

async function startBuild(label: string, startAutograph: StartAutograph, tasks: number): Promise<{ service: Service; autograph: AutographService; data: LoadedData }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-compare-'));
  const autograph = await startAutograph(folder, BENCH_SCHEMA);
  const data = await loadData(autograph.store, tasks);
  return { service: { label, url: autograph.url }, autograph, data };
}

/** The median over the rounds of how many times `one`'s requests/s go into the baseline's in the same round. */
function slowdownByRound(one: Measurement, baseline: Measurement): number {
  const rate = (run: Run) => run.requests / run.seconds;
  return median(one.runs.map((run, round) => rate(baseline.runs[round]!) / Math.max(rate(run), Number.EPSILON)));
}

async function main(): Promise<void> {
  const [otherDist, tasksText, ...names] = process.argv.slice(2);
  const scenarios = names.map((name) => SCENARIOS.find((candidate) => candidate.name === name));
  if (!otherDist || !tasksText || scenarios.length === 0 || scenarios.some((scenario) => !scenario)) {
    console.error(`${usage}\nscenarios: ${SCENARIOS.map((scenario) => scenario.name).join(', ')}`);
    process.exit(2);
  }
  const tasks = Number(tasksText);
  const otherModule = pathToFileURL(path.resolve(otherDist, 'bench', 'autograph-service.js')).href;
  const { startAutograph: startOther } = (await import(otherModule)) as { startAutograph: StartAutograph };
  const { startAutograph: startThis } = await import('./autograph-service.js');
  const other = await startBuild(`${otherDist}`, startOther, tasks);
  const current = await startBuild('this build', startThis, tasks);
  const tables = fillInMemoryTables(tasks);
  const baseline = await startInMemoryBaseline(tables);
  const apolloBaseline = WITH_APOLLO_BASELINE ? await startInMemoryBaseline(tables, 'apollo') : undefined;
  const services: Service[] = [other.service, current.service, { label: 'in-memory graphql-js', url: baseline.url }];
  if (apolloBaseline) services.push({ label: 'in-memory on Apollo Server', url: apolloBaseline.url });
  console.log(`${tasks.toLocaleString('en')} Tasks; ${CONNECTIONS} connections, ${ROUNDS} rotating rounds, ${SECONDS} s per service and scenario`);
  try {
    for (const scenario of scenarios as NonNullable<(typeof scenarios)[number]>[]) {
      const settings = { warmUpSeconds: 1, seconds: SECONDS, rounds: ROUNDS, connections: scenario.heavy ? 2 : CONNECTIONS };
      const { measurements } = await measureAlternating(services, current.autograph.counter, scenario.bodies(current.data), settings, 0);
      const inMemory = measurements[2]!;
      const onApollo = measurements[3];
      console.log(`\n${scenario.name} (machine load ${os.loadavg()[0]!.toFixed(1)})`);
      measurements.forEach((measured, index) => {
        const overApollo = onApollo ? `, CPU ${((measured.cpuMsPerRequest - onApollo.cpuMsPerRequest) * 1000).toFixed(0)} µs over in-memory on Apollo` : '';
        const versus = index < 2 ? `   ÷ in-memory ${slowdownByRound(measured, inMemory).toFixed(2)}x (CPU ${(measured.cpuMsPerRequest / inMemory.cpuMsPerRequest).toFixed(2)}x${overApollo})` : '';
        console.log(
          `  ${services[index]!.label.padEnd(28)} ${measured.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${measured.p50} ms, p99 ${measured.p99} ms   CPU ${(measured.cpuMsPerRequest * 1000).toFixed(0).padStart(5)} µs/request${versus}`,
        );
      });
    }
  } finally {
    await other.autograph.close();
    await current.autograph.close();
    await baseline.close();
    await apolloBaseline?.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
