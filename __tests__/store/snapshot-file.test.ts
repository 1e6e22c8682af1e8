import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileLines } from '../../src/store/embedded/file-lines.js';
import { CorruptSnapshotError, loadSnapshot, SNAPSHOT_FILE, writeSnapshot, type Snapshot } from '../../src/store/embedded/snapshot.js';
import type { IndexSpec, StoredDocument } from '../../src/store/port.js';

/**
 * The snapshot file read back line by line in chunks (loadSnapshot over fileLines): whatever the chunk size,
 * the collections and documents come back as written, lines split across chunks and multi-byte characters
 * included; a damaged file is refused with the line that is wrong.
 */

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-snapshot-file-'));
});
afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

const TASKS: StoredDocument[] = [
  { _id: 't1', title: 'Grüße aus Köln', tags: ['ä', '😀'] },
  { _id: 't2', title: '', nested: { deep: [1, 2, { x: 'y' }] } },
  { _id: 't3', title: 'x'.repeat(300) },
];
const NOTES: StoredDocument[] = [{ _id: 'n1', text: '日本語のテキスト' }];
const INDEXES: IndexSpec[] = [{ name: 'ag_search_title', keys: { title: 1 } }];

function written(): Snapshot {
  return {
    seq: 42,
    collections: [
      { name: 'Task', indexes: INDEXES, count: TASKS.length, documents: TASKS },
      { name: 'Empty', indexes: [], count: 0, documents: [] },
      { name: 'Note', indexes: [], count: NOTES.length, documents: NOTES },
    ],
  };
}

function loaded(chunkBytes?: number): { seq: number | undefined; collections: Array<{ name: string; indexes: IndexSpec[]; count: number; documents: StoredDocument[] }> } {
  const collections: Array<{ name: string; indexes: IndexSpec[]; count: number; documents: StoredDocument[] }> = [];
  const seq = loadSnapshot(folder, (collection) => collections.push({ ...collection, documents: [...collection.documents] }), chunkBytes);
  return { seq, collections };
}

describe('loadSnapshot', () => {
  it.each([1, 2, 3, 5, 16, 64, 1000, 8 << 20])('gives back what was written, read in chunks of %i bytes', (chunkBytes) => {
    writeSnapshot(folder, written());
    expect(loaded(chunkBytes)).toEqual({
      seq: 42,
      collections: [
        { name: 'Task', indexes: INDEXES, count: 3, documents: TASKS },
        { name: 'Empty', indexes: [], count: 0, documents: [] },
        { name: 'Note', indexes: [], count: 1, documents: NOTES },
      ],
    });
  });

  it('answers undefined without a snapshot', () => {
    expect(loaded()).toEqual({ seq: undefined, collections: [] });
  });

  const damaged: Array<[string, (text: string) => string, string]> = [
    ['cut after a document', (text) => text.split('\n').slice(0, 4).join('\n') + '\n', 'ends early, expected a document of Task at line 5'],
    ['cut inside a document', (text) => text.slice(0, text.indexOf('"t2"') + 3), 'line 4 is not JSON (expected a document of Task)'],
    ['a line that is not JSON', (text) => text.replace('{"_id":"n1"', '{"_id":"n1",,'), 'line 8 is not JSON (expected a document of Note)'],
    ['an empty line in place of a document', (text) => text.replace(/\n\{"_id":"t2"[^\n]*/, '\n'), 'ends early, expected a document of Task at line 4'],
    ['an unknown header', (text) => text.replace('"version":1', '"version":9'), 'unknown header'],
    ['a collection header that is not one', (text) => text.replace('{"collection":"Empty","indexes":[],', '{"collection":7,"indexes":[],'), 'line 6 is not a collection header'],
    ['no end marker', (text) => text.replace(/\{"end":[^\n]*\n$/, '{"other":1}\n'), 'the end marker is missing'],
  ];

  it.each(damaged)('refuses a file %s, naming the line', (_case, damage, reason) => {
    writeSnapshot(folder, written());
    const file = path.join(folder, SNAPSHOT_FILE);
    fs.writeFileSync(file, damage(fs.readFileSync(file, 'utf8')));
    for (const chunkBytes of [3, 8 << 20]) {
      let error: unknown;
      try {
        loaded(chunkBytes);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CorruptSnapshotError);
      expect((error as Error).message).toContain(reason);
    }
  });

  it('fails when the loader does not read every document of a collection', () => {
    writeSnapshot(folder, written());
    expect(() => loadSnapshot(folder, () => undefined)).toThrow('snapshot of Task: 0 of its 3 documents were loaded');
  });
});

describe('fileLines', () => {
  it.each([1, 2, 4, 7, 1 << 20])('splits at every newline whatever the chunk size (%i bytes)', (chunkBytes) => {
    const file = path.join(folder, 'lines.txt');
    fs.writeFileSync(file, 'a\n\nbé😀c\n' + 'z'.repeat(20) + '\nlast without newline');
    expect([...fileLines(file, chunkBytes)]).toEqual(['a', '', 'bé😀c', 'z'.repeat(20), 'last without newline']);
  });

  it('gives nothing for an empty file, and no empty last line after a final newline', () => {
    const file = path.join(folder, 'lines.txt');
    fs.writeFileSync(file, '');
    expect([...fileLines(file, 4)]).toEqual([]);
    fs.writeFileSync(file, 'one\ntwo\n');
    expect([...fileLines(file, 4)]).toEqual(['one', 'two']);
  });
});
