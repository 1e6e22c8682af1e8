import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CorruptLogError,
  DataDirectoryLockedError,
  type CompactionReport,
  InvalidDocumentError,
  openEmbeddedStore,
  StoreClosedError,
} from '../../src/store/embedded/index.js';
import { DeadlineExceededError, DuplicateKeyError, type Filter, type SortSpec, type Store, type StoredDocument } from '../../src/store/port.js';
import { Query } from 'mingo';
import { CHECK_EVERY, YIELD_AFTER_MS } from '../../src/store/embedded/scan-deadline.js';
import { describeStoreContract } from './contract.js';
import { until } from '../helpers/wait.js';

const folders: string[] = [];

function tempFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-embedded-'));
  folders.push(folder);
  return folder;
}

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** The files a crash would leave behind (everything but the lock), copied while the store is still open. */
function copyAsCrashed(from: string): string {
  const to = tempFolder();
  for (const file of fs.readdirSync(from)) {
    if (file !== 'LOCK') fs.copyFileSync(path.join(from, file), path.join(to, file));
  }
  return to;
}

let contractFolder = '';
describeStoreContract(
  'embedded',
  async () => openEmbeddedStore((contractFolder = tempFolder())),
  async () => openEmbeddedStore(contractFolder),
);

describe('embedded store', () => {
  describe('crash safety', () => {
    it('finds every acknowledged write after the writing process is killed with SIGKILL', async () => {
      const folder = tempFolder();
      const writer = spawn(process.execPath, [path.join(__dirname, 'fixtures', 'crash-writer.js'), folder], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const acked: string[] = [];
      let stderr = '';
      let buffered = '';
      writer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      writer.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) if (line.startsWith('acked ')) acked.push(line.slice('acked '.length));
        // Kill it mid-stream, while it keeps writing.
        if (acked.filter((line) => line.startsWith('pair ')).length >= 60) writer.kill('SIGKILL');
      });
      const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        writer.on('close', (code, signal) => resolve({ code, signal })),
      );
      expect(stderr).toBe('');
      expect(exit.signal).toBe('SIGKILL');

      // The dead writer's lock is stale and is taken over.
      const store = await openEmbeddedStore(folder);
      try {
        const crash = store.collection('Crash');
        const inserted = acked.filter((line) => line.startsWith('insert ')).map((line) => line.slice(7));
        const updated = acked.filter((line) => line.startsWith('update ')).map((line) => line.slice(7));
        const pairs = acked.filter((line) => line.startsWith('pair ')).map((line) => line.slice(5));
        expect(pairs.length).toBeGreaterThanOrEqual(60);

        const found = new Set((await crash.find({ _id: { $in: inserted } })).map((document) => document._id));
        expect(inserted.filter((id) => !found.has(id))).toEqual([]);
        expect(await crash.count({ _id: { $in: updated }, updated: true })).toBe(updated.length);
        const pairIds = pairs.flatMap((pair) => [`${pair}a`, `${pair}b`]);
        expect(await store.collection('Pair').count({ _id: { $in: pairIds } })).toBe(pairIds.length);

        // A transaction is all or nothing even when the crash came during it.
        const halves = (await store.collection('Pair').find({})).map((document) => document._id);
        const byPair = new Map<string, number>();
        for (const half of halves) byPair.set(half.slice(0, -1), (byPair.get(half.slice(0, -1)) ?? 0) + 1);
        expect([...byPair.values()].filter((count) => count !== 2)).toEqual([]);

        // The unique index survived too.
        await expect(crash.insertMany([{ _id: 'again', code: 'c0' }])).rejects.toBeInstanceOf(DuplicateKeyError);
      } finally {
        await store.close();
      }
    });

    it('ignores a torn last line of the log and keeps appending after it', async () => {
      const folder = tempFolder();
      const store = await openEmbeddedStore(folder);
      await store.collection('Torn').insertMany([{ _id: 't1' }, { _id: 't2' }]);
      await store.collection('Torn').updateMany({ _id: 't1' }, { $set: { v: 1 } });
      const crashed = copyAsCrashed(folder);
      await store.close();
      fs.appendFileSync(path.join(crashed, 'wal.log'), '{"seq":3,"ops":[{"op":"put","collection":"Torn","documents":[{"_id":"t3"');

      const reopened = await openEmbeddedStore(crashed);
      expect(await reopened.collection('Torn').find({}, { sort: { _id: 1 } })).toEqual([{ _id: 't1', v: 1 }, { _id: 't2' }]);
      await reopened.collection('Torn').insertMany([{ _id: 't4' }]);
      const crashedAgain = copyAsCrashed(crashed);
      await reopened.close();

      const again = await openEmbeddedStore(crashedAgain);
      expect((await again.collection('Torn').find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['t1', 't2', 't4']);
      await again.close();
    });

    it('refuses a log that is damaged before its last line', async () => {
      const folder = tempFolder();
      const store = await openEmbeddedStore(folder);
      await store.collection('Bad').insertMany([{ _id: 'b1' }]);
      await store.collection('Bad').insertMany([{ _id: 'b2' }]);
      const crashed = copyAsCrashed(folder);
      await store.close();
      const walPath = path.join(crashed, 'wal.log');
      const lines = fs.readFileSync(walPath, 'utf8').split('\n');
      lines[0] = lines[0]!.slice(0, 10);
      fs.writeFileSync(walPath, lines.join('\n'));

      await expect(openEmbeddedStore(crashed)).rejects.toThrow(CorruptLogError);
      await expect(openEmbeddedStore(crashed)).rejects.toThrow(/wal\.log is corrupt at line 1/);
    });

    it('replays a collection drop from the log: documents and indexes stay gone', async () => {
      const folder = tempFolder();
      const store = await openEmbeddedStore(folder);
      await store.syncIndexes('Gone', [{ name: 'ag_id_code', keys: { code: 1 }, unique: true, sparse: true }], 'ag_');
      await store.collection('Gone').insertMany([{ _id: 'g1', code: 'A' }]);
      await store.dropCollection('Gone');
      await store.collection('Gone').insertMany([{ _id: 'g2', code: 'A' }]);
      const crashed = copyAsCrashed(folder);
      await store.close();

      const reopened = await openEmbeddedStore(crashed);
      expect(await reopened.collection('Gone').find({})).toEqual([{ _id: 'g2', code: 'A' }]);
      expect(await reopened.listIndexes('Gone')).toEqual([]);
      await reopened.close();
    });

    it('leaves no trace of a rolled-back transaction after a restart', async () => {
      const folder = tempFolder();
      const store = await openEmbeddedStore(folder);
      await store.collection('Rb').insertMany([{ _id: 'kept' }]);
      await expect(
        store.transaction(async (tx) => {
          await store.collection('Rb').insertMany([{ _id: 'dropped' }], { tx });
          await store.collection('Rb').deleteMany({ _id: 'kept' }, { tx });
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const crashed = copyAsCrashed(folder);
      await store.close();

      for (const reopened of [await openEmbeddedStore(folder), await openEmbeddedStore(crashed)]) {
        expect(await reopened.collection('Rb').find({})).toEqual([{ _id: 'kept' }]);
        await reopened.close();
      }
    });
  });

  describe('compaction', () => {
    it('moves the log into a snapshot past the threshold (in the background), keeping data and indexes', async () => {
      const folder = tempFolder();
      const compactions: CompactionReport[] = [];
      const store = await openEmbeddedStore(folder, { compactAfterBytes: 2048, onCompacted: (report) => compactions.push(report) });
      await store.syncIndexes('Compact', [{ name: 'ag_id_code', keys: { code: 1 }, unique: true, sparse: true }], 'ag_');
      const compact = store.collection('Compact');
      for (let i = 0; i < 100; i++) await compact.insertMany([{ _id: `k${String(i).padStart(3, '0')}`, code: `c${i}`, n: i }]);
      await compact.updateMany({ n: { $lt: 10 } }, { $inc: { n: 1000 } });
      await compact.deleteMany({ n: { $gte: 90, $lt: 100 } });

      // No compaction may still be writing while the files are copied one by one (a crash is one instant, a copy is not).
      await until(() => compactions.length > 0 && !fs.existsSync(path.join(folder, 'wal.previous.log')));
      expect(fs.existsSync(path.join(folder, 'snapshot.jsonl'))).toBe(true);
      expect(compactions[0]!.documents).toBeGreaterThan(0);
      expect(compactions[0]!.blockedMs).toBeLessThanOrEqual(compactions[0]!.totalMs);
      const crashed = copyAsCrashed(folder);
      // The log left after the last compaction is not due (below the snapshot's size): close keeps it for the next open.
      const logLeft = fs.statSync(path.join(folder, 'wal.log')).size;
      expect(logLeft).toBeGreaterThan(0);
      expect(logLeft).toBeLessThan(fs.statSync(path.join(folder, 'snapshot.jsonl')).size);
      await store.close();
      expect(fs.statSync(path.join(folder, 'wal.log')).size).toBe(logLeft);
      expect(fs.existsSync(path.join(folder, 'wal.previous.log'))).toBe(false);

      for (const source of [folder, crashed]) {
        const reopened = await openEmbeddedStore(source);
        const documents = await reopened.collection('Compact').find({}, { sort: { _id: 1 } });
        expect(documents).toHaveLength(90);
        expect(documents[0]).toEqual({ _id: 'k000', code: 'c0', n: 1000 });
        expect(documents.at(-1)).toEqual({ _id: 'k089', code: 'c89', n: 89 });
        await expect(reopened.collection('Compact').insertMany([{ _id: 'x', code: 'c5' }])).rejects.toBeInstanceOf(DuplicateKeyError);
        await reopened.close();
      }
    });
  });

  describe('compaction while writes go on', () => {
    it('writes made while a background compaction writes its snapshot are neither lost nor applied twice', async () => {
      const folder = tempFolder();
      const compactions: CompactionReport[] = [];
      // About 6 MiB of documents: the snapshot is written in several slices, with writes between them.
      const store = await openEmbeddedStore(folder, { compactAfterBytes: 4 << 20, compactAfterSnapshotShare: 0, onCompacted: (report) => compactions.push(report) });
      const items = store.collection('Busy');
      const padding = 'x'.repeat(1500);
      const expected = new Map<string, { n: number }>();
      for (let batch = 0; batch < 4; batch++) {
        const documents = Array.from({ length: 1000 }, (_, i) => ({ _id: `b${batch}-${String(i).padStart(4, '0')}`, n: 0, padding }));
        await items.insertMany(documents);
        for (const document of documents) expected.set(document._id, { n: 0 });
      }
      expect(fs.existsSync(path.join(folder, 'wal.previous.log'))).toBe(true);
      let writesDuringCompaction = 0;
      for (let round = 1; round <= 5; round++) {
        // Every 50th document, so the log stays below the next compaction's threshold.
        const touched = [...expected.keys()].filter((id) => id.endsWith('00') || id.endsWith('50'));
        await items.updateMany({ _id: { $in: touched } }, { $inc: { n: 1 } });
        for (const id of touched) expected.get(id)!.n++;
        await items.deleteMany({ _id: `b${round}-0000` });
        expected.delete(`b${round}-0000`);
        await items.insertMany([{ _id: `late-${round}`, n: 100 * round }]);
        expected.set(`late-${round}`, { n: 100 * round });
        if (fs.existsSync(path.join(folder, 'wal.previous.log'))) writesDuringCompaction++;
      }
      // Otherwise this test would not test what it says.
      expect(writesDuringCompaction).toBeGreaterThan(0);
      await until(() => compactions.length > 0 && !fs.existsSync(path.join(folder, 'wal.previous.log')));
      expect(compactions.map((report) => report.documents)).toEqual([3000]); // frozen after the third batch had passed 4 MiB of log
      // The snapshot holds the state of its moment, not a later one: every write above came after it.
      const lines = fs.readFileSync(path.join(folder, 'snapshot.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const snapshotted = lines.filter((line) => typeof line._id === 'string');
      expect(lines[1]).toMatchObject({ collection: 'Busy', count: 3000 });
      expect(snapshotted).toHaveLength(3000);
      expect(snapshotted.filter((document) => document.n !== 0)).toEqual([]);
      expect(snapshotted.map((document) => document._id)).toEqual(Array.from({ length: 3000 }, (_, i) => `b${Math.floor(i / 1000)}-${String(i % 1000).padStart(4, '0')}`));
      const crashed = copyAsCrashed(folder);
      await store.close();

      for (const source of [crashed, folder]) {
        const reopened = await openEmbeddedStore(source);
        const documents = await reopened.collection('Busy').find({}, { projection: { n: 1 } });
        expect(new Map(documents.map((document) => [document._id, { n: document.n }]))).toEqual(expected);
        await reopened.close();
      }
    });
  });

  describe('compaction interrupted by a crash', () => {
    it('recovers every acknowledged write from the old snapshot, the rotated log and the log', async () => {
      const folder = tempFolder();
      const store = await openEmbeddedStore(folder, { compactAfterBytes: 2048 });
      await store.syncIndexes('Rotated', [{ name: 'ag_id_code', keys: { code: 1 }, unique: true }], 'ag_');
      const rotated = store.collection('Rotated');
      const acknowledged: string[] = [];
      let crashed: string | undefined;
      // A commit past the threshold rotates the log at once and writes the snapshot afterwards, off the
      // request path: right after that commit, a crash leaves the rotated log beside the old files.
      for (let i = 0; crashed === undefined; i++) {
        await rotated.insertMany([{ _id: `r${i}`, code: `c${i}` }]);
        acknowledged.push(`r${i}`);
        if (fs.existsSync(path.join(folder, 'wal.previous.log'))) crashed = copyAsCrashed(folder);
      }
      await rotated.insertMany([{ _id: 'after', code: 'after' }]);
      await store.close();
      expect(fs.existsSync(path.join(folder, 'wal.previous.log'))).toBe(false);

      expect(fs.existsSync(path.join(crashed, 'wal.previous.log'))).toBe(true);
      const reopened = await openEmbeddedStore(crashed);
      const ids = (await reopened.collection('Rotated').find({}, { sort: { _id: 1 } })).map((document) => document._id);
      expect(ids).toEqual([...acknowledged].sort());
      await expect(reopened.collection('Rotated').insertMany([{ _id: 'dup', code: 'c0' }])).rejects.toBeInstanceOf(DuplicateKeyError);
      await reopened.collection('Rotated').insertMany([{ _id: 'later', code: 'later' }]);
      await reopened.close();
      expect(fs.existsSync(path.join(crashed, 'wal.previous.log'))).toBe(false);

      const again = await openEmbeddedStore(crashed);
      expect(await again.collection('Rotated').count({})).toBe(acknowledged.length + 1);
      await again.close();
      const original = await openEmbeddedStore(folder);
      expect(await original.collection('Rotated').count({})).toBe(acknowledged.length + 1);
      await original.close();
    });
  });

  describe('directory lock', () => {
    it('refuses a second opener of the same folder, naming the folder, until the first closes', async () => {
      const folder = tempFolder();
      const first = await openEmbeddedStore(folder);
      await expect(openEmbeddedStore(folder)).rejects.toBeInstanceOf(DataDirectoryLockedError);
      await expect(openEmbeddedStore(folder)).rejects.toThrow(folder);
      await first.close();
      const second = await openEmbeddedStore(folder);
      await second.close();
    });

    it('takes over a lock naming this process that this process does not hold (a restarted container reuses pids)', async () => {
      const folder = tempFolder();
      fs.writeFileSync(path.join(folder, 'LOCK'), String(process.pid));
      const store = await openEmbeddedStore(folder);
      await expect(openEmbeddedStore(folder)).rejects.toBeInstanceOf(DataDirectoryLockedError);
      await store.close();
    });

    it('takes over a lock left by a process that is gone', async () => {
      const folder = tempFolder();
      const finished = spawnSync(process.execPath, ['-e', '']);
      fs.writeFileSync(path.join(folder, 'LOCK'), String(finished.pid));
      const store = await openEmbeddedStore(folder);
      expect(fs.readFileSync(path.join(folder, 'LOCK'), 'utf8')).toBe(String(process.pid));
      await store.close();
      expect(fs.existsSync(path.join(folder, 'LOCK'))).toBe(false);
    });
  });

  describe('open store', () => {
    let store: Store;
    beforeEach(async () => {
      store = await openEmbeddedStore(tempFolder());
    });
    afterEach(async () => {
      await store.close();
    });

    it('keeps uncommitted writes of a running transaction invisible to other readers', async () => {
      const items = store.collection('Iso');
      await items.insertMany([{ _id: 'a', v: 1 }, { _id: 'b', v: 1 }]);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));

      const running = store.transaction(async (tx) => {
        await items.insertMany([{ _id: 'c', v: 1 }], { tx });
        await items.updateMany({ _id: 'a' }, { $set: { v: 2 } }, { tx });
        await items.deleteMany({ _id: 'b' }, { tx });
        wrote();
        await gate;
      });
      await written;
      try {
        expect(await items.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'a', v: 1 }, { _id: 'b', v: 1 }]);
        expect(await items.count({ v: 1 })).toBe(2);
        expect(await items.find({ _id: { $in: ['a', 'c'] } })).toEqual([{ _id: 'a', v: 1 }]);
        expect(await items.aggregate([{ $group: { _id: null, total: { $sum: '$v' } } }])).toEqual([{ _id: null, total: 2 }]);
      } finally {
        release();
      }
      await running;
      expect(await items.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'a', v: 2 }, { _id: 'c', v: 1 }]);
    });

    it('keeps uncommitted writes invisible to findPerKey through an index, including moves between keys', async () => {
      const items = store.collection('IsoPerKey');
      await store.syncIndexes('IsoPerKey', [{ name: 'test_owner', keys: { owner: 1 } }], 'test_');
      await items.insertMany([{ _id: 'a', owner: 'x' }, { _id: 'b', owner: 'x' }, { _id: 'd', owner: 'y' }]);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));

      const running = store.transaction(async (tx) => {
        await items.insertMany([{ _id: 'c', owner: 'x' }], { tx });
        await items.updateMany({ _id: 'a' }, { $set: { owner: 'y' } }, { tx });
        await items.deleteMany({ _id: 'd' }, { tx });
        wrote();
        await gate;
      });
      await written;
      const byKey = async () => Object.fromEntries([...(await items.findPerKey('owner', ['x', 'y'], {}, { sort: { _id: 1 } }))].map(([key, documents]) => [key, documents.map((document) => document._id)]));
      try {
        expect(await byKey()).toEqual({ x: ['a', 'b'], y: ['d'] });
      } finally {
        release();
      }
      await running;
      expect(await byKey()).toEqual({ x: ['b', 'c'], y: ['a'] });
    });

    it('makes writes without a handle wait for the running transaction', async () => {
      const items = store.collection('Queue');
      const events: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const begun = new Promise<void>((resolve) => (started = resolve));

      const running = store.transaction(async (tx) => {
        started();
        await gate;
        await items.insertMany([{ _id: 'from-tx' }], { tx });
        events.push('transaction wrote');
      });
      await begun;
      const outside = items.insertMany([{ _id: 'outside' }]).then(() => events.push('outside write acknowledged'));
      await new Promise((resolve) => setImmediate(resolve));
      events.push('transaction released');
      release();
      await Promise.all([running, outside]);
      expect(events).toEqual(['transaction released', 'transaction wrote', 'outside write acknowledged']);
    });

    it('refuses, instead of deadlocking, a write without the handle or a nested transaction inside a transaction', async () => {
      const items = store.collection('Deadlock');
      await expect(
        store.transaction(async () => {
          await items.insertMany([{ _id: 'no-handle' }]);
        }),
      ).rejects.toThrow(/inside transaction \d+ without its handle/);
      await expect(store.transaction(async () => store.transaction(async () => 1))).rejects.toThrow(/inside transaction/);
      expect(await items.count({})).toBe(0);
    });

    it('refuses a transaction handle after its transaction has finished', async () => {
      let leaked: unknown;
      await store.transaction(async (tx) => {
        leaked = tx;
      });
      await expect(store.collection('Late').insertMany([{ _id: 'x' }], { tx: leaked as never })).rejects.toThrow(/is not running/);
    });

    it('makes updateMany all or nothing when two updated documents would share a unique key', async () => {
      await store.syncIndexes('Batch', [{ name: 'ag_code', keys: { code: 1 }, unique: true, sparse: true }], 'ag_');
      const items = store.collection('Batch');
      await items.insertMany([{ _id: 'a' }, { _id: 'b' }]);
      await expect(items.updateMany({}, { $set: { code: 'same' } })).rejects.toMatchObject({ field: 'code', value: 'same' });
      expect(await items.count({ code: { $exists: true } })).toBe(0);
    });

    it('enforces unique keys per array element and allows swapping values in one update', async () => {
      await store.syncIndexes('Multi', [{ name: 'ag_tags', keys: { tags: 1 }, unique: true }], 'ag_');
      const items = store.collection('Multi');
      await items.insertMany([{ _id: 'a', tags: ['x', 'y'] }, { _id: 'b', tags: ['z'] }]);
      await expect(items.insertMany([{ _id: 'c', tags: ['q', 'y'] }])).rejects.toMatchObject({ field: 'tags', value: 'y' });
      await items.updateMany({ _id: 'a' }, { $push: { tags: 'x' } });
      expect(await items.find({ tags: 'y' })).toEqual([{ _id: 'a', tags: ['x', 'y', 'x'] }]);
    });

    it('answers index-assisted queries exactly like a full scan', async () => {
      const documents = Array.from({ length: 60 }, (_, i) => ({
        _id: `d${String(i).padStart(2, '0')}`,
        ...(i % 7 === 0 ? {} : { group: `g${i % 5}` }),
        num: i % 4,
        tags: [`t${i % 3}`, `t${i % 6}`],
        nested: { key: i % 2 === 0 ? 'even' : 'odd' },
      }));
      await store.collection('Plain').insertMany(documents);
      await store.syncIndexes(
        'Indexed',
        ['group', 'num', 'tags', 'nested.key'].map((field) => ({ name: `ag_${field}`, keys: { [field]: 1 as const } })),
        'ag_',
      );
      await store.collection('Indexed').insertMany(documents);
      await store.collection('Indexed').updateMany({ num: 3 }, { $set: { num: 33 } });
      await store.collection('Plain').updateMany({ num: 3 }, { $set: { num: 33 } });

      const filters: Filter[] = [
        { group: 'g1' },
        { group: { $in: ['g2', 'g4'] } },
        { group: null },
        { group: { $eq: 'g3' }, num: 1 },
        { num: 33 },
        { num: 3 },
        { num: '1' },
        { tags: 't5' },
        { tags: { $in: ['t0', 't4'] }, num: { $gt: 0 } },
        { 'nested.key': 'odd', $and: [{ group: 'g1' }, { tags: 't1' }] },
        { $or: [{ group: 'g1' }, { num: 0 }] },
        { _id: { $in: ['d03', 'd10', 'nope'] }, group: { $exists: true } },
      ];
      for (const filter of filters) {
        const plain = await store.collection('Plain').find(filter);
        const indexed = await store.collection('Indexed').find(filter);
        expect({ filter, ids: indexed.map((d) => d._id) }).toEqual({ filter, ids: plain.map((d) => d._id) });
      }
    });

    it('finds by _id exactly what mingo matches, for every form of id lookup and for filters that only look like one', async () => {
      const documents = Array.from({ length: 12 }, (_, i) => ({ _id: `id${i}`, n: i, ...(i % 3 === 0 ? { tags: ['id1', 'x'] } : {}) }));
      const items = store.collection('ById');
      await items.insertMany(documents);
      const filters: Filter[] = [
        { _id: 'id3' },
        { _id: 'missing' },
        { _id: { $eq: 'id4' } },
        { _id: { $in: ['id9', 'id2', 'id2', 'missing'] } },
        { _id: { $in: [] } },
        { _id: { $in: ['id1', 5] } },
        { _id: { $in: ['id1'], $ne: 'id1' } },
        { _id: { $ne: 'id1' } },
        { _id: { $gt: 'id5' } },
        { _id: /^id1/ },
        { _id: 'id6', n: 6 },
        { _id: 'id6', n: 7 },
        { tags: 'id1' },
      ];
      for (const filter of filters) {
        const expected = new Query(filter).find(documents).all().map((document) => (document as StoredDocument)._id);
        expect({ filter, ids: (await items.find(filter)).map((document) => document._id) }).toEqual({ filter, ids: expected });
        expect({ filter, count: await items.count(filter) }).toEqual({ filter, count: expected.length });
      }
    });

    it('answers literal conditions through indexes exactly like a full scan, for every kind of stored value, also beside a running transaction', async () => {
      const values: unknown[] = [
        'a', 'b', '1', 1, 2, 1.5, 0, true, false, null, [], ['a', 1], [['a']], [{ x: 'a' }], { x: 'a' }, ['b', true], [null], [2, 2],
      ];
      let seed = 7;
      const pick = <T,>(list: readonly T[]): T => {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        return list[seed % list.length]!;
      };
      const documents = Array.from({ length: 150 }, (_, i) => {
        const document: StoredDocument = { _id: `v${String(i).padStart(3, '0')}`, n: i };
        for (const field of ['f', 'g']) {
          const value = pick([...values, undefined]);
          if (value !== undefined) document[field] = value;
        }
        const nested = pick([{ x: 'a' }, [{ x: 'a' }, { x: 1 }], [{ x: ['a'] }], 'a', ['a'], { x: null }, {}, [{}, { x: 'b' }], undefined]);
        if (nested !== undefined) document.h = nested;
        return document;
      });
      await store.collection('LitPlain').insertMany(documents);
      await store.syncIndexes('LitIndexed', ['f', 'g', 'h.x'].map((field) => ({ name: `ag_${field}`, keys: { [field]: 1 as const } })), 'ag_');
      await store.collection('LitIndexed').insertMany(documents);

      const literals = ['a', 'b', '1', 1, 2, 1.5, 0, true, false];
      const filters: Filter[] = [{ _id: { $in: ['v001', 'v002', 'v149', 'nope'] }, f: 'a' }, { _id: 'v010', g: { $in: [] } }];
      for (const literal of literals) {
        const other = pick(literals);
        filters.push(
          { f: literal },
          { g: { $eq: literal } },
          { f: { $in: [literal, other] } },
          { f: literal, g: other },
          { f: { $in: [literal] }, g: { $exists: false } },
          { f: literal, n: { $lt: 75 } },
          { $and: [{ f: literal }], g: { $in: [other, 'a'] } },
          { f: { $eq: literal, $ne: other } },
          { f: literal, $or: [{ g: other }, { n: { $gt: 100 } }] },
          { 'f.x': 'a', g: literal },
          { 'h.x': literal },
          { 'h.x': { $in: [literal, other] }, f: other },
          { f: { $in: [literal, null] } },
        );
      }
      const idsOf = (found: Array<Record<string, unknown>>) => found.map((document) => document._id);
      const answers = async (collection: string) => {
        const items = store.collection(collection);
        const all: unknown[] = [];
        for (const filter of filters) {
          all.push({
            filter,
            found: idsOf(await items.find(filter)),
            count: await items.count(filter),
            page: idsOf(await items.find(filter, { sort: { n: -1 }, skip: 1, limit: 3 })),
            grouped: await items.aggregate([{ $match: filter }, { $group: { _id: null, total: { $sum: '$n' } } }]),
          });
        }
        return all;
      };
      const expected = await answers('LitPlain');
      expect(await answers('LitIndexed')).toEqual(expected);

      // Beside a running transaction that rewrites indexed values, readers still see the state before it.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const running = store.transaction(async (tx) => {
        const items = store.collection('LitIndexed');
        await items.updateMany({ n: { $lt: 40 } }, { $set: { f: 'a', g: 1 } }, { tx });
        await items.deleteMany({ f: 'b' }, { tx });
        await items.insertMany([{ _id: 'new', n: 1, f: 'a', g: true }], { tx });
        wrote();
        await gate;
        throw new Error('rolled back on purpose');
      });
      const outcome = running.catch((error: Error) => error.message);
      await written;
      // In any order: a document the transaction deleted is listed last (its place went with it).
      const unordered = (all: unknown[]) => all.map((one) => ({ ...(one as object), found: [...(one as { found: string[] }).found].sort() }));
      try {
        expect(unordered(await answers('LitIndexed'))).toEqual(unordered(expected));
      } finally {
        release();
      }
      expect(await outcome).toBe('rolled back on purpose');
    });

    it('joins through indexes exactly like a full scan, for every equality form of $lookup', async () => {
      const parents = Array.from({ length: 12 }, (_, i) => ({ _id: `p${i}`, rank: i % 3 }));
      const children = Array.from({ length: 30 }, (_, i) => ({
        _id: `c${i}`,
        n: i % 5,
        ...(i % 4 === 0 ? {} : { parent: `p${i % 9}` }),
        parents: i % 6 === 0 ? [] : [`p${i % 7}`, `p${(i + 3) % 11}`],
      }));
      for (const variant of ['Plain', 'Indexed']) {
        await store.collection(`${variant}Parent`).insertMany(parents);
        await store.collection(`${variant}Child`).insertMany(children);
      }
      await store.syncIndexes(
        'IndexedChild',
        [{ name: 'ag_rel_parent', keys: { parent: 1 } }, { name: 'ag_rel_parents', keys: { parents: 1 } }],
        'ag_',
      );
      const pipelines = (child: string): Record<string, unknown>[][] => [
        [
          { $lookup: { from: child, localField: '_id', foreignField: 'parent', as: 'kids' } },
          { $project: { _id: 1, kids: '$kids._id' } },
        ],
        [
          { $match: { rank: { $gt: 0 } } },
          { $lookup: { from: child, localField: '_id', foreignField: 'parents', as: 'kids' } },
          { $project: { _id: 1, kids: '$kids._id' } },
        ],
        [
          { $lookup: { from: child, let: { parentId: '$_id' }, pipeline: [{ $match: { $expr: { $eq: ['$parent', '$$parentId'] } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '__has' } },
          { $match: { '__has.0': { $exists: true } } },
          { $unset: '__has' },
        ],
        [
          { $lookup: { from: child, let: { parentId: '$_id' }, pipeline: [{ $match: { $expr: { $in: ['$$parentId', { $ifNull: ['$parents', []] }] } } }, { $project: { _id: 1 } }], as: 'kids' } },
        ],
        [
          { $lookup: { from: child, let: { parentId: '$_id' }, pipeline: [{ $match: { $expr: { $and: [{ $eq: ['$$parentId', '$parent'] }, { $gte: ['$n', 3] }] } } }, { $sort: { _id: 1 } }], as: 'kids' } },
          { $set: { 'first.kid': { $first: '$kids._id' } } },
        ],
      ];
      const plain = pipelines('PlainChild');
      const indexed = pipelines('IndexedChild');
      for (let i = 0; i < plain.length; i++) {
        const expected = await store.collection('PlainParent').aggregate(plain[i]!);
        expect({ pipeline: i, rows: await store.collection('IndexedParent').aggregate(indexed[i]!) }).toEqual({ pipeline: i, rows: expected });
      }
      expect(await store.collection('IndexedParent').aggregate([{ $match: { _id: 'p1' } }, ...indexed[0]!])).toEqual([
        { _id: 'p1', kids: ['c1', 'c10', 'c19'] },
      ]);
      expect(await store.collection('IndexedChild').count({ parent: 'p1' })).toBe(3);
    });

    it('never lets a pipeline or a caller change stored documents', async () => {
      await store.collection('Writer').insertMany([{ _id: 'w', name: 'Ann', meta: { tags: ['a'] } }]);
      await store.collection('Book').insertMany([{ _id: 'b', writer: 'w', meta: { pages: 1 } }]);
      await store.collection('Book').aggregate([
        { $lookup: { from: 'Writer', localField: 'writer', foreignField: '_id', as: 'writer' } },
        { $unwind: '$writer' },
        { $set: { 'writer.name': 'changed', 'meta.pages': 99 } },
        { $unset: 'writer.meta.tags' },
      ]);
      const [root] = await store.collection('Book').aggregate([{ $replaceRoot: { newRoot: '$meta' } }]);
      root!.pages = 1000;
      const [grouped] = await store.collection('Writer').aggregate([{ $group: { _id: null, all: { $push: '$$ROOT' } } }]);
      ((grouped!.all as Array<{ meta: { tags: string[] } }>)[0]!.meta.tags).push('pushed');

      expect(await store.collection('Writer').find({})).toEqual([{ _id: 'w', name: 'Ann', meta: { tags: ['a'] } }]);
      expect(await store.collection('Book').find({})).toEqual([{ _id: 'b', writer: 'w', meta: { pages: 1 } }]);
    });

    it('returns the same first page from a bounded sort as from a full sort', async () => {
      const documents = Array.from({ length: 200 }, (_, i) => ({
        _id: `s${String(i).padStart(3, '0')}`,
        ...(i % 11 === 0 ? {} : { score: (i * 37) % 23 }),
        ...(i % 13 === 0 ? { score: [i % 5, 30 - (i % 7)] } : {}),
        group: i % 4,
      }));
      const items = store.collection('TopK');
      await items.insertMany(documents);
      const sorts: SortSpec[] = [{ score: 1 }, { score: -1 }, { group: 1, score: -1 }, { score: 1, _id: -1 }];
      for (const sort of sorts) {
        const everything = await items.find({}, { sort });
        for (const [skip, limit] of [[0, 1], [0, 10], [5, 7], [180, 10]] as const) {
          expect({ sort, skip, limit, ids: (await items.find({}, { sort, skip, limit })).map((d) => d._id) }).toEqual({
            sort,
            skip,
            limit,
            ids: everything.slice(skip, skip + limit).map((d) => d._id),
          });
        }
      }
    });

    it('rejects values that are not JSON with a message naming the field', async () => {
      const items = store.collection('Json');
      await expect(items.insertMany([{ _id: 'd', when: new Date() }])).rejects.toThrow(InvalidDocumentError);
      await expect(items.insertMany([{ _id: 'd', nested: { when: new Date() } }])).rejects.toThrow(/nested\.when is a Date/);
      await expect(items.insertMany([{ _id: 'n', n: Number.NaN }])).rejects.toThrow(/n is NaN/);
      await expect(items.insertMany([{ _id: 7 } as never])).rejects.toThrow(/_id must be a string/);
      await expect(items.updateMany({}, { title: { x: 1 } } as never)).rejects.toThrow(/"title" is not an update operator/);
      expect(await items.count({})).toBe(0);
    });

    it('stores a field named __proto__ as an ordinary field', async () => {
      const document = JSON.parse('{"_id":"p","__proto__":{"polluted":true}}') as StoredDocument;
      await store.collection('Proto').insertMany([document]);
      const [found] = await store.collection('Proto').find({ _id: 'p' });
      expect(Object.keys(found!)).toEqual(['_id', '__proto__']);
      expect((found as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('reports a malformed query with the collection name', async () => {
      await store.collection('Bad').insertMany([{ _id: 'x' }]);
      await expect(store.collection('Bad').find({ a: { $nope: 1 } })).rejects.toThrow(/collection Bad/);
      await expect(store.collection('Bad').aggregate([{ $out: 'Other' }])).rejects.toThrow(/\$out/);
      expect(() => store.collection('bad$name')).toThrow(/invalid collection name/);
      // Server-side JavaScript is off: filters come from the service's own translation, never need it.
      await expect(store.collection('Bad').find({ $where: () => true })).rejects.toThrow(/scriptEnabled/);
    });

    it('is not ready and refuses work once closed', async () => {
      expect(store.kind).toBe('embedded');
      expect(store.ready()).toBe(true);
      await store.close();
      expect(store.ready()).toBe(false);
      await expect(store.collection('After').find({})).rejects.toBeInstanceOf(StoreClosedError);
      await store.close();
    });
  });
});

describe('embedded store: a scan that outlives its deadline', () => {
  const SIZE = 3 * CHECK_EVERY;
  let store: Store;
  let now: number;

  beforeEach(async () => {
    store = await openEmbeddedStore(tempFolder());
    const documents = Array.from({ length: SIZE }, (_, i) => ({ _id: `d${String(i).padStart(4, '0')}`, n: i, even: i % 2 === 0 }));
    await store.collection('Scan').insertMany(documents);
    await store.collection('Other').insertMany([{ _id: 'o1', n: 1 }]);
    // The clock moves only when a test says so: the operation starts in time, then its scan runs past it.
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
  });

  /** The clock passes the deadline after the operation started, while it scans. */
  function passDuringScan(): { deadline: number } {
    const deadline = now + 10;
    let reads = 0;
    jest.spyOn(Date, 'now').mockImplementation(() => (++reads > 1 ? deadline : now));
    return { deadline };
  }

  it.each([
    ['find', () => store.collection('Scan').find({ n: { $gte: 0 } }, {}, passDuringScan()), 'find on Scan'],
    ['find with a sort', () => store.collection('Scan').find({ even: true }, { sort: { n: -1 } }, passDuringScan()), 'find on Scan'],
    ['count', () => store.collection('Scan').count({ n: { $lt: SIZE } }, passDuringScan()), 'count on Scan'],
    ['aggregate', () => store.collection('Scan').aggregate([{ $match: { n: { $gte: 0 } } }, { $count: 'n' }], passDuringScan()), 'aggregate on Scan'],
    ['aggregate without a leading $match', () => store.collection('Scan').aggregate([{ $addFields: { m: 1 } }], passDuringScan()), 'aggregate on Scan'],
  ])('stops %s with DeadlineExceededError', async (_label, call, operation) => {
    await expect(call()).rejects.toEqual(new DeadlineExceededError(operation));
  });

  it('stops updateMany and deleteMany before changing anything', async () => {
    await expect(store.collection('Scan').updateMany({ n: { $gte: 0 } }, { $set: { touched: true } }, passDuringScan())).rejects.toEqual(
      new DeadlineExceededError('updateMany on Scan'),
    );
    await expect(store.collection('Scan').deleteMany({ n: { $gte: 0 } }, passDuringScan())).rejects.toEqual(new DeadlineExceededError('deleteMany on Scan'));
    jest.restoreAllMocks();
    expect(await store.collection('Scan').count({})).toBe(SIZE);
    expect(await store.collection('Scan').count({ touched: true })).toBe(0);
  });

  it('finishes a scan shorter than one clock check even when the deadline passes meanwhile', async () => {
    const found = await store.collection('Scan').find({ n: { $lt: CHECK_EVERY - 1 } }, { limit: CHECK_EVERY - 2 }, passDuringScan());
    expect(found).toHaveLength(CHECK_EVERY - 2);
  });

  it('keeps serving other operations after one was stopped', async () => {
    await expect(store.collection('Scan').count({ n: { $gte: 0 } }, passDuringScan())).rejects.toBeInstanceOf(DeadlineExceededError);
    jest.restoreAllMocks();
    expect(await store.collection('Scan').count({ n: { $gte: 0 } }, { deadline: Date.now() + 60_000 })).toBe(SIZE);
    expect(await store.collection('Other').find({})).toEqual([{ _id: 'o1', n: 1 }]);
  });
});

describe('embedded store: a long read gives the event loop turns', () => {
  const SIZE = 16 * CHECK_EVERY;
  let store: Store;

  beforeEach(async () => {
    store = await openEmbeddedStore(tempFolder());
    await store.collection('Scan').insertMany(Array.from({ length: SIZE }, (_, i) => ({ _id: `d${String(i).padStart(4, '0')}`, n: i })));
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
  });

  /** Every look at the clock finds a whole slice gone by. */
  function slowClock(): void {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => (now += YIELD_AFTER_MS));
  }

  /** The order in which `read` and a callback queued right after it started finish. */
  async function finishingOrder(read: () => Promise<unknown>): Promise<string[]> {
    const order: string[] = [];
    const reading = read().then(() => order.push('read'));
    setImmediate(() => order.push('other work'));
    await reading;
    await new Promise((resolve) => setImmediate(resolve));
    return order;
  }

  it.each([
    ['find', () => store.collection('Scan').find({ n: { $gte: 0 } })],
    ['find with a sort', () => store.collection('Scan').find({ n: { $gte: 0 } }, { sort: { n: -1 }, limit: 3 })],
    ['count', () => store.collection('Scan').count({ n: { $gte: 0 } })],
    ['aggregate with a leading $match', () => store.collection('Scan').aggregate([{ $match: { n: { $gte: 0 } } }, { $count: 'n' }])],
  ])('%s lets waiting work run between slices of its scan', async (_label, read) => {
    slowClock();
    expect(await finishingOrder(read)).toEqual(['other work', 'read']);
  });

  it('runs a read that fits in one slice without a pause', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    expect(await finishingOrder(() => store.collection('Scan').count({ n: { $gte: 0 } }))).toEqual(['read', 'other work']);
  });

  it('does not see the uncommitted writes of a transaction that began while it paused', async () => {
    await store.collection('Other').insertMany([{ _id: 'o1', ref: 'd0000', v: 'committed' }]);
    slowClock();
    const reading = store.collection('Scan').aggregate([
      { $match: { n: { $lt: 1 } } },
      { $lookup: { from: 'Other', localField: '_id', foreignField: 'ref', as: 'others' } },
    ]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const transaction = store.transaction(async (tx) => {
      await store.collection('Other').updateMany({ _id: 'o1' }, { $set: { v: 'uncommitted' } }, { tx });
      written();
      await held;
    });
    await wrote;
    try {
      expect(await reading).toEqual([{ _id: 'd0000', n: 0, others: [{ _id: 'o1', ref: 'd0000', v: 'committed' }] }]);
    } finally {
      release();
      await transaction;
    }
  });

  it('answers from the state the read started on, whatever is written while it pauses', async () => {
    slowClock();
    // The read's first pause is held until the writes are done, so they happen while it pauses however
    // long the writes take (their fsync runs off the event loop and its time varies with the machine).
    const held: Array<() => void> = [];
    const realSetImmediate = global.setImmediate;
    const immediates = jest.spyOn(global, 'setImmediate').mockImplementation(((callback: () => void) => {
      held.push(callback);
      return {} as NodeJS.Immediate;
    }) as unknown as typeof setImmediate);
    let finished = false;
    const reading = store.collection('Scan').find({ n: { $gte: 0 } }, { sort: { n: 1 } });
    immediates.mockRestore();
    expect(held).toHaveLength(1);
    void reading.then(() => (finished = true));
    await store.collection('Scan').updateMany({ _id: 'd0000' }, { $set: { n: -1 } });
    await store.collection('Scan').insertMany([{ _id: 'late', n: 5 }]);
    await store.collection('Scan').deleteMany({ _id: 'd0001' });
    expect(finished).toBe(false);
    realSetImmediate(held[0]!);
    const found = await reading;
    expect(found).toHaveLength(SIZE);
    expect(found.slice(0, 2)).toEqual([{ _id: 'd0000', n: 0 }, { _id: 'd0001', n: 1 }]);
    jest.restoreAllMocks();
    expect(await store.collection('Scan').count({ n: { $gte: 0 } })).toBe(SIZE - 1);
  });
});
