import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openFileDescriptors } from '../helpers/open-files.js';
import { fsyncDirectory, writeFully, writeTextFully } from '../../src/store/embedded/durable-file.js';
import type { LogRecord } from '../../src/store/embedded/log-records.js';
import { PREVIOUS_WAL_FILE, removePreviousLog, replayLogs, WAL_FILE, type ReplayedLogs } from '../../src/store/embedded/write-ahead-log.js';

/**
 * The write side of the log and the helpers that make writes durable: what append, rotate, clear and close
 * leave on disk, how a failed fsync is undone, and that short writes are finished.
 */

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-wal-writes-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(folder, { recursive: true, force: true });
});

const walFile = () => path.join(folder, WAL_FILE);
const previousFile = () => path.join(folder, PREVIOUS_WAL_FILE);
const record = (seq: number): LogRecord => ({ seq, ops: [{ op: 'put', collection: 'Task', documents: [{ _id: `t${seq}`, title: `Köln ${seq} 😀` }] }] });
const line = (seq: number): string => `${JSON.stringify(record(seq))}\n`;

function open(snapshotSeq = 0): ReplayedLogs {
  return replayLogs(folder, snapshotSeq, () => undefined);
}

function replayedSeqs(): number[] {
  const seqs = new Set<number>();
  const { log } = replayLogs(folder, 0, (operation) => {
    if (operation.op === 'put') for (const document of operation.documents) seqs.add(Number(String(document._id).slice(1)));
  });
  log.close();
  return [...seqs];
}

describe('WriteAheadLog writes', () => {
  it('appends each record as one line, and counts the bytes it holds', async () => {
    const { log } = open();
    await log.append(record(1));
    expect(log.sizeBytes).toBe(Buffer.byteLength(line(1)));
    await log.append(record(2));
    expect(log.sizeBytes).toBe(Buffer.byteLength(line(1) + line(2)));
    expect(log.sizeBytes).toBe(fs.statSync(walFile()).size);
    log.close();
    expect(fs.readFileSync(walFile(), 'utf8')).toBe(line(1) + line(2));
    expect(replayedSeqs()).toEqual([1, 2]);
  });

  it('counts the bytes of a log it opened, and appends after them', async () => {
    fs.writeFileSync(walFile(), line(1) + line(2));
    const { log, lastSeq } = open();
    expect(lastSeq).toBe(2);
    expect(log.sizeBytes).toBe(Buffer.byteLength(line(1) + line(2)));
    await log.append(record(3));
    expect(log.sizeBytes).toBe(Buffer.byteLength(line(1) + line(2) + line(3)));
    log.close();
    expect(fs.readFileSync(walFile(), 'utf8')).toBe(line(1) + line(2) + line(3));
  });

  it('cuts a record whose fsync failed back off the log, and rejects with the fsync error', async () => {
    const { log } = open();
    await log.append(record(1));
    const failure = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    jest.spyOn(fs, 'fsync').mockImplementationOnce(((_fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => callback(failure)) as typeof fs.fsync);
    await expect(log.append(record(2))).rejects.toBe(failure);
    expect(log.sizeBytes).toBe(Buffer.byteLength(line(1)));
    expect(fs.readFileSync(walFile(), 'utf8')).toBe(line(1));
    // The next append starts on a clean line where the failed one began.
    await log.append(record(3));
    log.close();
    expect(fs.readFileSync(walFile(), 'utf8')).toBe(line(1) + line(3));
  });

  it('rotates: the records move aside into the previous log and appends go to an empty log', async () => {
    const { log } = open();
    await log.append(record(1));
    await log.append(record(2));
    log.rotate();
    expect(log.sizeBytes).toBe(0);
    expect(fs.readFileSync(previousFile(), 'utf8')).toBe(line(1) + line(2));
    await log.append(record(3));
    expect(log.sizeBytes).toBe(Buffer.byteLength(line(3)));
    log.close();
    expect(fs.readFileSync(walFile(), 'utf8')).toBe(line(3));
    expect(replayedSeqs()).toEqual([1, 2, 3]);
  });

  it('refuses to rotate while a previous log is still there, and keeps appending to the same log', async () => {
    const { log } = open();
    await log.append(record(1));
    log.rotate();
    await log.append(record(2));
    expect(() => log.rotate()).toThrow(`cannot rotate the write-ahead log: ${previousFile()} still exists`);
    await log.append(record(3));
    log.close();
    expect(fs.readFileSync(previousFile(), 'utf8')).toBe(line(1));
    expect(fs.readFileSync(walFile(), 'utf8')).toBe(line(2) + line(3));
  });

  it('clears the log, and appends start from its beginning', async () => {
    const { log } = open();
    await log.append(record(1));
    log.clear();
    expect(log.sizeBytes).toBe(0);
    expect(fs.statSync(walFile()).size).toBe(0);
    await log.append(record(2));
    log.close();
    expect(fs.readFileSync(walFile(), 'utf8')).toBe(line(2));
  });

  it('removes the previous log once a snapshot holds it, and does nothing when there is none', async () => {
    const { log } = open();
    await log.append(record(1));
    log.rotate();
    log.close();
    removePreviousLog(folder);
    expect(fs.existsSync(previousFile())).toBe(false);
    expect(() => removePreviousLog(folder)).not.toThrow();
    expect(fs.readdirSync(folder)).toEqual([WAL_FILE]);
  });

  it('does not leave the log open when a torn last line cannot be cut off', () => {
    fs.writeFileSync(walFile(), `${line(1)}{"seq":2,"op`);
    const failure = new Error('EROFS: read-only file system, ftruncate');
    jest.spyOn(fs, 'ftruncateSync').mockImplementationOnce(() => {
      throw failure;
    });
    const before = openFileDescriptors();
    expect(() => open()).toThrow(failure);
    expect(openFileDescriptors()).toBe(before);
    expect(fs.readFileSync(walFile(), 'utf8')).toBe(`${line(1)}{"seq":2,"op`);
  });

  it('close releases its file, and so does every rotation', async () => {
    const before = openFileDescriptors();
    const { log } = open();
    expect(openFileDescriptors()).toBe(before + 1);
    await log.append(record(1));
    log.rotate();
    expect(openFileDescriptors()).toBe(before + 1);
    log.close();
    expect(openFileDescriptors()).toBe(before);
  });
});

/** fs.writeSync that writes at most `limit` bytes per call, as a regular file may (rarely) do. */
function shortWrites(limit: number): jest.SpyInstance {
  const original = fs.writeSync.bind(fs) as (fd: number, data: Buffer, offset: number, length: number) => number;
  return jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: string | Buffer, offsetOrPosition?: number | null, lengthOrEncoding?: number | string) => {
    if (typeof data === 'string') {
      const bytes = Buffer.from(data, (lengthOrEncoding as BufferEncoding | undefined) ?? 'utf8');
      return original(fd, bytes, 0, Math.min(limit, bytes.length));
    }
    const offset = (offsetOrPosition as number | undefined) ?? 0;
    const length = (lengthOrEncoding as number | undefined) ?? data.length - offset;
    return original(fd, data, offset, Math.min(limit, length));
  }) as typeof fs.writeSync);
}

