/**
 * The load generator of the benchmarks as a process of its own: `node load-generator.js` reads autocannon's
 * options as JSON lines from its standard input, runs them one after the other, and prints one JSON line per
 * run, a `LoadResult` (or `{ "error": ... }`). Outside the benchmark's process it neither shares the
 * services' event loop nor adds to the process CPU time the benchmark reads as the services' own cost.
 * One such process serves all the runs of a benchmark process: starting node and autocannon for each run
 * took over a second on a loaded machine, hundreds of times per benchmark.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';

export interface LoadResult {
  /** Completed requests. */
  requests: number;
  /** Requests sent, including those still unanswered when the run ended. */
  sent: number;
  /** Seconds the run took. */
  seconds: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, connection errors and time-outs. */
  failures: number;
}

interface PendingRun {
  resolve(result: LoadResult): void;
  reject(error: Error): void;
}

/** The load generator process and the runs sent to it, answered in the order sent. */
class LoadGeneratorProcess {
  private readonly pending: PendingRun[] = [];
  private readonly child: ChildProcess;
  private failure: Error | undefined;

  constructor(private readonly onExit: () => void) {
    this.child = spawn(process.execPath, [__filename], { stdio: ['pipe', 'pipe', 'inherit'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.answer(line));
    this.child.on('error', (error) => this.fail(error));
    this.child.on('close', (code) => this.fail(new Error(`the load generator exited with code ${code}`)));
    this.holdOpen(false);
  }

  run(options: autocannon.Options): Promise<LoadResult> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.holdOpen(true);
      // One line per run: the request bodies (100 objects each for addTask) are too large for an argument.
      this.child.stdin!.write(`${JSON.stringify(options)}\n`);
    });
  }

  private answer(line: string): void {
    const run = this.pending.shift();
    if (this.pending.length === 0) this.holdOpen(false);
    if (!run) return;
    try {
      const parsed = JSON.parse(line) as LoadResult | { error: string };
      if ('error' in parsed) run.reject(new Error(`the load generator failed: ${parsed.error}`));
      else run.resolve(parsed);
    } catch (error) {
      run.reject(new Error(`the load generator printed no result: ${(error as Error).message}: ${line.slice(0, 200)}`));
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const run of this.pending.splice(0)) run.reject(error);
    this.onExit();
  }

  /** Keeps the benchmark process alive only while a run is under way, so an idle generator never holds it open. */
  private holdOpen(hold: boolean): void {
    const handles = [this.child, this.child.stdin as unknown as Socket, this.child.stdout as unknown as Socket];
    for (const handle of handles) {
      if (hold) handle.ref();
      else handle.unref();
    }
  }
}

let generator: LoadGeneratorProcess | undefined;

/** Runs autocannon with `options` in the load generator process and answers its summary. */
export function generateLoad(options: autocannon.Options): Promise<LoadResult> {
  generator ??= new LoadGeneratorProcess(() => {
    generator = undefined;
  });
  return generator.run(options);
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function runOnce(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon(options);
  return {
    requests: result.requests.total,
    sent: result.requests.sent,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** Serves runs until the benchmark process closes the standard input (or exits). */
async function main(): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') continue;
    const answer = await runOnce(JSON.parse(line) as autocannon.Options).catch((error: unknown) => ({ error: String((error as Error).message ?? error) }));
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
