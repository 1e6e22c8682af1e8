import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openFileDescriptors } from '../helpers/open-files.js';
import {
  CorruptSnapshotError,
  loadSnapshot,
  SNAPSHOT_FILE,
  snapshotSize,
  writeSnapshot,
  writeSnapshotFromStore,
  writeSnapshotInBackground,
  type Snapshot,
} from '../../src/store/embedded/snapshot.js';
import type { StoredDocument, StoreSnapshot } from '../../src/store/port.js';

/**
 * The snapshot file as the three writers leave it: the exact format on disk (a fixed text that stores of
 * earlier versions wrote and later ones must read), the size each answers, what a failed write leaves
 * behind, and the files they keep open.
 */

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-snapshot-writes-'));
});
afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

const snapshotFile = () => path.join(folder, SNAPSHOT_FILE);

const TASKS: StoredDocument[] = [
  { _id: 't1', title: 'Grüße 😀' },
  { _id: 't2', done: true },
];

function snapshot(seq = 7): Snapshot {
  return {
    seq,
    collections: [
      { name: 'Empty', indexes: [], count: 0, documents: [] },
      { name: 'Task', indexes: [{ name: 'ag_title', keys: { title: 1 } }], count: TASKS.length, documents: TASKS },
    ],
  };
}

/** The file for snapshot(7), byte for byte: the on-disk format, version 1. */
const GOLDEN =
  '{"format":"autograph-embedded-snapshot","version":1,"seq":7,"collections":2}\n' +
  '{"collection":"Empty","indexes":[],"count":0}\n' +
  '{"collection":"Task","indexes":[{"name":"ag_title","keys":{"title":1}}],"count":2}\n' +
  '{"_id":"t1","title":"Grüße 😀"}\n' +
  '{"_id":"t2","done":true}\n' +
  '{"end":"autograph-embedded-snapshot"}\n';

function storeSnapshot(counted: number = TASKS.length): StoreSnapshot {
  return {
    consistency: 'point-in-time',
    collections: [
      { name: 'Empty', indexes: [], count: 0 },
      { name: 'Task', indexes: [{ name: 'ag_title', keys: { title: 1 } }], count: counted },
    ],
    async *documents(collection: string, batchSize: number) {
      const documents = collection === 'Task' ? TASKS : [];
      for (let start = 0; start < documents.length; start += batchSize) yield documents.slice(start, start + batchSize);
    },
    close: async () => undefined,
  };
}

