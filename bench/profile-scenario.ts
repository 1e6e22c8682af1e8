/**
 * A CPU profile of Autograph answering one API scenario (issue 17): where a request's time goes on the
 * service side (Apollo's pipeline, our plugins, resolvers, the store).
 *
 *   node dist/bench/profile-scenario.js <folder> <tasks> <scenario> [requests] [service]
 *
 * `service` is `autograph` (the default), or one of the in-memory baselines (`in-memory`: plain graphql-js;
 * `in-memory-apollo`: the same behind Apollo Server), to compare a profile of Autograph function by function
 * with what the same request costs without the generated layer and the store.
 *
 * The first run loads `tasks` tasks into `folder` (kept, so later runs restart on it instead). The load
 * generator, a process of its own so that the profile shows only the service, sends the requests over HTTP
 * on `BENCH_CONNECTIONS` connections (default 1: one after another). Only their answering is profiled
 * (with `node:inspector`, not the load); the profile is written to `<folder>/<scenario>.cpuprofile`, and a
 * summary printed: self time per source folder and per function, and the total time of our own functions.
 */
import type autocannon from 'autocannon';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BENCH_SCHEMA, fillInMemoryTables, loadData, type LoadedData } from './api-data.js';
import { startAutograph } from './autograph-service.js';
import { startInMemoryBaseline } from './in-memory-baseline.js';
import { generateLoad } from './load-generator.js';
import { post } from './measure.js';
import { SCENARIOS } from './scenarios.js';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
}

const SERVICES = ['autograph', 'in-memory', 'in-memory-apollo'];
const usage = `usage: profile-scenario.js <folder> <tasks> <scenario> [requests] [${SERVICES.join('|')}]`;

/** A service under profile: where it answers, the scenario's data, and how to stop it. */
interface ProfiledService {
  url: string;
  data: LoadedData;
  close(): Promise<void>;
}

/** Autograph on the store in `folder`: loaded on the first run, restarted on it afterwards. */
async function startProfiledAutograph(folder: string, tasks: number): Promise<ProfiledService> {
  const loaded = fs.existsSync(path.join(folder, 'task-ids.json'));
  const service = await startAutograph(folder, loaded ? undefined : BENCH_SCHEMA);
  if (!loaded) {
    const data = await loadData(service.store, tasks);
    fs.writeFileSync(path.join(folder, 'task-ids.json'), JSON.stringify(data));
  }
  const data = JSON.parse(fs.readFileSync(path.join(folder, 'task-ids.json'), 'utf8')) as LoadedData;
  return { url: service.url, data, close: () => service.close() };
}

/** An in-memory baseline over the same users and tasks (bench/api-data.ts makes the same ids in the same order). */
async function startProfiledBaseline(tasks: number, through: 'graphql-js' | 'apollo'): Promise<ProfiledService> {
  const baseline = await startInMemoryBaseline(fillInMemoryTables(tasks), through);
  const data = { userIds: baseline.tables.users.map((user) => user.id), taskIds: baseline.tables.tasks.map((task) => task.id) };
  return { url: baseline.url, data, close: () => baseline.close() };
}

function startProfiled(service: string, folder: string, tasks: number): Promise<ProfiledService> {
  if (service === 'in-memory') return startProfiledBaseline(tasks, 'graphql-js');
  if (service === 'in-memory-apollo') return startProfiledBaseline(tasks, 'apollo');
  return startProfiledAutograph(folder, tasks);
}

/** Where a function lives, shortened to what a reader recognises: `src/store/embedded`, `graphql/execution`, `node:internal`. */
function areaOf(url: string): string {
  if (url === '') return '(native or idle)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length).split('/').slice(0, 2).join('/');
  const ours = url.search(/\/(src|bench)\//);
  if (ours >= 0) return path.dirname(url.slice(ours + 1));
  return url.startsWith('node:') ? url.split('/')[0]! : url;
}

function printTop(title: string, totals: Map<string, number>, all: number, count: number): void {
  console.log(`\n${title}`);
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, count);
  for (const [name, hits] of rows) console.log(`${((hits / all) * 100).toFixed(1).padStart(6)}%  ${name}`);
}

function nameOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url === '' ? '' : ` ${url.replace(/^.*?\/(node_modules|src|bench)\//, '$1/')}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'}${where}`;
}

/** graphql-js's coercion of variables to input values, listed with our functions as a phase of its own. */
const COERCION = /node_modules\/graphql\/execution\/values\.js$/;

/** Hits of each of our own functions (and graphql-js's coercion) with everything it calls (a recursive function counted once per sample). */
function inclusiveOfOurs(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  const onStack = new Map<string, number>();
  const visit = (node: ProfileNode): number => {
    const name = nameOf(node);
    const ours = /\/src\//.test(node.callFrame.url) || COERCION.test(node.callFrame.url);
    if (ours) onStack.set(name, (onStack.get(name) ?? 0) + 1);
    let hits = node.hitCount ?? 0;
    for (const child of node.children ?? []) hits += visit(byId.get(child)!);
    if (ours) {
      const depth = onStack.get(name)! - 1;
      onStack.set(name, depth);
      if (depth === 0) totals.set(name, (totals.get(name) ?? 0) + hits);
    }
    return hits;
  };
  visit(profile.nodes[0]!);
  return totals;
}

function summarise(profile: Profile): void {
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let all = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    all += hits;
    byFunction.set(nameOf(node), (byFunction.get(nameOf(node)) ?? 0) + hits);
    byArea.set(areaOf(node.callFrame.url), (byArea.get(areaOf(node.callFrame.url)) ?? 0) + hits);
  }
  printTop('self time per area', byArea, all, 20);
  printTop('self time per function', byFunction, all, 40);
  printTop('total time of our functions (with what they call)', inclusiveOfOurs(profile), all, 40);
}

async function main(): Promise<void> {
  const [folder, tasksText, scenarioName, requestsText = '200', serviceName = 'autograph'] = process.argv.slice(2);
  const scenario = SCENARIOS.find((candidate) => candidate.name === scenarioName);
  if (!folder || !tasksText || !scenario || !SERVICES.includes(serviceName)) {
    console.error(usage);
    process.exit(2);
  }
  fs.mkdirSync(folder, { recursive: true });
  const service = await startProfiled(serviceName, folder, Number(tasksText));
  const data = service.data;
  try {
    const bodies = scenario.bodies(data);
    const requests = Number(requestsText);
    for (let i = 0; i < Math.min(requests, 20); i += 1) await post(service.url, bodies[i % bodies.length]);

    const session = new inspector.Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const load = await generateLoad({
      url: `${service.url}/graphql`,
      connections: Number(process.env.BENCH_CONNECTIONS ?? 1),
      amount: requests,
      timeout: 60,
      requests: bodies.map((body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })),
    } as autocannon.Options);
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpuStarted);
    if (load.failures > 0) throw new Error(`${load.failures} of the scenario's requests failed`);
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    session.disconnect();

    fs.writeFileSync(path.join(folder, `${scenario.name}-${serviceName}.cpuprofile`), JSON.stringify(profile));
    console.log(`${serviceName}, ${scenario.name}: ${requests} requests, ${(requests / (elapsed / 1000)).toFixed(0)} req/s, p50 ${load.p50} ms, ${((cpu.user + cpu.system) / 1000 / requests).toFixed(2)} ms of the service's CPU each`);
    summarise(profile);
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
