/**
 * What a deadline costs the embedded store's long scans: each operation runs without a deadline and with
 * one far ahead (so it never fires; only the checks cost). Also how long one such scan holds the event
 * loop, which is what a client waiting behind it sees. Prints ms per operation; no assertions.
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

/** Median ms per run: the scans run one after another, each holding the event loop for its whole length. */
async function median(run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
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
    console.log(`${DOCUMENTS} documents, median of ${REPEAT} runs`);
    console.log(`${'scan'.padEnd(42)} ${'no deadline'.padStart(12)} ${'deadline'.padStart(12)} ${'cost'.padStart(8)}`);
    for (const [label, scan] of SCANS) {
      await scan(posts, undefined); // warm up
      const without = await median(() => scan(posts, undefined));
      const withDeadline = await median(() => scan(posts, { deadline: Date.now() + 3_600_000 }));
      const cost = ((withDeadline / without - 1) * 100).toFixed(1);
      console.log(`${label.padEnd(42)} ${without.toFixed(2).padStart(9)} ms ${withDeadline.toFixed(2).padStart(9)} ms ${cost.padStart(6)} %`);
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
