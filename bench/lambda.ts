/**
 * Lambda host micro-benchmark: what one `@lambda` call costs in the host alone (no HTTP, no GraphQL), so a
 * change to how the script host runs (thread, process) shows in calls/s. A tiny resolver is called
 * sequentially (the round trip of one call) and then with BENCH_LAMBDA_CONCURRENCY calls in flight
 * (throughput). Prints calls/s and the p50/p99 of the sequential calls; no assertions.
 * Run after `npm run build`: node dist/bench/lambda.js   (BENCH_SECONDS=10, BENCH_LAMBDA_CONCURRENCY=32)
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createLambdaHost } from '../src/custom/index.js';
import { median } from './load-generator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_LAMBDA_CONCURRENCY ?? 32);

const SCRIPT = `self.addGraphQLResolvers({
  'Query.echo': ({ args }) => ({ text: 'echo: ' + args.text, length: args.text.length }),
});`;

const noGraphql = async (): Promise<object> => ({ data: null });

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

async function main(): Promise<void> {
  const host = createLambdaHost({ timeoutMs: 2_000 });
  const loadStarted = performance.now();
  await host.load(SCRIPT);
  const loadMs = performance.now() - loadStarted;
  const call = () => host.call('Query.echo', { args: { text: 'hello lambda' } }, noGraphql);
  try {
    for (let i = 0; i < 200; i += 1) await call();
    console.log(`${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}; loading the script took ${loadMs.toFixed(0)} ms`);

    const latencies: number[] = [];
    const sequentialEnd = performance.now() + (SECONDS * 1000) / 2;
    while (performance.now() < sequentialEnd) {
      const started = performance.now();
      await call();
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    const sequentialSeconds = latencies.reduce((sum, ms) => sum + ms, 0) / 1000;
    console.log(
      `  sequential   ${(latencies.length / sequentialSeconds).toFixed(0).padStart(7)} calls/s   ` +
        `p50 ${median(latencies).toFixed(3)} ms   p99 ${percentile(latencies, 0.99).toFixed(3)} ms   (${latencies.length} calls)`,
    );

    let calls = 0;
    const concurrentStarted = performance.now();
    const concurrentEnd = concurrentStarted + (SECONDS * 1000) / 2;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < concurrentEnd) {
          await call();
          calls += 1;
        }
      }),
    );
    const concurrentSeconds = (performance.now() - concurrentStarted) / 1000;
    console.log(`  ${String(CONCURRENCY).padStart(3)} in flight ${(calls / concurrentSeconds).toFixed(0).padStart(7)} calls/s   (${calls} calls)`);
  } finally {
    await host.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
