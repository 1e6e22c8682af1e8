import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compactionDue, type CompactionPolicy } from '../../src/store/embedded/compaction-policy.js';
import { openEmbeddedStore, type CompactionReport } from '../../src/store/embedded/index.js';
import { until } from '../helpers/wait.js';

/**
 * A compaction rewrites the whole store, so it waits for the log to reach a share of the last snapshot's
 * size as well as a floor: the compaction work per byte written stays bounded as the store grows.
 */
describe('compactionDue', () => {
  const policy = (minLogBytes: number, snapshotShare: number): CompactionPolicy => ({ minLogBytes, snapshotShare });

  test.each([
    // log bytes, snapshot bytes, policy, due
    ['no snapshot yet: the floor alone', 1001, 0, policy(1000, 1), true],
    ['at the floor: not past it', 1000, 0, policy(1000, 1), false],
    ['past the floor, smaller than the snapshot', 5000, 8000, policy(1000, 1), false],
    ['past the floor, as large as the snapshot', 8000, 8000, policy(1000, 1), true],
    ['half the snapshot with a share of 0.5', 4000, 8000, policy(1000, 0.5), true],
    ['just under half the snapshot with a share of 0.5', 3999, 8000, policy(1000, 0.5), false],
    ['share 0: the floor alone, whatever the snapshot', 1001, 10 ** 9, policy(1000, 0), true],
    ['as large as the snapshot but not past the floor', 500, 400, policy(1000, 1), false],
  ] as const)('%s', (_case, logBytes, snapshotBytes, given, due) => {
    expect(compactionDue(logBytes, snapshotBytes, given)).toBe(due);
  });
});

