/**
 * The snapshot: the whole database as of one log sequence number, written to a temporary file, fsynced
 * and renamed into place, so a crash leaves either the old snapshot or the new one, never a mix.
 * Format (JSON lines): a header, then per collection a line with its indexes and document count followed
 * by one line per document, then an end marker.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexSpec, StoredDocument, StoreSnapshot } from '../port.js';
import { fsyncDirectory, writeFully } from './durable-file.js';
import { fileLines } from './file-lines.js';

export const SNAPSHOT_FILE = 'snapshot.jsonl';
const FORMAT = 'autograph-embedded-snapshot';
const VERSION = 1;
const WRITE_CHUNK_BYTES = 1 << 20;

export interface SnapshotCollection {
  name: string;
  indexes: IndexSpec[];
  /** How many documents `documents` gives. */
  count: number;
  /** Read once (a compaction's are frozen documents, see frozen-documents.ts). */
  documents: Iterable<StoredDocument>;
}

export interface Snapshot {
  /** The last log sequence number the snapshot contains. */
  seq: number;
  collections: SnapshotCollection[];
}

export class CorruptSnapshotError extends Error {
  constructor(file: string, reason: string) {
    super(`snapshot ${file} is unreadable: ${reason}`);
    this.name = 'CorruptSnapshotError';
  }
}

/** The snapshot's lines, one value at a time (the documents are read only when their turn comes). */
function* snapshotLines(snapshot: Snapshot): Generator<string> {
  yield `${JSON.stringify({ format: FORMAT, version: VERSION, seq: snapshot.seq, collections: snapshot.collections.length })}\n`;
  for (const collection of snapshot.collections) {
    yield `${JSON.stringify({ collection: collection.name, indexes: collection.indexes, count: collection.count })}\n`;
    let written = 0;
    for (const document of collection.documents) {
      written++;
      yield `${JSON.stringify(document)}\n`;
    }
    // The count is written first and the loader reads that many lines: a mismatch would corrupt the file.
    if (written !== collection.count) throw new Error(`snapshot of ${collection.name}: ${written} documents, ${collection.count} announced`);
  }
  yield `${JSON.stringify({ end: FORMAT })}\n`;
}

/** The lines joined into chunks of about WRITE_CHUNK_BYTES. */
function* snapshotChunks(snapshot: Snapshot): Generator<Buffer> {
  let chunk: string[] = [];
  let chunkLength = 0;
  for (const line of snapshotLines(snapshot)) {
    chunk.push(line);
    chunkLength += line.length;
    if (chunkLength >= WRITE_CHUNK_BYTES) {
      yield Buffer.from(chunk.join(''), 'utf8');
      chunk = [];
      chunkLength = 0;
    }
  }
  if (chunk.length > 0) yield Buffer.from(chunk.join(''), 'utf8');
}

