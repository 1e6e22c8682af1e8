/**
 * An online backup of the embedded store: a point-in-time snapshot of it, written into a new folder on
 * the service's machine as an embedded data folder (`--data <folder>` starts a service on it). Writes go
 * on meanwhile; the backup holds the state of the moment it began (see the embedded StoreSnapshot).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeSnapshotFromStore } from '../store/embedded/index.js';
import type { Store } from '../store/port.js';

/** The backup cannot be made as asked (wrong backend, folder in use); the message says why. */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

export interface BackupReport {
  folder: string;
  /** Documents per collection. */
  collections: Record<string, number>;
  documents: number;
  bytes: number;
}

export async function backupToFolder(store: Store, folder: string): Promise<BackupReport> {
  if (store.kind !== 'embedded') {
    throw new BackupRefusedError(
      `backup writes an embedded data folder and works on the embedded store only; this service runs on ${store.kind}: ` +
        'back MongoDB up with mongodump (or your Atlas backups) and keep an export (GET /admin/export) beside it',
    );
  }
  if (!path.isAbsolute(folder)) throw new BackupRefusedError(`the backup folder must be an absolute path on the service's machine, got ${JSON.stringify(folder)}`);
  await claimEmptyFolder(folder);
  const snapshot = await store.openSnapshot();
  try {
    const { documents, file } = await writeSnapshotFromStore(folder, snapshot);
    const collections = Object.fromEntries(snapshot.collections.map((collection) => [collection.name, collection.count]));
    const bytes = (await fs.promises.stat(file)).size;
    return { folder, collections, documents, bytes };
  } finally {
    await snapshot.close();
  }
}

/** Creates `folder` (and its parents), or accepts an existing empty one; anything else is refused. */
async function claimEmptyFolder(folder: string): Promise<void> {
  let entries: string[];
  try {
    entries = await fs.promises.readdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      await fs.promises.mkdir(folder, { recursive: true });
      return;
    }
    if (code === 'ENOTDIR') throw new BackupRefusedError(`${folder} exists and is not a folder`);
    throw error;
  }
  if (entries.length > 0) throw new BackupRefusedError(`the backup folder ${folder} is not empty (it holds ${entries.length} entries); name a new or empty folder`);
}
