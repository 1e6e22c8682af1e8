/**
 * Reopening an embedded store whose write-ahead log is large: how long `openEmbeddedStore` takes and the
 * process's peak RSS, for one or more builds on the same data folder, each open in a fresh child process.
 *
 *   node dist/bench/reopen-log.js write <data folder> <MiB> [distinct tasks]
 *   node dist/bench/reopen-log.js compare <data folder> <dist folder> [dist folder ...]
 *
 * `write` fills `wal.log` (no snapshot) with one record per task insert, about 200-byte task documents, up
 * to <MiB>; with [distinct tasks] the ids repeat, so the log holds that many tasks, each rewritten (as the
 * log's after-images are) until the size is reached. `compare` opens the folder with each build's
 * `src/store/embedded/index.js` in turn, `BENCH_ROUNDS` (default 2) times, and prints one line per open;
 * node options given to it (e.g. --max-old-space-size) are passed to the children. A child never closes
 * the store (closing compacts the log away); its lock is left to a dead pid, which the next open takes over.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../src/store/port.js';

const usage = 'usage: reopen-log.js write <data folder> <MiB> [distinct tasks] | compare <data folder> <dist folder> [dist folder ...]';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const WRITE_CHUNK_BYTES = 8 << 20;
const WORDS = ['review', 'quarterly', 'report', 'draft', 'deploy', 'fix', 'login', 'timeout', 'update', 'docs', 'Grüße', 'Köln'];

interface Opened {
  seconds: number;
  maxRssMiB: number;
  tasks: number;
}

function taskLine(seq: number, id: number): string {
  const word = (n: number): string => WORDS[(id * 7 + n * 13 + seq) % WORDS.length]!;
  const task = {
    _id: `task-${String(id).padStart(9, '0')}`,
    title: `${word(1)} the ${word(2)} ${word(3)} #${seq}`,
    done: seq % 4 === 0,
    priority: seq % 5,
    assignee: `user-${id % 977}`,
    tags: [word(4), word(5)],
    createdAt: new Date(1_780_000_000_000 + seq * 1000).toISOString(),
    estimateHours: (seq % 17) / 2,
  };
  return `${JSON.stringify({ seq, ops: [{ op: 'put', collection: 'Task', documents: [task] }] })}\n`;
}

function writeLog(folder: string, mebibytes: number, distinct: number | undefined): void {
  fs.mkdirSync(folder, { recursive: true });
  const fd = fs.openSync(path.join(folder, 'wal.log'), 'w');
  const target = mebibytes * (1 << 20);
  let written = 0;
  let seq = 0;
  try {
    while (written < target) {
      const lines: string[] = [];
      let length = 0;
      while (length < WRITE_CHUNK_BYTES && written + length < target) {
        seq++;
        const line = taskLine(seq, distinct === undefined ? seq : seq % distinct);
        lines.push(line);
        length += Buffer.byteLength(line);
      }
      const chunk = Buffer.from(lines.join(''));
      for (let offset = 0; offset < chunk.length; ) offset += fs.writeSync(fd, chunk, offset);
      written += chunk.length;
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  console.log(`${folder}/wal.log: ${seq} records, ${(written / (1 << 20)).toFixed(0)} MiB`);
}

/** In the child: opens the folder with the build in `dist`, prints an Opened (or the error) as JSON. */
async function openOnce(dist: string, folder: string): Promise<void> {
  const { openEmbeddedStore } = (await import(path.resolve(dist, 'src/store/embedded/index.js'))) as {
    openEmbeddedStore: (dataDir: string) => Promise<Store>;
  };
  const started = process.hrtime.bigint();
  try {
    const store = await openEmbeddedStore(folder);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const tasks = await store.collection('Task').count({});
    const opened: Opened = { seconds, maxRssMiB: process.resourceUsage().maxRSS / 1024, tasks };
    console.log(JSON.stringify(opened));
  } catch (error) {
    console.log(JSON.stringify({ error: (error as Error).message, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
  }
  process.exit(0);
}

function compare(folder: string, dists: string[]): void {
  const bytes = fs.statSync(path.join(folder, 'wal.log')).size;
  console.log(`${folder}: wal.log ${(bytes / (1 << 20)).toFixed(0)} MiB`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const dist of dists) {
      const output = execFileSync(process.execPath, [...process.execArgv, __filename, 'open', dist, folder], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const result = JSON.parse(output.trim().split('\n').pop()!) as Partial<Opened> & { error?: string; maxRssMiB: number };
      const what = result.error ?? `opened in ${result.seconds!.toFixed(1)} s, ${result.tasks} tasks`;
      console.log(`round ${round} ${dist}: ${what}; peak RSS ${result.maxRssMiB.toFixed(0)} MiB`);
    }
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'write' && args.length >= 2) return writeLog(args[0]!, Number(args[1]), args[2] === undefined ? undefined : Number(args[2]));
  if (command === 'compare' && args.length >= 2) return compare(args[0]!, args.slice(1));
  if (command === 'open' && args.length === 2) return openOnce(args[0]!, args[1]!);
  console.error(usage);
  process.exit(2);
}

void main();
