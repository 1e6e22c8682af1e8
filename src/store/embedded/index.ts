/**
 * The embedded store: the service's default backend. In-process collections queried with mingo, made
 * durable by a write-ahead log (fsynced per commit) and snapshots, guarded by a lock file per data folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../port.js';
import { Database } from './database.js';
import { acquireDirectoryLock } from './directory-lock.js';
import { EmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
import { CorruptLogError, PREVIOUS_WAL_FILE, readPreviousLog, WriteAheadLog } from './write-ahead-log.js';
import { SNAPSHOT_FILE, loadSnapshot, snapshotSize } from './snapshot.js';

export { DataDirectoryLockedError } from './directory-lock.js';
export { StoreClosedError, DEFAULT_COMPACT_AFTER_BYTES, DEFAULT_COMPACT_AFTER_SNAPSHOT_SHARE, type EmbeddedStoreOptions } from './embedded-store.js';
export type { CompactionReport } from './compactor.js';
export { CorruptLogError } from './write-ahead-log.js';
export { CorruptSnapshotError, writeSnapshotFromStore } from './snapshot.js';
export { InvalidDocumentError } from './json-values.js';

/**
 * Opens (creating it if missing) the store kept in `dataDir`: loads the snapshot, replays the log after
 * it, and locks the folder against other openers until `close()`.
 */
export async function openEmbeddedStore(dataDir: string, options: EmbeddedStoreOptions = {}): Promise<Store> {
  const directory = path.resolve(dataDir);
  fs.mkdirSync(directory, { recursive: true });
  const lock = acquireDirectoryLock(directory);
  try {
    fs.rmSync(path.join(directory, `${SNAPSHOT_FILE}.tmp`), { force: true });
    const database = new Database();
    let lastSeq =
      loadSnapshot(directory, (collection) => {
        const state = database.ensure(collection.name);
        for (const document of collection.documents) state.put(document);
        for (const spec of collection.indexes) state.addIndex(spec, false);
      }) ?? 0;
    // A compaction interrupted by a crash left the log's earlier part aside: it comes first.
    const previousFile = path.join(directory, PREVIOUS_WAL_FILE);
    const previousRecords = readPreviousLog(directory);
    const previousLogExists = fs.existsSync(previousFile);
    const { log, records } = WriteAheadLog.open(directory);
    try {
      for (const [file, logRecords] of [[previousFile, previousRecords], [log.file, records]] as const) {
        for (const [i, record] of logRecords.entries()) {
          if (record.seq <= lastSeq) continue; // already in the snapshot (a crash came before the log was emptied)
          if (record.seq !== lastSeq + 1) {
            throw new CorruptLogError(file, i + 1, `record ${record.seq} follows ${lastSeq}: records are missing`);
          }
          for (const operation of record.ops) database.apply(operation);
          lastSeq = record.seq;
        }
      }
    } catch (error) {
      log.close();
      throw error;
    }
    return new EmbeddedStore(directory, database, log, lock, lastSeq, options, previousLogExists, snapshotSize(directory));
  } catch (error) {
    lock.release();
    throw error;
  }
}
