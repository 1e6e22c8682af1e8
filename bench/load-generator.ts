/**
 * The load generator of the API benchmark as a process of its own: `node load-generator.js` reads
 * autocannon's options as JSON from its standard input, runs it, and prints one JSON line, a `LoadResult`. Outside the
 * benchmark's process it neither shares the services' event loop nor adds to the process CPU time the
 * benchmark reads as the services' own cost.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';

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

/** Runs autocannon with `options` in a child process and answers its summary. */
export function generateLoad(options: autocannon.Options): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // On standard input: the request bodies (100 objects each for addTask) are too large for an argument.
    const child = spawn(process.execPath, [__filename], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify(options));
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`the load generator exited with code ${code}`));
        return;
      }
      try {
        resolve(JSON.parse(output) as LoadResult);
      } catch (error) {
        reject(new Error(`the load generator printed no result: ${(error as Error).message}: ${output.slice(0, 200)}`));
      }
    });
  });
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  const options = JSON.parse(await readStandardInput()) as autocannon.Options;
  const result = await autocannon(options);
  const summary: LoadResult = {
    requests: result.requests.total,
    sent: result.requests.sent,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