describe('the embedded store compacts by the policy', () => {
  const folders: string[] = [];
  afterAll(() => folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

  function tempFolder(): string {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-compaction-policy-'));
    folders.push(folder);
    return folder;
  }

  /** A folder whose snapshot holds `count` documents of about 1 KiB each, and whose log is empty. */
  async function storeWithSnapshot(count: number): Promise<string> {
    const folder = tempFolder();
    // Any log is due: the insert's commit compacts it (in the background; close waits for it).
    const store = await openEmbeddedStore(folder, { compactAfterBytes: 0, compactAfterSnapshotShare: 0 });
    await store.collection('Big').insertMany(Array.from({ length: count }, (_, i) => ({ _id: `b${i}`, text: 'x'.repeat(1000) })));
    await store.close();
    expect(fs.statSync(path.join(folder, 'wal.log')).size).toBe(0);
    expect(fs.statSync(path.join(folder, 'snapshot.jsonl')).size).toBeGreaterThan(count * 1000);
    return folder;
  }

  const logSize = (folder: string) => fs.statSync(path.join(folder, 'wal.log')).size;

  /**
   * Inserts one small document after another until the log is rotated (the compaction that does it runs
   * as a unit of its own, right after the commit that took the log past the threshold); the log's largest
   * size seen before.
   */
  async function writeUntilCompactionStarts(folder: string, store: Awaited<ReturnType<typeof openEmbeddedStore>>): Promise<{ sizeBefore: number; written: number }> {
    let written = 0;
    let sizeBefore = logSize(folder);
    for (;;) {
      await store.collection('Small').insertMany([{ _id: `s${written}`, n: written }]);
      written += 1;
      const size = logSize(folder);
      if (size < sizeBefore) return { sizeBefore, written };
      sizeBefore = size;
    }
  }

  it('keeps logging past the floor until the log is as large as the snapshot it was opened with, then compacts', async () => {
    const folder = await storeWithSnapshot(64);
    const snapshotBytes = fs.statSync(path.join(folder, 'snapshot.jsonl')).size;
    const compactions: CompactionReport[] = [];
    const store = await openEmbeddedStore(folder, { compactAfterBytes: 2048, onCompacted: (report) => compactions.push(report) });
    const { sizeBefore, written } = await writeUntilCompactionStarts(folder, store);
    // It started with the first commit that took the log to the snapshot's size (one record is under 100 bytes).
    expect(sizeBefore).toBeLessThan(snapshotBytes + 100);
    expect(sizeBefore).toBeGreaterThan(snapshotBytes - 100);
    await until(() => compactions.length > 0 && !fs.existsSync(path.join(folder, 'wal.previous.log')));
    expect(compactions).toHaveLength(1);
    // Frozen after the insert that took the log past the threshold (seen at the latest one insert later).
    expect(compactions[0]!.documents).toBeGreaterThanOrEqual(64 + written - 1);
    expect(compactions[0]!.documents).toBeLessThanOrEqual(64 + written);
    await store.close();

    const reopened = await openEmbeddedStore(folder);
    expect(await reopened.collection('Small').count({})).toBe(written);
    expect(await reopened.collection('Big').count({})).toBe(64);
    await reopened.close();
  });

  it('with a share of 0, compacts as soon as the log passes the floor, whatever the snapshot', async () => {
    const folder = await storeWithSnapshot(64);
    const store = await openEmbeddedStore(folder, { compactAfterBytes: 2048, compactAfterSnapshotShare: 0 });
    const { sizeBefore } = await writeUntilCompactionStarts(folder, store);
    expect(sizeBefore).toBeLessThan(2048 + 100);
    expect(sizeBefore).toBeGreaterThan(2048 - 100);
    await store.close();
  });

  describe('on close', () => {
    it('keeps a log the policy would not compact yet: closing does not rewrite the store, and reopening replays the log', async () => {
      const folder = await storeWithSnapshot(64);
      const snapshotBefore = fs.readFileSync(path.join(folder, 'snapshot.jsonl'));
      const compactions: CompactionReport[] = [];
      const store = await openEmbeddedStore(folder, { compactAfterBytes: 2048, onCompacted: (report) => compactions.push(report) });
      for (let i = 0; i < 10; i++) await store.collection('Small').insertMany([{ _id: `s${i}`, n: i }]);
      const logBefore = logSize(folder);
      expect(logBefore).toBeGreaterThan(0);
      await store.close();

      expect(compactions).toEqual([]);
      expect(logSize(folder)).toBe(logBefore);
      expect(fs.readFileSync(path.join(folder, 'snapshot.jsonl')).equals(snapshotBefore)).toBe(true);
      const reopened = await openEmbeddedStore(folder);
      expect(await reopened.collection('Small').find({}, { sort: { n: 1 } })).toEqual(Array.from({ length: 10 }, (_, i) => ({ _id: `s${i}`, n: i })));
      expect(await reopened.collection('Big').count({})).toBe(64);
      await reopened.close();
    });

    it('compacts a log that is due by the policy it was opened with', async () => {
      const folder = await storeWithSnapshot(4);
      const writer = await openEmbeddedStore(folder, { compactAfterBytes: Number.MAX_SAFE_INTEGER });
      for (let i = 0; i < 10; i++) await writer.collection('Small').insertMany([{ _id: `s${i}`, n: i }]);
      await writer.close();
      const logBefore = logSize(folder);
      expect(logBefore).toBeGreaterThan(500);

      // Opened with a floor the log is already past, and no share of the snapshot: due before any write.
      const compactions: CompactionReport[] = [];
      const store = await openEmbeddedStore(folder, { compactAfterBytes: 500, compactAfterSnapshotShare: 0, onCompacted: (report) => compactions.push(report) });
      await store.close();
      expect(compactions.map((report) => report.documents)).toEqual([14]);
      expect(logSize(folder)).toBe(0);
      const reopened = await openEmbeddedStore(folder);
      expect(await reopened.collection('Small').count({})).toBe(10);
      expect(await reopened.collection('Big').count({})).toBe(4);
      await reopened.close();
    });
  });
});
