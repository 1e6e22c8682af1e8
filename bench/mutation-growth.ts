/**
 * The mutation path as the store grows: `addTask` of 100 objects per request over HTTP against an embedded
 * store already holding BENCH_TASKS Tasks (default 100,000; run it again with BENCH_TASKS=1000000), with
 * the store's default compaction threshold. Prints requests/s, p50 and p99 latency, the garbage
 * collector's pauses during the run, and every compaction that happened during the run: how long it kept
 * requests waiting, and how long it took in all.
 *
 *   npm run bench -- growth                          (or, after `npm run build`: node dist/bench/mutation-growth.js)
 *   BENCH_TASKS=1000000 BENCH_SECONDS=20 npm run bench -- growth
 *   BENCH_COMPACT_AFTER_MIB=8 ...                    (a lower floor than the default 32 MiB of log)
 *   BENCH_COMPACT_SHARE=0 ...                        (compact at the floor alone, as before the log had to reach the snapshot's size)
 *
 * The data is loaded through the Store port with compaction held back, then the store is closed (one
 * snapshot) and opened again with the default options, so the run starts from a snapshot and an empty log.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { DEFAULT_COMPACT_AFTER_SNAPSHOT_SHARE, openEmbeddedStore, type CompactionReport } from '../src/store/embedded/index.js';
import { BENCH_SCHEMA, loadData, USERS, usernameOf } from './api-data.js';
import { generateLoad } from './load-generator.js';

/** Tasks loaded before the run (the store size whose growth is measured). */
const TASKS = Number(process.env.BENCH_TASKS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const COMPACT_AFTER_MIB = process.env.BENCH_COMPACT_AFTER_MIB === undefined ? undefined : Number(process.env.BENCH_COMPACT_AFTER_MIB);
const COMPACT_SHARE = process.env.BENCH_COMPACT_SHARE === undefined ? undefined : Number(process.env.BENCH_COMPACT_SHARE);
const BATCH = 100;
/** Request bodies the load generator cycles through; titles differ per body only (they need not be unique). */
const BODIES = 50;

/** The event loop's garbage-collection pauses from now until `stop` (a major GC of a large heap holds every request). */
function watchGcPauses(): { stop(): { count: number; totalMs: number; longestMs: number; longestKind: string } } {
  const kinds: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
  let count = 0;
  let totalMs = 0;
  let longestMs = 0;
  let longestKind = 'none';
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      count += 1;
      totalMs += entry.duration;
      if (entry.duration > longestMs) {
        longestMs = entry.duration;
        longestKind = kinds[(entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      return { count, totalMs, longestMs, longestKind };
    },
  };
}

function addTaskBodies(): unknown[] {
  return Array.from({ length: BODIES }, (_, body) => ({
    query: 'mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids } }',
    variables: {
      input: Array.from({ length: BATCH }, (_, i) => ({
        title: `growth ${body}-${i}`,
        priority: 1 + (i % 5),
        completed: i % 2 === 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        user: { username: usernameOf((body * BATCH + i) % USERS) },
      })),
    },
  }));
}

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-growth-'));
  try {
    const loadStarted = performance.now();
    const loading = await openEmbeddedStore(folder, { compactAfterBytes: Number.MAX_SAFE_INTEGER });
    const loadingApp = await createApp({ store: loading, logger: createLogger('silent'), initialSchema: BENCH_SCHEMA });
    await loadData(loading, TASKS);
    await loadingApp.close();
    await loading.close();
    console.log(`loaded ${TASKS} Tasks over ${USERS} Users and wrote one snapshot in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    const compactions: Array<CompactionReport & { duringRun: boolean }> = [];
    let running = true;
    const compactAfterBytes = COMPACT_AFTER_MIB === undefined ? undefined : COMPACT_AFTER_MIB * 2 ** 20;
    const store = await openEmbeddedStore(folder, {
      compactAfterBytes,
      compactAfterSnapshotShare: COMPACT_SHARE,
      onCompacted: (report) => compactions.push({ ...report, duringRun: running }),
    });
    const snapshotMiB = fs.statSync(path.join(folder, 'snapshot.jsonl')).size / 2 ** 20;
    const app = await createApp({ store, logger: createLogger('silent'), initialSchema: BENCH_SCHEMA });
    const server = await startServer({ app, port: 0, host: '127.0.0.1' });
    try {
      const options = {
        url: `${server.url}/graphql`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: addTaskBodies().map((body) => ({ body: JSON.stringify(body) })),
        connections: CONNECTIONS,
        duration: SECONDS,
      } as autocannon.Options;
      const pauses = watchGcPauses();
      const result = await generateLoad(options);
      running = false;
      const gc = pauses.stop();
      console.log(
        `addTask of ${BATCH} objects at ${TASKS} Tasks (${CONNECTIONS} connections, ${SECONDS} s, compaction once the log passes ${COMPACT_AFTER_MIB ?? 32} MiB ` +
          `and ${COMPACT_SHARE ?? DEFAULT_COMPACT_AFTER_SNAPSHOT_SHARE} x the snapshot's ${snapshotMiB.toFixed(0)} MiB; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}): ` +
          `${(result.requests / result.seconds).toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, failures ${result.failures}, RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
      );
      console.log(`  garbage collection during the run: ${gc.count} pauses, ${gc.totalMs.toFixed(0)} ms in all, the longest ${gc.longestMs.toFixed(0)} ms (${gc.longestKind})`);
    } finally {
      await server.close();
      await store.close();
    }
    // Listed after the close, which waits for a compaction still writing in the background (and then
    // compacts the rest of the log itself).
    for (const [i, compaction] of compactions.entries()) {
      const when = compaction.duringRun ? 'during the run' : 'after the run (finishing, or on close)';
      console.log(`  compaction ${i + 1} ${when}: ${compaction.documents} documents, requests blocked ${compaction.blockedMs.toFixed(0)} ms, done after ${compaction.totalMs.toFixed(0)} ms`);
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
