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
import { replayLogs } from './write-ahead-log.js';
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
    const snapshotSeq =
      loadSnapshot(directory, (collection) => {
        const state = database.ensure(collection.name);
        for (const document of collection.documents) state.put(document);
        for (const spec of collection.indexes) state.addIndex(spec, false);
      }) ?? 0;
    const { log, lastSeq, previousLogExists } = replayLogs(directory, snapshotSeq, (operation) => database.apply(operation));
    return new EmbeddedStore(directory, database, log, lock, lastSeq, options, previousLogExists, snapshotSize(directory));
  } catch (error) {
    lock.release();
    throw error;
  }
}
