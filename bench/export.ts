/**
 * Export, import and backup of the embedded store over HTTP, at BENCH_OBJECTS objects (default 1,000,000
 * Tasks, plus the 1,000 Users of bench/api-data.ts): throughput, and the resident memory before each
 * operation and at its peak (sampled every 20 ms). Service and client share this process, so the
 * figures include the client's streaming too.
 *
 *   npm run bench -- export                       (or, after `npm run build`: node --expose-gc dist/bench/export.js)
 *   BENCH_OBJECTS=100000 npm run bench -- export
 *
 * Export: `GET /admin/export` streamed into a file. Backup: `POST /admin/backup` into a new folder. Import:
 * the source service is closed first, then the file is streamed into `POST /admin/import` of a service on
 * a fresh embedded store (so the import's figures are not inflated by the source's data).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createApp, type App } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Store } from '../src/store/port.js';
import { BENCH_SCHEMA, loadData, USERS } from './api-data.js';
import { MIB, rssAfterGarbageCollection } from './memory.js';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 1_000_000);

interface Service {
  url: string;
  close(): Promise<void>;
}

async function serve(store: Store, app: App): Promise<Service> {
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  return {
    url: server.url,
    async close() {
      await server.close();
      await app.close();
      await store.close();
    },
  };
}

/** Runs `work`, sampling the resident set size meanwhile. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; rssBefore: number; rssPeak: number }> {
  const rssBefore = rssAfterGarbageCollection();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const result = await work();
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    return { result, seconds: (performance.now() - started) / 1000, rssBefore, rssPeak };
  } finally {
    clearInterval(sampler);
  }
}

function report(what: string, objects: number, bytes: number, run: { seconds: number; rssBefore: number; rssPeak: number }): void {
  console.log(
    `${what.padEnd(8)} ${objects.toLocaleString('en')} objects, ${(bytes / MIB).toFixed(0)} MiB in ${run.seconds.toFixed(1)} s: ` +
      `${Math.round(objects / run.seconds).toLocaleString('en')} objects/s, ${(bytes / MIB / run.seconds).toFixed(1)} MiB/s; ` +
      `RSS ${(run.rssBefore / MIB).toFixed(0)} MiB before, ${(run.rssPeak / MIB).toFixed(0)} MiB at peak (+${((run.rssPeak - run.rssBefore) / MIB).toFixed(0)} MiB)`,
  );
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-export-'));
  const file = path.join(work, 'export.ndjson');
  const objects = OBJECTS + USERS;
  try {
    const loadStarted = performance.now();
    const sourceStore = await openEmbeddedStore(path.join(work, 'source'), { compactAfterBytes: Number.MAX_SAFE_INTEGER });
    const sourceApp = await createApp({ store: sourceStore, logger: createLogger('silent'), initialSchema: BENCH_SCHEMA });
    await loadData(sourceStore, OBJECTS);
    console.log(`loaded ${OBJECTS.toLocaleString('en')} Tasks over ${USERS} Users in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
    const source = await serve(sourceStore, sourceApp);

    const exported = await measured(async () => {
      const response = await fetch(`${source.url}/admin/export`);
      if (!response.ok || response.body === null) throw new Error(`export answered ${response.status}: ${await response.text()}`);
      await pipeline(Readable.fromWeb(response.body as never), fs.createWriteStream(file));
    });
    const bytes = fs.statSync(file).size;
    report('export', objects, bytes, exported);

    const backup = await measured(async () => {
      const response = await fetch(`${source.url}/admin/backup`, { method: 'POST', body: JSON.stringify({ folder: path.join(work, 'backup') }) });
      if (!response.ok) throw new Error(`backup answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { data: { bytes: number } }).data.bytes;
    });
    report('backup', objects, backup.result, backup);
    await source.close();

    const targetStore = await openEmbeddedStore(path.join(work, 'target'));
    const target = await serve(targetStore, await createApp({ store: targetStore, logger: createLogger('silent') }));
    const imported = await measured(async () => {
      const body = Readable.toWeb(fs.createReadStream(file)) as unknown as RequestInit['body'];
      const response = await fetch(`${target.url}/admin/import`, { method: 'POST', body, duplex: 'half' } as RequestInit);
      if (!response.ok) throw new Error(`import answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { data: { total: number } }).data.total;
    });
    report('import', imported.result, bytes, imported);
    console.log(`after the import: RSS ${(rssAfterGarbageCollection() / MIB).toFixed(0)} MiB with the ${imported.result.toLocaleString('en')} objects in memory`);
    await target.close();
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