describe('the snapshot on disk', () => {
  it('writeSnapshot writes the format exactly, answers its size, and leaves no temporary file nor open file', () => {
    const before = openFileDescriptors();
    expect(writeSnapshot(folder, snapshot())).toBe(Buffer.byteLength(GOLDEN));
    expect(fs.readFileSync(snapshotFile(), 'utf8')).toBe(GOLDEN);
    expect(fs.readdirSync(folder)).toEqual([SNAPSHOT_FILE]);
    expect(openFileDescriptors()).toBe(before);
  });

  it('writeSnapshotInBackground writes the same bytes and answers the same size', async () => {
    const before = openFileDescriptors();
    expect(await writeSnapshotInBackground(folder, snapshot())).toBe(Buffer.byteLength(GOLDEN));
    expect(fs.readFileSync(snapshotFile(), 'utf8')).toBe(GOLDEN);
    expect(fs.readdirSync(folder)).toEqual([SNAPSHOT_FILE]);
    expect(openFileDescriptors()).toBe(before);
  });

  it('writeSnapshotFromStore writes the same format with sequence 0, whatever the batch size', async () => {
    for (const batchSize of [1, 2, 1000]) {
      expect(await writeSnapshotFromStore(folder, storeSnapshot(), batchSize)).toEqual({ documents: 2, file: snapshotFile() });
      expect(fs.readFileSync(snapshotFile(), 'utf8')).toBe(GOLDEN.replace('"seq":7', '"seq":0'));
      expect(fs.readdirSync(folder)).toEqual([SNAPSHOT_FILE]);
    }
  });

  it('the three writers agree past their 1 MiB write chunks', async () => {
    const many: StoredDocument[] = Array.from({ length: 6000 }, (_, i) => ({ _id: `d${i}`, text: `${'é'.repeat(200)} ${i} 😀` }));
    const large = (): Snapshot => ({ seq: 0, collections: [{ name: 'Big', indexes: [], count: many.length, documents: many }] });
    const expectedSize = writeSnapshot(folder, large());
    const expected = fs.readFileSync(snapshotFile());
    expect(expected.length).toBe(expectedSize);
    expect(expected.length).toBeGreaterThan(2 << 20);
    expect(await writeSnapshotInBackground(folder, large())).toBe(expectedSize);
    expect(fs.readFileSync(snapshotFile()).equals(expected)).toBe(true);
    const source: StoreSnapshot = {
      consistency: 'point-in-time',
      collections: [{ name: 'Big', indexes: [], count: many.length }],
      async *documents(_collection: string, batchSize: number) {
        for (let start = 0; start < many.length; start += batchSize) yield many.slice(start, start + batchSize);
      },
      close: async () => undefined,
    };
    expect(await writeSnapshotFromStore(folder, source, 700)).toEqual({ documents: many.length, file: snapshotFile() });
    expect(fs.readFileSync(snapshotFile()).equals(expected)).toBe(true);
  });

  it('reads the fixed text back', () => {
    fs.writeFileSync(snapshotFile(), GOLDEN);
    const collections: Array<{ name: string; count: number; documents: StoredDocument[] }> = [];
    expect(loadSnapshot(folder, ({ name, count, documents }) => collections.push({ name, count, documents: [...documents] }))).toBe(7);
    expect(collections).toEqual([
      { name: 'Empty', count: 0, documents: [] },
      { name: 'Task', count: 2, documents: TASKS },
    ]);
  });

  it('snapshotSize answers the file size, and 0 without a snapshot', () => {
    expect(snapshotSize(folder)).toBe(0);
    fs.writeFileSync(snapshotFile(), GOLDEN);
    expect(snapshotSize(folder)).toBe(Buffer.byteLength(GOLDEN));
  });

  it('a collection that gives fewer documents than it announced fails the write and leaves the previous snapshot', async () => {
    fs.writeFileSync(snapshotFile(), GOLDEN);
    const short = (): Snapshot => ({ seq: 8, collections: [{ name: 'Task', indexes: [], count: 3, documents: TASKS }] });
    const before = openFileDescriptors();
    expect(() => writeSnapshot(folder, short())).toThrow('snapshot of Task: 2 documents, 3 announced');
    await expect(writeSnapshotInBackground(folder, short())).rejects.toThrow('snapshot of Task: 2 documents, 3 announced');
    expect(openFileDescriptors()).toBe(before);
    expect(fs.readFileSync(snapshotFile(), 'utf8')).toBe(GOLDEN);
  });

  it('writeSnapshotFromStore refuses a store that changed while it was read, and removes what it wrote', async () => {
    await expect(writeSnapshotFromStore(folder, storeSnapshot(3))).rejects.toThrow(
      'Task changed while it was read (3 documents counted, 2 read): the snapshot is not point-in-time',
    );
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});

describe('loadSnapshot refuses a header it does not know', () => {
  const header = '{"format":"autograph-embedded-snapshot","version":1,"seq":7,"collections":2}';
  const collectionHeader = '{"collection":"Task","indexes":[{"name":"ag_title","keys":{"title":1}}],"count":2}';

  test.each([
    ['another format', header.replace('autograph-embedded-snapshot', 'other'), `unknown header {"format":"other","version":1,"seq":7,"collections":2}`],
    ['another version', header.replace('"version":1', '"version":2'), 'unknown header {"format":"autograph-embedded-snapshot","version":2,"seq":7,"collections":2}'],
    ['a sequence that is a string', header.replace('"seq":7', '"seq":"7"'), 'unknown header {"format":"autograph-embedded-snapshot","version":1,"seq":"7","collections":2}'],
    ['a collection count that is a string', header.replace('"collections":2', '"collections":"2"'), 'unknown header {"format":"autograph-embedded-snapshot","version":1,"seq":7,"collections":"2"}'],
  ])('%s', (_case, replaced, reason) => {
    fs.writeFileSync(snapshotFile(), GOLDEN.replace(header, replaced));
    expect(() => loadSnapshot(folder, () => undefined)).toThrow(new CorruptSnapshotError(snapshotFile(), reason));
  });

  test.each([
    ['a collection name that is a number', collectionHeader.replace('"Task"', '7')],
    ['indexes that are not a list', collectionHeader.replace(/"indexes":\[.*\],"count"/, '"indexes":{},"count"')],
    ['a count that is a string', collectionHeader.replace('"count":2', '"count":"2"')],
  ])('a collection header with %s', (_case, replaced) => {
    fs.writeFileSync(snapshotFile(), GOLDEN.replace(collectionHeader, replaced));
    expect(() => loadSnapshot(folder, (collection) => [...collection.documents])).toThrow(
      new CorruptSnapshotError(snapshotFile(), 'line 3 is not a collection header'),
    );
  });

  test.each([
    ['an empty file', '', 'ends early, expected the header at line 1'],
    ['a file cut after the header', `${header}\n`, 'ends early, expected a collection header at line 2'],
    ['a file cut before its end marker', GOLDEN.slice(0, GOLDEN.indexOf('{"end"')), 'ends early, expected the end marker at line 6'],
  ])('%s, naming what it expected', (_case, text, reason) => {
    fs.writeFileSync(snapshotFile(), text);
    const before = openFileDescriptors();
    let error: unknown;
    try {
      loadSnapshot(folder, (collection) => [...collection.documents]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toEqual(new CorruptSnapshotError(snapshotFile(), reason));
    expect((error as Error).name).toBe('CorruptSnapshotError');
    expect(openFileDescriptors()).toBe(before);
  });
});
