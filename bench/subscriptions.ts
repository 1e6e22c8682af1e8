/**
 * Subscriptions under write load (issue 15): BENCH_SUBSCRIBERS graphql-ws subscribers (default 1,000) on
 * BENCH_QUERIES distinct queries (default 10, one per group of Items: with BENCH_QUERY=feed, the default, the
 * group's Items added since the run began, newest first; with BENCH_QUERY=top, its newest 50) over BENCH_OBJECTS
 * stored Items (default 100,000), while a writer adds BENCH_WRITES objects per second (default 100), one
 * per mutation, for BENCH_SECONDS (default 10). The service runs in this process on the embedded store;
 * the subscribers in BENCH_CLIENT_PROCESSES child processes (default 2), the writer in one more
 * (bench/subscription-clients.ts).
 *
 * Prints the delay from each object's commit (seen here, when its transaction returned) to its arrival at
 * each subscriber of its group (p50, p99, max), the objects delivered against those expected, and the
 * service's CPU and RSS over the run.
 *
 *   npm run bench -- subscriptions
 *   BENCH_SUBSCRIBERS=100 BENCH_OBJECTS=10000 BENCH_SECONDS=5 npm run bench -- subscriptions   (smaller first)
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Collection, Store, StoredDocument } from '../src/store/port.js';
import { withCollections } from '../src/store/with-collections.js';
import { MIB, rssAfterGarbageCollection } from './memory.js';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 10);
const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 100_000);
const WRITES = Number(process.env.BENCH_WRITES ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DEBOUNCE_MS = Number(process.env.BENCH_DEBOUNCE_MS ?? 20);
const CLIENT_PROCESSES = Math.max(1, Number(process.env.BENCH_CLIENT_PROCESSES ?? 2));

const SCHEMA = `type Item @withSubscription {
  id: ID!
  seq: Int! @search
  group: Int! @search
}`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `store`, noting when the transaction (or the lone insert) that added each Item's `seq` returned: its commit. */
function notingCommits(store: Store, committedAt: Map<number, number>): Store {
  const pending = new Map<number, number[]>();
  const items = (inner: Collection): Collection =>
    new Proxy(inner, {
      get(target, property) {
        if (property === 'insertMany') {
          return async (documents: StoredDocument[], scope?: { tx?: { id: number } }) => {
            await target.insertMany(documents, scope);
            const seqs = documents.map((document) => document.seq as number);
            if (scope?.tx) pending.set(scope.tx.id, [...(pending.get(scope.tx.id) ?? []), ...seqs]);
            else for (const seq of seqs) committedAt.set(seq, Date.now());
          };
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const wrapped = withCollections(store, (name) => (name === 'Item' ? items(store.collection(name)) : store.collection(name)));
  return {
    ...wrapped,
    kind: store.kind,
    async transaction(work) {
      let id = 0;
      const result = await store.transaction((tx) => {
        id = tx.id;
        return work(tx);
      });
      const now = Date.now();
      for (const seq of pending.get(id) ?? []) committedAt.set(seq, now);
      pending.delete(id);
      return result;
    },
  };
}

interface ClientReport {
  writes: number;
  failures: number;
  receipts: Array<[number, number]>;
  sent: Array<[number, number]>;
}

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-subscriptions-'));
  const query = process.env.BENCH_QUERY === 'top' ? 'top' : 'feed';
  const opened = await openEmbeddedStore(folder);
  const committedAt = new Map<number, number>();
  const store = notingCommits(opened, committedAt);
  const app = await createApp({
    store,
    logger: createLogger('silent'),
    initialSchema: SCHEMA,
    subscriptions: { debounceMs: DEBOUNCE_MS, maxPerConnection: 10, maxTotal: Math.max(SUBSCRIBERS, 1) },
  });
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  try {
    const loadStarted = Date.now();
    for (let start = 0; start < OBJECTS; start += 10_000) {
      const batch = Array.from({ length: Math.min(10_000, OBJECTS - start) }, (_, i) => ({ _id: `item-${start + i}`, seq: start + i, group: (start + i) % QUERIES }));
      await opened.collection('Item').insertMany(batch);
    }
    console.log(`loaded ${OBJECTS.toLocaleString('en')} Items in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`);
    const rssBefore = rssAfterGarbageCollection();

    const children: Array<ChildProcessByStdio<Writable, Readable, null>> = [];
    const ready: Array<Promise<void>> = [];
    const reports: Array<Promise<ClientReport>> = [];
    let wrote: Promise<number> = Promise.resolve(0);
    const subscribeStarted = Date.now();
    // The writer has a process of its own (the last), so that receiving results never delays its writes.
    for (let index = 0; index <= CLIENT_PROCESSES; index++) {
      const writer = index === CLIENT_PROCESSES;
      const share = writer ? 0 : Math.floor(SUBSCRIBERS / CLIENT_PROCESSES) + (index < SUBSCRIBERS % CLIENT_PROCESSES ? 1 : 0);
      const offset = writer ? 0 : index * Math.floor(SUBSCRIBERS / CLIENT_PROCESSES) + Math.min(index, SUBSCRIBERS % CLIENT_PROCESSES);
      const child = spawn(
        process.execPath,
        [path.join(__dirname, 'subscription-clients.js'), server.url, String(share), String(QUERIES), String(offset), String(OBJECTS), String(writer ? WRITES : 0), String(SECONDS)],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      children.push(child);
      const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      /** The next JSON line; anything else a client prints is passed on to stderr. */
      const next = async (): Promise<Record<string, unknown>> => {
        for (;;) {
          const { value, done } = await lines.next();
          if (done) return { ended: true };
          try {
            return JSON.parse(value as string) as Record<string, unknown>;
          } catch {
            process.stderr.write(`client ${index}: ${String(value)}\n`);
          }
        }
      };
      const readyLine = next();
      ready.push(readyLine.then((line) => {
        if (line.failures !== 0 || line.ready !== share) throw new Error(`client process ${index}: ${JSON.stringify(line)}`);
      }));
      if (writer) {
        const wroteLine = readyLine.then(() => next());
        wrote = wroteLine.then((line) => line.wrote as number);
        reports.push(wroteLine.then(() => next()).then((line) => line as unknown as ClientReport));
      } else {
        reports.push(readyLine.then(() => next()).then((line) => line as unknown as ClientReport));
      }
    }
    await Promise.all(ready);
    console.log(`${SUBSCRIBERS} subscribers got their first result in ${((Date.now() - subscribeStarted) / 1000).toFixed(1)} s (${app.liveRegistry.executions} distinct executions); writing for ${SECONDS} s`);

    const cpuAtStart = process.cpuUsage();
    const wallAtStart = Date.now();
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
    for (const child of children) child.stdin.write('go\n');
    const writes = await wrote;
    // Writes still queued commit late on a loaded machine: wait for them (a minute at most), then for their deliveries.
    const waitUntil = Date.now() + 60_000;
    while (committedAt.size < writes && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const child of children) child.stdin.write('stop\n');
    const done = await Promise.all(reports);
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpuAtStart);
    const wallMs = Date.now() - wallAtStart;
    const rssAfter = rssAfterGarbageCollection();

    const failures = done.reduce((sum, report) => sum + report.failures, 0);
    const delays = done.flatMap((report) => report.receipts.map(([seq, at]) => at - (committedAt.get(seq) ?? NaN))).filter((delay) => !Number.isNaN(delay)).sort((a, b) => a - b);
    const sentAt = new Map(done.flatMap((report) => report.sent));
    const commitDelays = [...sentAt].map(([seq, at]) => (committedAt.get(seq) ?? NaN) - at).filter((delay) => !Number.isNaN(delay)).sort((a, b) => a - b);
    const expected = commitDelays.length * (SUBSCRIBERS / QUERIES);
    console.log(
      `subscriptions: ${SUBSCRIBERS} subscribers, ${QUERIES} ${query} queries, ${OBJECTS.toLocaleString('en')} Items, ${WRITES} writes/s for ${SECONDS} s, debounce ${DEBOUNCE_MS} ms, ` +
        `${CLIENT_PROCESSES} client processes (${os.cpus().length} CPUs shared, load ${os.loadavg()[0]!.toFixed(1)})\n` +
        `  commit → delivery: p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms, max ${delays.at(-1)} ms over ${delays.length} deliveries of ${expected} expected\n` +
        `  mutation sent → commit: p50 ${percentile(commitDelays, 50)} ms, p99 ${percentile(commitDelays, 99)} ms; ${commitDelays.length} of ${writes} writes committed, ${failures} failures\n` +
        `  service CPU ${(((cpu.user + cpu.system) / 1000 / wallMs) * 100).toFixed(0)}% of one core (user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms over ${wallMs} ms); ` +
        `RSS ${(rssBefore / MIB).toFixed(0)} MiB before, peak ${(peakRss / MIB).toFixed(0)} MiB, ${(rssAfter / MIB).toFixed(0)} MiB after; ` +
        `${app.liveRegistry.stats.batches} batches, ${app.liveRegistry.stats.invalidations} shared executions re-run`,
    );
  } finally {
    await server.close();
    await opened.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
