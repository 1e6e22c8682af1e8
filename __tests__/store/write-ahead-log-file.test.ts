import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openFileDescriptors } from '../helpers/open-files.js';
import { positionedFileLines } from '../../src/store/embedded/file-lines.js';
import type { LogOperation, LogRecord } from '../../src/store/embedded/log-records.js';
import { CorruptLogError, PREVIOUS_WAL_FILE, replayLogs, WAL_FILE } from '../../src/store/embedded/write-ahead-log.js';

/**
 * The write-ahead logs read back in chunks (replayLogs over positionedFileLines): whatever the chunk size,
 * every record is applied in order, multi-byte characters split across chunks included; a torn last line
 * is ignored and cut off wal.log to the byte; a damaged line before the last, or a gap in the sequence, is
 * refused with its file and line.
 */

let folder: string;
let walFile: string;
let previousFile: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-wal-file-'));
  walFile = path.join(folder, WAL_FILE);
  previousFile = path.join(folder, PREVIOUS_WAL_FILE);
});
afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

const TITLES = ['Grüße aus Köln', '日本語のテキスト', 'emoji 😀 and 🎉', 'x'.repeat(150), ''];

function put(seq: number): LogOperation {
  return { op: 'put', collection: 'Task', documents: [{ _id: `t${seq}`, title: TITLES[seq % TITLES.length]!, seq }] };
}

function record(seq: number): LogRecord {
  const ops: LogOperation[] = [put(seq)];
  if (seq % 3 === 0) ops.push({ op: 'delete', collection: 'Task', ids: [`t${seq - 1}`] });
  return { seq, ops };
}

function lines(...seqs: number[]): string {
  return seqs.map((seq) => `${JSON.stringify(record(seq))}\n`).join('');
}

function opsOf(...seqs: number[]): LogOperation[] {
  return seqs.flatMap((seq) => record(seq).ops);
}

interface Replayed {
  applied: LogOperation[];
  lastSeq: number;
  previousLogExists: boolean;
  sizeBytes: number;
}

function replay(chunkBytes: number | undefined, snapshotSeq = 0): Replayed {
  const applied: LogOperation[] = [];
  const { log, lastSeq, previousLogExists } = replayLogs(folder, snapshotSeq, (operation) => applied.push(operation), chunkBytes);
  const sizeBytes = log.sizeBytes;
  log.close();
  return { applied, lastSeq, previousLogExists, sizeBytes };
}

function replayError(chunkBytes: number | undefined, snapshotSeq = 0): Error {
  try {
    replay(chunkBytes, snapshotSeq);
  } catch (error) {
    expect(error).toBeInstanceOf(CorruptLogError);
    expect((error as Error).name).toBe('CorruptLogError');
    return error as Error;
  }
  throw new Error('replayLogs did not fail');
}

const NOT_TORN = 'not a log record, and not the last line (so not a torn append)';

const CHUNK_SIZES: Array<[string, number | undefined]> = [
  ['1 byte', 1],
  ['2 bytes', 2],
  ['3 bytes', 3],
  ['7 bytes', 7],
  ['64 bytes', 64],
  ['the default 8 MiB', undefined],
];

