/**
 * The append-only write-ahead log: one JSON line per committed unit of work, appended and fsynced before
 * the write is acknowledged (and, see TransactionManager, before any other reader can see it). On open it
 * is read back; a torn last line (a crash during the append) is ignored and cut off so that later appends
 * start on a clean line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDirectory, writeTextFully } from './durable-file.js';
import { isLogRecord, type LogRecord } from './log-records.js';

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

export class WriteAheadLog {
  private constructor(
    readonly file: string,
    private fd: number,
    private size: number,
  ) {}

  /** Opens (creating if missing) the log in `dataDir` and returns its intact records. */
  static open(dataDir: string): { log: WriteAheadLog; records: LogRecord[] } {
    const file = path.join(dataDir, WAL_FILE);
    const content = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
    const { records, intactBytes } = parseLog(file, content);
    const fd = fs.openSync(file, 'a');
    if (intactBytes < content.length) {
      fs.ftruncateSync(fd, intactBytes);
      fs.fsyncSync(fd);
    }
    return { log: new WriteAheadLog(file, fd, intactBytes), records };
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

/** The records of PREVIOUS_WAL_FILE in `dataDir` (none when it does not exist). */
export function readPreviousLog(dataDir: string): LogRecord[] {
  const file = path.join(dataDir, PREVIOUS_WAL_FILE);
  if (!fs.existsSync(file)) return [];
  return parseLog(file, fs.readFileSync(file)).records;
}

/** Deletes PREVIOUS_WAL_FILE once a durable snapshot holds all its records. */
export function removePreviousLog(dataDir: string): void {
  const file = path.join(dataDir, PREVIOUS_WAL_FILE);
  if (!fs.existsSync(file)) return;
  fs.rmSync(file);
  fsyncDirectory(dataDir);
}

function parseLog(file: string, content: Buffer): { records: LogRecord[]; intactBytes: number } {
  const records: LogRecord[] = [];
  let start = 0;
  let lineNumber = 0;
  while (start < content.length) {
    const end = content.indexOf(0x0a, start);
    lineNumber++;
    const isLast = end === -1 || end === content.length - 1;
    if (end === -1) break; // torn: the crash came before the newline was written
    const record = parseLine(content.subarray(start, end).toString('utf8'));
    if (!record) {
      if (isLast) break;
      throw new CorruptLogError(file, lineNumber, 'not a log record, and not the last line (so not a torn append)');
    }
    records.push(record);
    start = end + 1;
  }
  return { records, intactBytes: start };
}

function parseLine(line: string): LogRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isLogRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
