/**
 * Hostile benchmark: the real CLI (`dist/src/server/main.js`) as a child process on a temporary data folder,
 * serving the README's schema, the gateway demo's missions and two lambda fields. A well-behaved client
 * sends the README's queries, first alone (quiet), then while a second process (bench/hostile-attacker.ts)
 * sends the hostile mix of issue 12 in a loop. Prints the client's p50/p99 quiet and under attack, the
 * service's peak resident memory (VmHWM, and the sampled peak of its lambda process), whether it had to be
 * restarted (it is restarted whenever it exits, so the run goes on), and what the hostile requests got.
 * No assertions. Run after `npm run build`: node dist/bench/hostile.js   (BENCH_SECONDS=10: quiet and
 * attack phases each; BENCH_HOSTILE_TIMEOUT_MS=20000: client time-out of one hostile request;
 * BENCH_HOSTILE_CASES=deep,regexp,lambda-string,lambda-buffer,schema,not,apq: the cases to send, default all)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { hostileCases, type AttackOptions, type AttackReport } from './hostile-attacker.js';
import { median } from './load-generator.js';
import { freePort } from './free-port.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const HOSTILE_TIMEOUT_MS = Number(process.env.BENCH_HOSTILE_TIMEOUT_MS ?? 20_000);
const HOSTILE_CASES = process.env.BENCH_HOSTILE_CASES ? process.env.BENCH_HOSTILE_CASES.split(',').map((key) => key.trim()) : undefined;
/** Client time-out of one well-behaved request; a time-out counts as a failure at this latency. */
const CLIENT_TIMEOUT_MS = 30_000;
const CLIENT_CONNECTIONS = 2;
const MAIN = path.join(__dirname, '..', 'src', 'server', 'main.js');
const ATTACKER = path.join(__dirname, 'hostile-attacker.js');

/** The README's quick-start schema, the gateway demo's missions (with a regexp index), and two lambda fields. */
const SCHEMA = `type Task {
  id: ID!
  title: String! @search(by: [fulltext])
  completed: Boolean! @search
  user: User!
}

type User {
  username: String! @id @search(by: [hash])
  name: String
  tasks: [Task] @hasInverse(field: user)
}

type Mission @key(fields: "id") {
  id: ID!
  crew: [Astronaut]
  designation: String! @search(by: [hash, regexp])
  startDate: String
  endDate: String
}

type Astronaut @key(fields: "id") @extends {
  id: ID! @external
  missions: [Mission] @hasInverse(field: crew)
}

type Query {
  hugeString(n: Int!): String @lambda
  bigBuffer(mb: Int!): Int @lambda
}
`;

const LAMBDA = `self.addGraphQLResolvers({
  'Query.hugeString': ({ args }) => 'x'.repeat(args.n),
  'Query.bigBuffer': ({ args }) => new Uint8Array(args.mb * 1024 * 1024).fill(1).length,
});
`;

const SEED = [
  'mutation { addUser(input: [{ username: "alice@example.com", name: "Alice", tasks: [{ title: "Write the report", completed: false }, ' +
    '{ title: "Book a room", completed: true }, { title: "Answer the mail", completed: false }] }]) { numUids } }',
  // Two missions sharing one astronaut: each crew/missions level doubles the answer. The second
  // designation is the 27-character value the catastrophic regexp backtracks on.
  'mutation { addMission(input: [{ designation: "Apollo 11", crew: [{ id: "astronaut-1" }] }, ' +
    '{ designation: "aaaaaaaaaaaaaaaaaaaaaaaaaa!", crew: [{ id: "astronaut-1" }] }]) { numUids } }',
];

/** The README's queries, as a well-behaved client sends them. */
const CLIENT_QUERIES = [
  '{ queryTask(filter: { completed: false }, order: { asc: title }) { title completed user { username } } }',
  '{ queryUser { username name tasks { title completed } } }',
];

interface ServiceRun {
  child: ChildProcess;
  /** Highest VmRSS sampled, in MB, of the service and of its child processes (the lambda host). */
  peakRssMb: number;
  peakLambdaRssMb: number;
  /** VmHWM read last, in MB. */
  highWaterMb: number;
  exit?: string;
}


