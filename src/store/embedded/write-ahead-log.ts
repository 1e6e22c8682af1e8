/**
 * The append-only write-ahead log: one JSON line per committed unit of work, appended and fsynced before
 * the write is acknowledged (and, see TransactionManager, before any other reader can see it). On open it
 * is read back in chunks, each record applied as it is parsed (so a log of any size reopens, and neither
 * its bytes nor its records are held at once); a torn last line (a crash during the append) is ignored and
 * cut off so that later appends start on a clean line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDirectory, writeTextFully } from './durable-file.js';
import { positionedFileLines } from './file-lines.js';
import { isLogRecord, type LogOperation, type LogRecord } from './log-records.js';

export const WAL_FILE = 'wal.log';
/**
 * The log's earlier part while a background compaction writes the snapshot that will hold it: moved
 * aside by `rotate`, deleted once that snapshot is in place. On open it is replayed before `WAL_FILE`.
 */
export const PREVIOUS_WAL_FILE = 'wal.previous.log';

export class CorruptLogError extends Error {
  constructor(file: string, line: number, reason: string) {
    super(`write-ahead log ${file} is corrupt at line ${line}: ${reason}`);
    this.name = 'CorruptLogError';
  }
}

/** Takes one intact record of a log as it is read; `line` is its 1-based line number. */
type ReadRecord = (record: LogRecord, line: number) => void;

export interface ReplayedLogs {
  /** WAL_FILE, open for appending after its intact records. */
  log: WriteAheadLog;
  /** The sequence number of the last record applied (the snapshot's when none was). */
  lastSeq: number;
  previousLogExists: boolean;
}

/**
 * Replays the logs in `dataDir` onto a database loaded from a snapshot that ends at `snapshotSeq`:
 * PREVIOUS_WAL_FILE, then WAL_FILE, handing each operation of each record after the snapshot to `apply`
 * as the record is read. Refuses (CorruptLogError) a damaged line that is not a torn last one, and a gap
 * in the sequence. `chunkBytes` is how much of a file is read at a time.
 */
export function replayLogs(dataDir: string, snapshotSeq: number, apply: (operation: LogOperation) => void, chunkBytes?: number): ReplayedLogs {
  let lastSeq = snapshotSeq;
  const replay =
    (file: string): ReadRecord =>
    (record, line) => {
      if (record.seq <= lastSeq) return; // already in the snapshot (a crash came before the log was emptied)
      if (record.seq !== lastSeq + 1) throw new CorruptLogError(file, line, `record ${record.seq} follows ${lastSeq}: records are missing`);
      for (const operation of record.ops) apply(operation);
      lastSeq = record.seq;
    };
  // A compaction interrupted by a crash left the log's earlier part aside: it comes first.
  const previous = path.join(dataDir, PREVIOUS_WAL_FILE);
  const previousLogExists = fs.existsSync(previous);
  if (previousLogExists) readLog(previous, replay(previous), chunkBytes);
  const log = WriteAheadLog.open(dataDir, replay(path.join(dataDir, WAL_FILE)), chunkBytes);
  return { log, lastSeq, previousLogExists };
}

export class WriteAheadLog {
  private constructor(
    readonly file: string,
    private fd: number,
    private size: number,
  ) {}

  /**
   * Opens (creating if missing) the log in `dataDir`, handing its intact records to `read` in order, and
   * cuts off a torn last line. When `read` throws, the log is left as it was and not opened.
   */
  static open(dataDir: string, read: ReadRecord, chunkBytes?: number): WriteAheadLog {
    const file = path.join(dataDir, WAL_FILE);
    const intactBytes = fs.existsSync(file) ? readLog(file, read, chunkBytes) : 0;
    const fd = fs.openSync(file, 'a');
    try {
      if (fs.fstatSync(fd).size > intactBytes) {
        fs.ftruncateSync(fd, intactBytes);
        fs.fsyncSync(fd);
      }
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    return new WriteAheadLog(file, fd, intactBytes);
  }

  get sizeBytes(): number {
    return this.size;
  }

  /**
   * Appends one record and resolves once it is durable; if that fails, the log is cut back so no partial
   * line remains. The fsync runs off the event loop, so other requests are parsed and executed meanwhile
   * (TransactionManager keeps the unit invisible until then). Do not append again before this settles.
   */
  async append(record: LogRecord): Promise<void> {
    const fd = this.fd;
    let bytes: number;
    try {
      bytes = writeTextFully(fd, `${JSON.stringify(record)}\n`);
      await new Promise<void>((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve())));
    } catch (error) {
      try {
        fs.ftruncateSync(fd, this.size);
      } catch {
        // The original error is the one worth reporting.
      }
      throw error;
    }
    this.size += bytes;
  }

  /**
   * Moves every record so far aside into PREVIOUS_WAL_FILE (which must not exist) and continues in an
   * empty log. Every record was fsynced when appended, so only the directory needs syncing.
   */
  rotate(): void {
    const dataDir = path.dirname(this.file);
    const previous = path.join(dataDir, PREVIOUS_WAL_FILE);
    if (fs.existsSync(previous)) throw new Error(`cannot rotate the write-ahead log: ${previous} still exists`);
    fs.closeSync(this.fd);
    try {
      fs.renameSync(this.file, previous);
    } finally {
      this.fd = fs.openSync(this.file, 'a');
    }
    fsyncDirectory(dataDir);
    this.size = 0;
  }

  /** Empties the log once a snapshot holds everything in it. */
  clear(): void {
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.size = 0;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Deletes PREVIOUS_WAL_FILE once a durable snapshot holds all its records. */
export function removePreviousLog(dataDir: string): void {
  const file = path.join(dataDir, PREVIOUS_WAL_FILE);
  if (!fs.existsSync(file)) return;
  fs.rmSync(file);
  fsyncDirectory(dataDir);
}

/**
 * Hands each intact record of `file` to `read` as it is parsed, and answers how many bytes at the file's
 * start are intact: all of them but a torn last line.
 */
function readLog(file: string, read: ReadRecord, chunkBytes?: number): number {
  let intactBytes = 0;
  let lineNumber = 0;
  // A line that is not a record is a torn append only if it is the last: that is known once the next line
  // arrives (then the file is corrupt) or none does.
  let unparsableLine: number | undefined;
  for (const line of positionedFileLines(file, chunkBytes)) {
    if (unparsableLine !== undefined) throw new CorruptLogError(file, unparsableLine, 'not a log record, and not the last line (so not a torn append)');
    lineNumber++;
    if (!line.terminated) break; // torn: the crash came before the newline was written
    const record = parseLine(line.text);
    if (record === undefined) {
      unparsableLine = lineNumber;
      continue;
    }
    read(record, lineNumber);
    intactBytes = line.end;
  }
  return intactBytes;
}

function parseLine(line: string): LogRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isLogRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
