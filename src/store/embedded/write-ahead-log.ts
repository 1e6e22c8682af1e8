/**
 * The append-only write-ahead log: one JSON line per committed unit of work, appended and fsynced before
 * the write is acknowledged. On open it is read back; a torn last line (a crash during the append) is
 * ignored and cut off so that later appends start on a clean line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFully } from './durable-file.js';
import { isLogRecord, type LogRecord } from './log-records.js';

export const WAL_FILE = 'wal.log';

export class CorruptLogError extends Error {
  constructor(file: string, line: number, reason: string) {
    super(`write-ahead log ${file} is corrupt at line ${line}: ${reason}`);
    this.name = 'CorruptLogError';
  }
}

export class WriteAheadLog {
  private constructor(
    readonly file: string,
    private readonly fd: number,
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

  /** Appends one record durably; if that fails, the log is cut back so no partial line remains. */
  append(record: LogRecord): void {
    const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
    try {
      writeFully(this.fd, line);
      fs.fsyncSync(this.fd);
    } catch (error) {
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        // The original error is the one worth reporting.
      }
      throw error;
    }
    this.size += line.length;
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
