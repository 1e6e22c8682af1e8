/**
 * Embedded store micro-benchmark: one collection of 100,000 documents (BENCH_DOCUMENTS), then the lookups
 * the service relies on, then the reads of the API bench's Task data answered from indexes (count of a
 * 50% match, ordered first 20, range, term + Boolean count) and the resident memory per 100,000 Tasks. Prints milliseconds per operation; no assertions (timings belong here, not in tests).
 * Run after `npm run build`: node dist/bench/store.js   (BENCH_DOCUMENTS=10000 for a quicker run), or from
 * source: node -e "require('ts-node').register({ transpileOnly: true, experimentalResolver: true }); require('./bench/store.ts')"
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Store } from '../src/store/port.js';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 100_000);
const BATCH = 1_000;

/** Prints wall and CPU milliseconds per operation (CPU time is steadier when other work shares the cores). */
async function time<T>(label: string, repeat: number, run: (i: number) => Promise<T>): Promise<void> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < repeat; i++) await run(i);
  const total = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(`${label.padEnd(52)} ${(total / repeat).toFixed(3).padStart(10)} ms/op ${(cpuMs / repeat).toFixed(3).padStart(10)} cpu ms/op  (${repeat}x)`);
}

const idOf = (i: number): string => i.toString(16).padStart(24, '0');

async function fill(store: Store): Promise<void> {
  await store.syncIndexes('Author', [], 'ag_');
  await store.syncIndexes(
    'Post',
    [
      { name: 'ag_id_slug', keys: { slug: 1 }, unique: true, sparse: true },
      { name: 'ag_rel_author', keys: { author: 1 }, sparse: false },
      { name: 'ag_term_title', keys: { _term_title: 1 } },
    ],
    'ag_',
  );
  await store.collection('Author').insertMany(
    Array.from({ length: 1_000 }, (_, i) => ({ _id: `author${i}`, name: `Author ${i}` })),
  );
  await time(`insertMany ${BATCH} posts (to ${DOCUMENTS})`, DOCUMENTS / BATCH, (batch) =>
    store.collection('Post').insertMany(
      Array.from({ length: BATCH }, (_, j) => {
        const i = batch * BATCH + j;
        return {
          _id: idOf(i),
          slug: `post-${i}`,
          title: `Post number ${i}`,
          _term_title: ['post', 'number', String(i)],
          score: i % 1000,
          author: `author${i % 1000}`,
          published: i % 3 === 0,
        };
      }),
    ),
  );
}

const WORDS = ['urgent', 'review', 'invoice', 'deploy', 'meeting', 'report', 'design', 'budget', 'client', 'backup'];
const START = Date.UTC(2024, 0, 1);
const createdAtOf = (i: number): string => new Date(START + i * 60_000).toISOString();

/** Tasks as the service stores them (see api-data.ts), with the indexes their `@search` fields get. */
async function fillTasks(store: Store): Promise<void> {
  await store.syncIndexes(
    'Task',
    [
      { name: 'ag_search_priority', keys: { priority: 1 } },
      { name: 'ag_search_completed', keys: { completed: 1 } },
      { name: 'ag_search_createdAt', keys: { createdAt: 1 } },
      { name: 'ag_term_title', keys: { _term_title: 1 } },
      { name: 'ag_rel_user', keys: { user: 1 } },
    ],
    'ag_',
  );
  const batch = 10_000;
  const rssBefore = process.memoryUsage().rss;
  const start = performance.now();
  for (let offset = 0; offset < DOCUMENTS; offset += batch) {
    await store.collection('Task').insertMany(
      Array.from({ length: Math.min(batch, DOCUMENTS - offset) }, (_, j) => {
        const i = offset + j;
        const words = [WORDS[(i * 7) % 10]!, WORDS[(i * 13 + 3) % 10]!, WORDS[(i * 31 + 5) % 10]!];
        return {
          _id: idOf(i),
          title: `${words.join(' ')} #${i}`,
          _term_title: [...new Set(words)],
          priority: 1 + ((i * 17) % 5),
          completed: ((Math.imul(i, 2654435761) >>> 16) & 1) === 1,
          createdAt: createdAtOf(i),
          user: `user${i % 1000}`,
        };
      }),
    );
  }
  global.gc?.();
  const rss = process.memoryUsage().rss - rssBefore;
  console.log(`load ${DOCUMENTS} tasks: ${(performance.now() - start).toFixed(0)} ms, RSS +${((rss / DOCUMENTS) * 100_000 / 2 ** 20).toFixed(1)} MiB per 100,000 tasks`);
}

