/**
 * What a deadline costs the embedded store's long scans: each operation runs without a deadline and with
 * one far ahead (so it never fires; only the checks cost). Also the longest the event loop waited while
 * they ran, which is what a client waiting behind a scan sees (reads pause every few ms; the stages of a
 * pipeline after its leading $match do not). Prints ms per operation; no assertions.
 * From source: BENCH_DOCUMENTS=100000 node -e "require('ts-node').register({ transpileOnly: true, experimentalResolver: true }); require('./bench/scan-deadline.ts')"
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Collection, OperationScope } from '../src/store/port.js';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 100_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);

type Scan = (posts: Collection, scope: OperationScope | undefined) => Promise<unknown>;

const SCANS: Array<[string, Scan]> = [
  ['count, unindexed filter', (posts, scope) => posts.count({ published: true }, scope)],
  ['find, unindexed filter, sort, limit 10', (posts, scope) => posts.find({ score: { $gte: 10 } }, { sort: { score: -1, _id: 1 }, limit: 10 }, scope)],
  ['find, unindexed filter, all matches', (posts, scope) => posts.find({ score: { $lt: 500 } }, {}, scope)],
  ['aggregate $match + $group (mingo)', (posts, scope) => posts.aggregate([{ $match: { published: true } }, { $group: { _id: '$author', n: { $count: {} } } }], scope)],
  ['aggregate $addFields over all (mingo)', (posts, scope) => posts.aggregate([{ $addFields: { twice: { $multiply: ['$score', 2] } } }, { $limit: 5 }], scope)],
];

/** Median (or fastest) ms per run, and the longest the event loop waited while the runs went on (a ticker's largest gap). */
async function measure(run: () => Promise<unknown>): Promise<{ ms: number; longestBlockMs: number }> {
  const samples: number[] = [];
  let longestBlockMs = 0;
  let last = performance.now();
  let ticking = true;
  const tick = (): void => {
    const now = performance.now();
    longestBlockMs = Math.max(longestBlockMs, now - last);
    last = now;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  for (let i = 0; i < REPEAT; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
    // Let the ticker run: it notes how long it waited behind this run.
    await new Promise((resolve) => setImmediate(resolve));
  }
  ticking = false;
  samples.sort((x, y) => x - y);
  // BENCH_STAT=min: the fastest run, steadier than the median on a busy machine.
  const ms = process.env.BENCH_STAT === 'min' ? samples[0]! : samples[Math.floor(samples.length / 2)]!;
  return { ms, longestBlockMs };
}

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-deadline-'));
  const store = await openEmbeddedStore(folder);
  try {
    const posts = store.collection('Post');
    for (let start = 0; start < DOCUMENTS; start += 10_000) {
      await posts.insertMany(
        Array.from({ length: Math.min(10_000, DOCUMENTS - start) }, (_, j) => {
          const i = start + j;
          return { _id: `p${i}`, title: `Post ${i}`, score: i % 1000, author: `author${i % 1000}`, published: i % 3 === 0 };
        }),
      );
    }
    const stat = process.env.BENCH_STAT === 'min' ? 'fastest' : 'median';
    console.log(`${DOCUMENTS} documents, ${stat} of ${REPEAT} runs; "block": the longest the event loop waited meanwhile`);
    console.log(`${'scan'.padEnd(42)} ${'no deadline'.padStart(12)} ${'deadline'.padStart(12)} ${'cost'.padStart(8)} ${'block'.padStart(10)}`);
    for (const [label, scan] of SCANS) {
      await scan(posts, undefined); // warm up
      const without = await measure(() => scan(posts, undefined));
      const withDeadline = await measure(() => scan(posts, { deadline: Date.now() + 3_600_000 }));
      const cost = ((withDeadline.ms / without.ms - 1) * 100).toFixed(1);
      const block = Math.max(without.longestBlockMs, withDeadline.longestBlockMs);
      console.log(
        `${label.padEnd(42)} ${without.ms.toFixed(2).padStart(9)} ms ${withDeadline.ms.toFixed(2).padStart(9)} ms ${cost.padStart(6)} % ${block.toFixed(1).padStart(7)} ms`,
      );
    }
  } finally {
    await store.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