function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with code ${child.exitCode} while starting`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the service did not become ready within 60 s');
}

/** The service under test: restarted whenever it exits, with the peak memory of every run kept. */
class Service {
  readonly runs: ServiceRun[] = [];
  private stopping = false;
  private sampler: NodeJS.Timeout | undefined;
  private restarting: Promise<void> | undefined;

  constructor(
    readonly url: string,
    private readonly args: string[],
  ) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, [MAIN, ...this.args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    const run: ServiceRun = { child, peakRssMb: 0, peakLambdaRssMb: 0, highWaterMb: 0 };
    this.runs.push(run);
    child.once('exit', (code, signal) => {
      run.exit = signal ? `killed by ${signal}` : `exit code ${code}`;
      // The line that says why (V8's "FATAL ERROR: ..."), else the last one that is not a JSON log line.
      const lines = stderr.trim().split('\n').filter((line) => !line.startsWith('{'));
      const lastLine = lines.find((line) => /FATAL|Error/.test(line)) ?? lines.pop();
      if (!this.stopping) {
        console.log(`  ! the service stopped (${run.exit}${lastLine ? `: ${lastLine.slice(0, 160)}` : ''}); restarting it`);
        this.restarting = this.start().finally(() => {
          this.restarting = undefined;
        });
      }
    });
    clearInterval(this.sampler);
    this.sampler = setInterval(() => this.sample(run), 100);
    await waitUntilReady(this.url, child);
  }

  get restarts(): number {
    return this.runs.length - 1;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.restarting?.catch(() => undefined);
    clearInterval(this.sampler);
    const run = this.runs[this.runs.length - 1]!;
    this.sample(run);
    if (run.child.exitCode !== null || run.child.signalCode !== null) return;
    const exited = new Promise((resolve) => run.child.once('exit', resolve));
    run.child.kill('SIGTERM');
    const timer = setTimeout(() => run.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private sample(run: ServiceRun): void {
    const pid = run.child.pid;
    if (pid === undefined || run.exit !== undefined) return;
    run.peakRssMb = Math.max(run.peakRssMb, statusField(pid, 'VmRSS'));
    run.highWaterMb = Math.max(run.highWaterMb, statusField(pid, 'VmHWM'));
    for (const lambdaPid of childPids(pid)) run.peakLambdaRssMb = Math.max(run.peakLambdaRssMb, statusField(lambdaPid, 'VmRSS'));
  }
}

interface ClientSummary {
  requests: number;
  failures: number;
  p50: number;
  p99: number;
  /** First few failures, to tell what went wrong. */
  failureSamples: string[];
}

/** CLIENT_CONNECTIONS loops, each sending the README's queries in turn until `endsAt`. */
async function wellBehavedClient(url: string, endsAt: number): Promise<ClientSummary> {
  const latencies: number[] = [];
  let failures = 0;
  const failureSamples: string[] = [];
  const fail = (what: string) => {
    failures += 1;
    if (failureSamples.length < 3) failureSamples.push(what);
  };
  await Promise.all(
    Array.from({ length: CLIENT_CONNECTIONS }, async (_, loop) => {
      for (let i = loop; Date.now() < endsAt; i += 1) {
        const started = performance.now();
        try {
          const response = await fetch(`${url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: CLIENT_QUERIES[i % CLIENT_QUERIES.length] }),
            signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
          });
          const body = (await response.json()) as { errors?: unknown };
          if (!response.ok || body.errors) fail(`${response.status} ${JSON.stringify(body.errors).slice(0, 160)}`);
        } catch (error) {
          fail((error as Error).name === 'TimeoutError' ? `no answer within ${CLIENT_TIMEOUT_MS} ms` : `connection failed`);
          // A refused connection answers at once: do not spin while the service is down.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
  return { requests: latencies.length, failures, p50: sorted.length === 0 ? NaN : median(sorted), p99, failureSamples };
}

function runAttacker(options: AttackOptions & { schema: string }): Promise<AttackReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ATTACKER, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve(JSON.parse(output) as AttackReport);
      } catch {
        reject(new Error(`the attacker exited with code ${code} and printed no report: ${output.slice(0, 200)}`));
      }
    });
  });
}

