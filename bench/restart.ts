/**
 * A restart's downtime on the embedded store: how long a graceful stop takes (HTTP closed, the store
 * closed), how long the next start takes until its first query is answered, and the two together, at
 * each size, twice: right after a bulk load, and after a burst of 100 small writes on the reopened store.
 *
 *   npm run bench -- restart                  (BENCH_SIZES, default 100,000 and 1,000,000 tasks)
 *   node --max-old-space-size=8192 dist/bench/restart.js [tasks ...]
 *
 * Each size runs in a fresh folder, removed afterwards. To compare two builds, run the same command from
 * each build's dist.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BENCH_SCHEMA, benchTaskBatches, loadData } from './api-data.js';
import { startAutograph, type AutographService } from './autograph-service.js';
import { firstAnswer } from './measure.js';
import { MIB } from './memory.js';
import { sizesFrom } from './sizes.js';

const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;
const fileSize = (file: string): number => (fs.existsSync(file) ? fs.statSync(file).size : 0);


interface Restart {
  service: AutographService;
  row: string;
}

/** Stops `service`, starts it again on `folder`, and times both. */
async function restart(label: string, folder: string, service: AutographService, probeId: string): Promise<Restart> {
  const log = fileSize(path.join(folder, 'wal.log'));
  const stopStarted = performance.now();
  await service.close();
  const stopSeconds = (performance.now() - stopStarted) / 1000;
  const startStarted = performance.now();
  const restarted = await startAutograph(folder);
  await firstAnswer(restarted.url, { query: 'query($id: ID!) { getTask(id: $id) { id } }', variables: { id: probeId } });
  const startSeconds = (performance.now() - startStarted) / 1000;
  const snapshot = fileSize(path.join(folder, 'snapshot.jsonl'));
  const row =
    `  ${label.padEnd(26)} log before stop ${mib(log).padStart(10)}   stop ${stopSeconds.toFixed(2).padStart(6)} s` +
    `   start ${startSeconds.toFixed(2).padStart(6)} s   downtime ${(stopSeconds + startSeconds).toFixed(2).padStart(6)} s   snapshot after ${mib(snapshot)}`;
  return { service: restarted, row };
}

async function measureSize(tasks: number): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-restart-'));
  try {
    const loaded = await startAutograph(folder, BENCH_SCHEMA);
    const data = await loadData(loaded.store, tasks);
    const probeId = data.taskIds[0]!;
    console.log(`${tasks.toLocaleString('en')} tasks (load average ${os.loadavg()[0]!.toFixed(1)})`);
    const afterLoad = await restart('after the bulk load', folder, loaded, probeId);
    console.log(afterLoad.row);

    // One write per commit, as a service's clients make them: 100 log records.
    const burst = benchTaskBatches(100, 100).next().value ?? [];
    for (const task of burst) await afterLoad.service.store.collection('Task').insertMany([{ ...task, _id: `burst-${task._id}` }]);
    const afterWrites = await restart('after 100 small writes', folder, afterLoad.service, probeId);
    console.log(afterWrites.row);
    await afterWrites.service.close();
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const named = process.argv.slice(2);
  const sizes = sizesFrom(named.length > 0 ? named.join(',') : process.env.BENCH_SIZES, [100_000, 1_000_000]);
  for (const tasks of sizes) await measureSize(tasks);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