describe('durable writes', () => {
  const TEXT = 'Grüße 😀 日本語 '.repeat(5);

  it.each([1, 2, 3, 7, 1 << 20])('writeTextFully finishes a text written at most %i bytes at a time, and answers its UTF-8 length', (limit) => {
    const file = path.join(folder, 'text');
    const fd = fs.openSync(file, 'a');
    const writes = shortWrites(limit);
    try {
      expect(writeTextFully(fd, TEXT)).toBe(Buffer.byteLength(TEXT, 'utf8'));
      expect(writes.mock.calls.length).toBe(Math.max(1, Math.ceil(Buffer.byteLength(TEXT) / limit)));
    } finally {
      writes.mockRestore();
      fs.closeSync(fd);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(TEXT);
  });

  it('writeTextFully writes a whole text in one call when the file takes it', () => {
    const file = path.join(folder, 'text');
    const fd = fs.openSync(file, 'a');
    const writes = jest.spyOn(fs, 'writeSync');
    try {
      expect(writeTextFully(fd, TEXT)).toBe(Buffer.byteLength(TEXT));
      expect(writes).toHaveBeenCalledTimes(1);
    } finally {
      fs.closeSync(fd);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(TEXT);
  });

  it.each([1, 5, 1 << 20])('writeFully finishes a buffer written at most %i bytes at a time', (limit) => {
    const file = path.join(folder, 'bytes');
    const data = Buffer.from(TEXT);
    const fd = fs.openSync(file, 'a');
    const writes = shortWrites(limit);
    try {
      writeFully(fd, data);
    } finally {
      writes.mockRestore();
      fs.closeSync(fd);
    }
    expect(fs.readFileSync(file).equals(data)).toBe(true);
  });

  it('fsyncDirectory syncs a descriptor of the folder itself, and closes it', () => {
    const synced: boolean[] = [];
    const original = fs.fsyncSync.bind(fs);
    jest.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      synced.push(fs.fstatSync(fd).isDirectory() && fs.fstatSync(fd).ino === fs.statSync(folder).ino);
      original(fd);
    });
    const before = openFileDescriptors();
    fsyncDirectory(folder);
    expect(synced).toEqual([true]);
    expect(openFileDescriptors()).toBe(before);
  });
});