async function taskReads(store: Store): Promise<void> {
  const tasks = store.collection('Task');
  const quarter = createdAtOf(Math.floor(DOCUMENTS / 4));
  const half = createdAtOf(Math.floor(DOCUMENTS / 2));
  const firstOrdered = performance.now();
  await tasks.find({}, { sort: { createdAt: -1, _id: 1 }, limit: 1 });
  await tasks.find({}, { sort: { priority: 1, _id: 1 }, limit: 1 });
  console.log(`  (first ordered reads, which build the ordered keys of createdAt and priority: ${(performance.now() - firstOrdered).toFixed(0)} ms)`);
  console.log(`  (counts: completed ${await tasks.count({ completed: true })}, term + open ${await tasks.count({ _term_title: { $in: ['urgent'] }, completed: false })})`);
  await time('Task count completed (50% match)', 20, () => tasks.count({ completed: true }));
  await time('Task aggregate completed: count, priority min/max/avg', 10, () =>
    tasks.aggregate([
      { $match: { completed: true } },
      { $group: { _id: null, count: { $sum: 1 }, priorityMin: { $min: '$priority' }, priorityMax: { $max: '$priority' }, priorityAvg: { $avg: '$priority' } } },
    ]),
  );
  await time('Task count term + open (~5% match)', 50, () => tasks.count({ _term_title: { $in: ['urgent'] }, completed: false }));
  await time('Task term + open, order desc createdAt, first 20', 50, () =>
    tasks.find({ _term_title: { $in: ['urgent'] }, completed: false }, { sort: { createdAt: -1, _id: 1 }, limit: 20 }));
  await time('Task order asc priority, first 20 (no filter)', 50, () => tasks.find({}, { sort: { priority: 1, _id: 1 }, limit: 20 }));
  await time('Task range createdAt (2nd quarter), first 20', 50, () =>
    tasks.find({ createdAt: { $gte: quarter, $lt: half } }, { sort: { _id: 1 }, limit: 20 }));
  await time('Task count range createdAt (2nd quarter)', 10, () => tasks.count({ createdAt: { $gte: quarter, $lt: half } }));
  await time('Task count unindexed-style filter ($or, $ne)', 5, () => tasks.count({ $or: [{ priority: { $gt: 3 } }, { title: { $ne: 'x' }, completed: { $ne: true } }] }));
}

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-'));
  let store = await openEmbeddedStore(folder);
  try {
    await fillTasks(store);
    await taskReads(store);
    if (process.env.BENCH_TASKS_ONLY) return;
    await fill(store);
    const posts = store.collection('Post');
    const random = (i: number): number => (i * 7919) % DOCUMENTS;
    await time('find by _id', 2_000, (i) => posts.find({ _id: idOf(random(i)) }));
    await time('find by _id $in (100 ids)', 200, (i) => posts.find({ _id: { $in: Array.from({ length: 100 }, (_, k) => idOf(random(i * 100 + k))) } }));
    await time('find by unique indexed field', 2_000, (i) => posts.find({ slug: `post-${random(i)}` }));
    await time('find by indexed relation field (100 hits)', 200, (i) => posts.find({ author: `author${i % 1000}` }));
    await time('find by term + filter', 200, (i) => posts.find({ _term_title: String(random(i)), published: true }));
    await time('find unindexed, sort, limit 10', 5, (i) => posts.find({ score: { $gte: i } }, { sort: { score: -1, _id: 1 }, limit: 10 }));
    await time('count all', 1_000, () => posts.count({}));
    await time('count unindexed filter', 5, () => posts.count({ published: true }));
    await time('aggregate $match(_id $in 50) + $lookup author', 200, (i) =>
      posts.aggregate([
        { $match: { _id: { $in: Array.from({ length: 50 }, (_, k) => idOf(random(i * 50 + k))) } } },
        { $lookup: { from: 'Author', localField: 'author', foreignField: '_id', as: 'writer' } },
      ]),
    );
    await time('aggregate 1000 authors having a post (let/pipeline $lookup)', 3, () =>
      store.collection('Author').aggregate([
        {
          $lookup: {
            from: 'Post',
            let: { parentId: '$_id' },
            pipeline: [{ $match: { $expr: { $eq: ['$author', '$$parentId'] } } }, { $limit: 1 }, { $project: { _id: 1 } }],
            as: '__has_posts',
          },
        },
        { $match: { '__has_posts.0': { $exists: true } } },
        { $unset: '__has_posts' },
      ]),
    );
    await time('aggregate group by author (full scan)', 3, () =>
      posts.aggregate([{ $group: { _id: '$author', total: { $sum: '$score' } } }]),
    );
    await time('updateMany by _id (auto-commit, fsync)', 500, (i) => posts.updateMany({ _id: idOf(random(i)) }, { $inc: { score: 1 } }));
    await time('transaction: insert + update', 200, (i) =>
      store.transaction(async (tx) => {
        await posts.insertMany([{ _id: `tx${i}`, slug: `tx-${i}`, author: 'author1' }], { tx });
        await posts.updateMany({ _id: idOf(random(i)) }, { $set: { touched: true } }, { tx });
      }),
    );
    await time('close (compaction)', 1, () => store.close());
    await time('open (snapshot load)', 1, async () => {
      store = await openEmbeddedStore(folder);
    });
  } finally {
    await store.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