async function post(url: string, query: string): Promise<void> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const body = (await response.json()) as { errors?: unknown };
  if (!response.ok || body.errors) throw new Error(`seeding failed (${response.status}): ${JSON.stringify(body.errors)}`);
}

function formatClient(label: string, summary: ClientSummary): string {
  return `  ${label.padEnd(13)} p50 ${summary.p50.toFixed(1).padStart(8)} ms   p99 ${summary.p99.toFixed(1).padStart(8)} ms   ` +
    `(${summary.requests} requests, ${summary.failures} failed${summary.failureSamples.length > 0 ? `: ${summary.failureSamples.join('; ')}` : ''})`;
}

async function main(): Promise<void> {
  const unknown = (HOSTILE_CASES ?? []).filter((key) => !(key in hostileCases(SCHEMA)));
  if (unknown.length > 0) {
    throw new Error(`unknown BENCH_HOSTILE_CASES ${unknown.join(', ')}; known: ${Object.keys(hostileCases(SCHEMA)).join(', ')}`);
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-hostile-'));
  const schemaFile = path.join(folder, 'schema.graphql');
  const lambdaFile = path.join(folder, 'lambda.js');
  fs.writeFileSync(schemaFile, SCHEMA);
  fs.writeFileSync(lambdaFile, LAMBDA);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = new Service(url, [
    '--port', String(port), '--data', path.join(folder, 'data'), '--schema', schemaFile, '--lambda', lambdaFile, '--log-level', 'warn',
  ]);
  try {
    await service.start();
    for (const mutation of SEED) await post(url, mutation);
    console.log(
      `service: ${path.relative(process.cwd(), MAIN)} on ${url}; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}; ` +
        `${SECONDS} s quiet, then ${SECONDS} s under attack (hostile requests time out after ${HOSTILE_TIMEOUT_MS} ms; ` +
        `cases: ${HOSTILE_CASES?.join(', ') ?? 'all'})`,
    );
    const quiet = await wellBehavedClient(url, Date.now() + SECONDS * 1000);
    const quietPeakMb = service.runs[0]!.highWaterMb;

    const endsAt = Date.now() + SECONDS * 1000;
    const [attacked, report] = await Promise.all([
      wellBehavedClient(url, endsAt),
      runAttacker({ url, endsAt, requestTimeoutMs: HOSTILE_TIMEOUT_MS, schema: SCHEMA, cases: HOSTILE_CASES }),
    ]);
    await service.stop();

    console.log('\nwell-behaved client (README queries, 2 connections):');
    console.log(formatClient('quiet', quiet));
    console.log(formatClient('under attack', attacked));
    console.log(`  p99 under attack / quiet: ${(attacked.p99 / quiet.p99).toFixed(1)}x (target <= 3x)`);
    const peakMb = Math.max(...service.runs.map((run) => Math.max(run.highWaterMb, run.peakRssMb)));
    const lambdaPeakMb = Math.max(...service.runs.map((run) => run.peakLambdaRssMb));
    console.log(`\nservice: peak RSS ${peakMb.toFixed(0)} MB (${quietPeakMb.toFixed(0)} MB after the quiet phase); ` +
      `lambda process peak RSS (sampled every 100 ms) ${lambdaPeakMb.toFixed(0)} MB`);
    console.log(`  restarted: ${service.restarts === 0 ? 'no' : `yes, ${service.restarts} time(s) (${service.runs.slice(0, -1).map((run) => run.exit).join(', ')})`}`);
    console.log('\nhostile requests (answers by HTTP status and first error code):');
    for (const [name, answers] of Object.entries(report)) {
      const total = Object.values(answers).reduce((sum, count) => sum + count, 0);
      const kinds = Object.entries(answers).sort((a, b) => b[1] - a[1]).map(([answer, count]) => `${answer}: ${count}`).join(', ');
      console.log(`  ${name.padEnd(34)} ${String(total).padStart(6)} sent   ${kinds}`);
    }
  } finally {
    await service.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