/** Writes the snapshot and returns its size in bytes. */
export function writeSnapshot(dataDir: string, snapshot: Snapshot): number {
  const file = path.join(dataDir, SNAPSHOT_FILE);
  const temporary = `${file}.tmp`;
  const fd = fs.openSync(temporary, 'w');
  let bytes = 0;
  try {
    for (const chunk of snapshotChunks(snapshot)) {
      writeFully(fd, chunk);
      bytes += chunk.length;
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
  fsyncDirectory(dataDir);
  return bytes;
}

/**
 * `writeSnapshot` without holding the event loop: each chunk (about 1 MiB of lines) is serialised
 * between asynchronous writes, and the fsync runs off the loop, so requests keep being served while a
 * large snapshot is written. `snapshot` must not change meanwhile (pass frozen document arrays).
 * Resolves with the snapshot's size in bytes.
 */
export async function writeSnapshotInBackground(dataDir: string, snapshot: Snapshot): Promise<number> {
  const file = path.join(dataDir, SNAPSHOT_FILE);
  const temporary = `${file}.tmp`;
  const handle = await fs.promises.open(temporary, 'w');
  let bytes = 0;
  try {
    for (const chunk of snapshotChunks(snapshot)) {
      let offset = 0;
      while (offset < chunk.length) offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
      bytes += chunk.length;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(temporary, file);
  fsyncDirectory(dataDir);
  return bytes;
}

/** The size in bytes of the snapshot in `dataDir` (0 when there is none). */
export function snapshotSize(dataDir: string): number {
  const file = path.join(dataDir, SNAPSHOT_FILE);
  return fs.existsSync(file) ? fs.statSync(file).size : 0;
}

/**
 * Writes the documents of `source` (a point-in-time StoreSnapshot of any store holding JSON values only)
 * into `dataDir` as a snapshot with sequence number 0 and no log: a data folder the embedded store opens
 * as it was at the snapshot's moment. Memory holds one batch of documents and one chunk of text.
 * Returns the number of documents written and the file.
 */
export async function writeSnapshotFromStore(dataDir: string, source: StoreSnapshot, batchSize = 1000): Promise<{ documents: number; file: string }> {
  const file = path.join(dataDir, SNAPSHOT_FILE);
  const temporary = `${file}.tmp`;
  const handle = await fs.promises.open(temporary, 'w');
  let documents = 0;
  try {
    const pending: string[] = [];
    let pendingLength = 0;
    const write = async (line: string, force = false): Promise<void> => {
      pending.push(line);
      pendingLength += line.length;
      if (!force && pendingLength < WRITE_CHUNK_BYTES) return;
      const chunk = Buffer.from(pending.join(''), 'utf8');
      pending.length = 0;
      pendingLength = 0;
      let offset = 0;
      while (offset < chunk.length) offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
    };
    await write(`${JSON.stringify({ format: FORMAT, version: VERSION, seq: 0, collections: source.collections.length })}\n`);
    for (const collection of source.collections) {
      await write(`${JSON.stringify({ collection: collection.name, indexes: collection.indexes, count: collection.count })}\n`);
      let written = 0;
      for await (const batch of source.documents(collection.name, batchSize)) {
        for (const document of batch) await write(`${JSON.stringify(document)}\n`);
        written += batch.length;
      }
      if (written !== collection.count) {
        throw new Error(`${collection.name} changed while it was read (${collection.count} documents counted, ${written} read): the snapshot is not point-in-time`);
      }
      documents += written;
    }
    await write(`${JSON.stringify({ end: FORMAT })}\n`, true);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await fs.promises.rename(temporary, file);
  fsyncDirectory(dataDir);
  return { documents, file };
}

/**
 * Reads the snapshot in `dataDir` line by line, handing each collection to `load` in file order; its
 * `documents` are parsed as `load` iterates them (so neither the file's text nor every document is held at
 * once) and must be read before `load` returns. Answers the snapshot's sequence number, or undefined
 * when there is none.
 */
export function loadSnapshot(dataDir: string, load: (collection: SnapshotCollection) => void, chunkBytes?: number): number | undefined {
  const file = path.join(dataDir, SNAPSHOT_FILE);
  if (!fs.existsSync(file)) return undefined;
  const lines = fileLines(file, chunkBytes);
  let lineNumber = 0;
  const next = (what: string): Record<string, unknown> => {
    const { done, value: line } = lines.next();
    lineNumber++;
    if (done || line === '') throw new CorruptSnapshotError(file, `ends early, expected ${what} at line ${lineNumber}`);
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new CorruptSnapshotError(file, `line ${lineNumber} is not JSON (expected ${what})`);
    }
  };
  try {
    const header = next('the header');
    if (header.format !== FORMAT || header.version !== VERSION || typeof header.seq !== 'number' || typeof header.collections !== 'number') {
      throw new CorruptSnapshotError(file, `unknown header ${JSON.stringify(header)}`);
    }
    for (let c = 0; c < header.collections; c++) {
      const meta = next('a collection header');
      if (typeof meta.collection !== 'string' || !Array.isArray(meta.indexes) || typeof meta.count !== 'number') {
        throw new CorruptSnapshotError(file, `line ${lineNumber} is not a collection header`);
      }
      const { collection: name, count } = meta;
      let read = 0;
      function* documents(): Generator<StoredDocument> {
        for (; read < count; read++) yield next(`a document of ${name}`) as StoredDocument;
      }
      load({ name, indexes: meta.indexes as IndexSpec[], count, documents: documents() });
      if (read !== count) throw new Error(`snapshot of ${name}: ${read} of its ${count} documents were loaded`);
    }
    if (next('the end marker').end !== FORMAT) throw new CorruptSnapshotError(file, 'the end marker is missing');
    return header.seq;
  } finally {
    lines.return(undefined);
  }
}