describe.each(CHUNK_SIZES)('replayLogs, reading chunks of %s', (_label, chunkBytes) => {
  it('applies every record in order, multi-byte characters included, and leaves the log as it was', () => {
    const text = lines(1, 2, 3, 4, 5, 6);
    fs.writeFileSync(walFile, text);
    expect(replay(chunkBytes)).toEqual({ applied: opsOf(1, 2, 3, 4, 5, 6), lastSeq: 6, previousLogExists: false, sizeBytes: Buffer.byteLength(text) });
    expect(fs.readFileSync(walFile, 'utf8')).toBe(text);
  });

  it('creates a missing log and an empty one replays nothing', () => {
    expect(replay(chunkBytes, 7)).toEqual({ applied: [], lastSeq: 7, previousLogExists: false, sizeBytes: 0 });
    expect(fs.readFileSync(walFile, 'utf8')).toBe('');
  });

  it('ignores a torn last line without its newline, cut inside a multi-byte character, and cuts it off', () => {
    const intact = lines(1, 2);
    const torn = Buffer.from(JSON.stringify(record(3)));
    const emoji = torn.indexOf(Buffer.from('😀'));
    fs.writeFileSync(walFile, Buffer.concat([Buffer.from(intact), torn.subarray(0, emoji + 2)]));
    expect(replay(chunkBytes)).toEqual({ applied: opsOf(1, 2), lastSeq: 2, previousLogExists: false, sizeBytes: Buffer.byteLength(intact) });
    expect(fs.readFileSync(walFile, 'utf8')).toBe(intact);
  });

  it('ignores a whole record whose newline was not written (its append never completed), and cuts it off', () => {
    const intact = lines(1, 2);
    fs.writeFileSync(walFile, intact + JSON.stringify(record(3)));
    expect(replay(chunkBytes)).toEqual({ applied: opsOf(1, 2), lastSeq: 2, previousLogExists: false, sizeBytes: Buffer.byteLength(intact) });
    expect(fs.readFileSync(walFile, 'utf8')).toBe(intact);
  });

  it.each([
    ['garbage', 'garbage\n'],
    ['a record cut short', '{"seq":3,"ops":[{"op":"put","collection":"Tä\n'],
    ['JSON that is not a record', '{"seq":"3","ops":[]}\n'],
    ['an empty line', '\n'],
  ])('ignores a last line that is %s, and cuts it off', (_case, last) => {
    const intact = lines(1, 2);
    fs.writeFileSync(walFile, intact + last);
    expect(replay(chunkBytes)).toEqual({ applied: opsOf(1, 2), lastSeq: 2, previousLogExists: false, sizeBytes: Buffer.byteLength(intact) });
    expect(fs.readFileSync(walFile, 'utf8')).toBe(intact);
  });

  it('continues after a cut-off torn line on a clean line', async () => {
    const intact = lines(1, 2, 3);
    fs.writeFileSync(walFile, `${intact}{"seq":4,"ops":[{"op":"put","collection":"Task","documents":[{"_id":"Kö`);
    const { log } = replayLogs(folder, 0, () => undefined, chunkBytes);
    await log.append(record(4));
    log.close();
    expect(fs.readFileSync(walFile, 'utf8')).toBe(lines(1, 2, 3, 4));
    expect(replay(chunkBytes)).toEqual({ applied: opsOf(1, 2, 3, 4), lastSeq: 4, previousLogExists: false, sizeBytes: Buffer.byteLength(lines(1, 2, 3, 4)) });
  });

  it.each([
    ['another record', lines(3, 4)],
    ['only a torn line', '{"seq":3,"ops":'],
    ['an empty last line', '\n'],
  ])('refuses a damaged line followed by %s, naming its line, and leaves the log as it was', (_case, after) => {
    const text = `${lines(1, 2)}{"seq":3,"ops":[{"op":"put"\n${after}`;
    fs.writeFileSync(walFile, text);
    const descriptors = openFileDescriptors();
    expect(replayError(chunkBytes).message).toBe(`write-ahead log ${walFile} is corrupt at line 3: ${NOT_TORN}`);
    expect(openFileDescriptors()).toBe(descriptors);
    expect(fs.readFileSync(walFile, 'utf8')).toBe(text);
  });

  it('refuses a damaged first line', () => {
    fs.writeFileSync(walFile, `Grüße\n${lines(1)}`);
    expect(replayError(chunkBytes).message).toBe(`write-ahead log ${walFile} is corrupt at line 1: ${NOT_TORN}`);
  });

  it('skips the records the snapshot holds', () => {
    fs.writeFileSync(walFile, lines(1, 2, 3, 4, 5));
    expect(replay(chunkBytes, 3)).toEqual({ applied: opsOf(4, 5), lastSeq: 5, previousLogExists: false, sizeBytes: Buffer.byteLength(lines(1, 2, 3, 4, 5)) });
  });

  it.each([
    ['inside the log', [1, 2, 4, 5], 0, 3, 'record 4 follows 2'],
    ['after the snapshot', [5, 6], 3, 1, 'record 5 follows 3'],
    ['after records the snapshot holds', [1, 2, 3, 6], 4, 4, 'record 6 follows 4'],
  ])('refuses a gap in the sequence %s, naming its line', (_case, seqs, snapshotSeq, line, reason) => {
    fs.writeFileSync(walFile, lines(...seqs));
    const descriptors = openFileDescriptors();
    expect(replayError(chunkBytes, snapshotSeq).message).toBe(`write-ahead log ${walFile} is corrupt at line ${line}: ${reason}: records are missing`);
    expect(openFileDescriptors()).toBe(descriptors);
  });

  it('replays the previous log before the log', () => {
    fs.writeFileSync(previousFile, lines(1, 2, 3));
    fs.writeFileSync(walFile, lines(4, 5));
    expect(replay(chunkBytes)).toEqual({ applied: opsOf(1, 2, 3, 4, 5), lastSeq: 5, previousLogExists: true, sizeBytes: Buffer.byteLength(lines(4, 5)) });
  });

  it('ignores a torn last line of the previous log without cutting it off', () => {
    const previous = `${lines(1, 2)}{"seq":3,"ops":[{"op":"pu`;
    fs.writeFileSync(previousFile, previous);
    fs.writeFileSync(walFile, lines(3));
    expect(replay(chunkBytes)).toEqual({ applied: opsOf(1, 2, 3), lastSeq: 3, previousLogExists: true, sizeBytes: Buffer.byteLength(lines(3)) });
    expect(fs.readFileSync(previousFile, 'utf8')).toBe(previous);
  });

  it('refuses a gap between the previous log and the log, naming the log', () => {
    fs.writeFileSync(previousFile, lines(1, 2));
    fs.writeFileSync(walFile, lines(4));
    expect(replayError(chunkBytes).message).toBe(`write-ahead log ${walFile} is corrupt at line 1: record 4 follows 2: records are missing`);
  });

  it('refuses damage inside the previous log, naming it, and leaves a torn log alone', () => {
    fs.writeFileSync(previousFile, `${lines(1)}not json\n${lines(2)}`);
    const torn = `${lines(3)}{"seq":4`;
    fs.writeFileSync(walFile, torn);
    expect(replayError(chunkBytes).message).toBe(`write-ahead log ${previousFile} is corrupt at line 2: ${NOT_TORN}`);
    expect(fs.readFileSync(walFile, 'utf8')).toBe(torn);
  });
});

describe('positionedFileLines', () => {
  it.each([1, 2, 3, 7, 1 << 20])('gives where each line ends and whether it has its newline (%i-byte chunks)', (chunkBytes) => {
    const file = path.join(folder, 'lines.txt');
    fs.writeFileSync(file, 'a\n\nbé😀c\n' + 'z'.repeat(20) + '\nlast ö');
    expect([...positionedFileLines(file, chunkBytes)]).toEqual([
      { text: 'a', end: 2, terminated: true },
      { text: '', end: 3, terminated: true },
      { text: 'bé😀c', end: 12, terminated: true },
      { text: 'z'.repeat(20), end: 33, terminated: true },
      { text: 'last ö', end: 40, terminated: false },
    ]);
  });

  it('ends at the last newline when the file ends with one', () => {
    const file = path.join(folder, 'lines.txt');
    fs.writeFileSync(file, 'ä\n');
    expect([...positionedFileLines(file, 1)]).toEqual([{ text: 'ä', end: 3, terminated: true }]);
  });
});
