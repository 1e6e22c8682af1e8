import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Compactor } from '../../src/store/embedded/compactor.js';
import { Database } from '../../src/store/embedded/database.js';
import { openEmbeddedStore, type CompactionReport } from '../../src/store/embedded/index.js';
import { replayLogs } from '../../src/store/embedded/write-ahead-log.js';
import { until } from '../helpers/wait.js';

/**
 * The compactor's life cycle seen from the store: a background compaction that fails is reported and
 * leaves every write in the logs, the next one then runs at once and succeeds; a close waits for the one
 * running.
 */

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-compactor-'));
});
afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

const previousLog = () => path.join(folder, 'wal.previous.log');
const temporarySnapshot = () => path.join(folder, 'snapshot.jsonl.tmp');
const padding = 'x'.repeat(600);

describe('the compactor', () => {
  it('reports a background compaction that fails, keeps every write, and compacts at once on the next commit', async () => {
    const errors: Error[] = [];
    const compactions: CompactionReport[] = [];
    const store = await openEmbeddedStore(folder, {
      compactAfterBytes: 2048,
      compactAfterSnapshotShare: 0,
      onBackgroundError: (error) => errors.push(error),
      onCompacted: (report) => compactions.push(report),
    });
    // The snapshot's temporary file cannot be created while a folder has its name.
    fs.mkdirSync(temporarySnapshot());
    const items = store.collection('Item');
    let written = 0;
    while (errors.length === 0) {
      await items.insertMany([{ _id: `i${String(written).padStart(3, '0')}`, padding }]);
      written += 1;
      if (written > 100) throw new Error('no compaction was attempted');
    }
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(compactions).toEqual([]);
    expect(fs.existsSync(previousLog())).toBe(true);

    fs.rmdirSync(temporarySnapshot());
    // The previous log still waits for a snapshot: the next compaction folds both logs in at once (blocking).
    while (compactions.length === 0) {
      await items.insertMany([{ _id: `i${String(written).padStart(3, '0')}`, padding }]);
      written += 1;
    }
    expect(compactions[0]!.documents).toBe(written);
    expect(compactions[0]!.blockedMs).toBe(compactions[0]!.totalMs);
    expect(fs.existsSync(previousLog())).toBe(false);
    expect(errors).toHaveLength(1);

    // Then compactions run in the background again.
    const count = compactions.length;
    while (compactions.length === count) {
      await items.insertMany([{ _id: `i${String(written).padStart(3, '0')}`, padding }]);
      written += 1;
    }
    await until(() => !fs.existsSync(previousLog()));
    expect(compactions.at(-1)!.blockedMs).toBeLessThan(compactions.at(-1)!.totalMs);
    await store.close();

    const reopened = await openEmbeddedStore(folder);
    expect(await reopened.collection('Item').count({})).toBe(written);
    await reopened.close();
  });

  it('close waits for the background compaction running, which then holds every write', async () => {
    const compactions: CompactionReport[] = [];
    const store = await openEmbeddedStore(folder, { compactAfterBytes: 2048, compactAfterSnapshotShare: 0, onCompacted: (report) => compactions.push(report) });
    const items = store.collection('Item');
    let written = 0;
    while (!fs.existsSync(previousLog())) {
      await items.insertMany([{ _id: `i${String(written).padStart(3, '0')}`, padding }]);
      written += 1;
    }
    await store.close();
    expect(compactions).toHaveLength(1);
    expect(compactions[0]!.blockedMs).toBeLessThan(compactions[0]!.totalMs);
    expect(fs.existsSync(previousLog())).toBe(false);
    expect(fs.existsSync(temporarySnapshot())).toBe(false);

    const reopened = await openEmbeddedStore(folder);
    expect(await reopened.collection('Item').count({})).toBe(written);
    await reopened.close();
  });
});

describe('a compaction lets go of its freezes', () => {
  async function compactorOver(documents: number): Promise<{ compactor: Compactor; database: Database; errors: Error[]; close: () => void }> {
    const database = new Database();
    for (const name of ['A', 'B']) for (let i = 0; i < documents; i++) database.ensure(name).put({ _id: `${name}${i}`, padding });
    const { log } = replayLogs(folder, 0, () => undefined);
    await log.append({ seq: 1, ops: [{ op: 'put', collection: 'A', documents: [{ _id: 'A0', padding }] }] });
    const errors: Error[] = [];
    const compactor = new Compactor(folder, database, log, { policy: { minLogBytes: 0, snapshotShare: 0 }, onError: (error) => errors.push(error) }, false, 0);
    return { compactor, database, errors, close: () => log.close() };
  }
  const openFreezes = (database: Database) => database.all().map((state) => state.openFreezes);

  it('at once, whether the snapshot is written or not', async () => {
    const { compactor, database, close } = await compactorOver(20);
    compactor.compactNow(1);
    expect(openFreezes(database)).toEqual([0, 0]);
    fs.mkdirSync(temporarySnapshot());
    expect(() => compactor.compactNow(1)).toThrow('EISDIR');
    expect(openFreezes(database)).toEqual([0, 0]);
    close();
  });

  it('in the background, whether the snapshot is written or not', async () => {
    const { compactor, database, errors, close } = await compactorOver(20);
    compactor.afterCommit(1);
    expect(openFreezes(database)).toEqual([1, 1]);
    await compactor.idle();
    expect(openFreezes(database)).toEqual([0, 0]);
    expect(errors).toEqual([]);
    close();

    const failing = await compactorOver(20);
    fs.mkdirSync(temporarySnapshot());
    failing.compactor.afterCommit(1);
    await failing.compactor.idle();
    expect(openFreezes(failing.database)).toEqual([0, 0]);
    expect(failing.errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['EISDIR']);
    failing.close();
  });
});

