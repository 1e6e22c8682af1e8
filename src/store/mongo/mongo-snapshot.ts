/**
 * The MongoDB StoreSnapshot. On a replica set or a sharded cluster every read goes through one snapshot
 * session (`startSession({ snapshot: true })`, MongoDB 5.0+): all of them see the data as of the first
 * read, whatever is written meanwhile, for as long as the server keeps that history
 * (`minSnapshotHistoryWindowInSeconds`, 300 s by default; a longer export fails with SnapshotTooOld and
 * must be started again). A standalone server has no snapshot sessions: its documents are read with plain
 * cursors, each document whole, writes made meanwhile seen or not.
 */
import type { ClientSession, Db } from 'mongodb';
import type { SnapshotCollectionInfo, StoredDocument, StoreSnapshot } from '../port.js';
import { toStoreError } from './errors.js';
import { existingIndexFrom, indexSpecFrom } from './index-sync.js';

/** Reads `db` through `session` (a snapshot session) or, when it is undefined, without one. */
export async function openMongoSnapshot(db: Db, session: ClientSession | undefined): Promise<StoreSnapshot> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((info) => info.name)
    .filter((name) => !name.startsWith('system.'))
    .sort();
  const collections: SnapshotCollectionInfo[] = [];
  for (const name of names) {
    const collection = db.collection(name);
    const count = await collection.countDocuments({}, { session });
    const indexes = (await collection.listIndexes().toArray())
      .map(existingIndexFrom)
      .filter((index) => index.name !== '_id_')
      .map(indexSpecFrom)
      .flatMap((spec) => (spec === undefined ? [] : [spec]));
    collections.push({ name, count, indexes });
  }
  return new MongoSnapshot(db, session, collections);
}

class MongoSnapshot implements StoreSnapshot {
  readonly consistency;

  constructor(
    private readonly db: Db,
    private readonly session: ClientSession | undefined,
    readonly collections: readonly SnapshotCollectionInfo[],
  ) {
    this.consistency = session === undefined ? ('per-document' as const) : ('point-in-time' as const);
  }

  async *documents(collection: string, batchSize: number): AsyncIterable<StoredDocument[]> {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`snapshot batch size must be a positive integer, got ${batchSize}`);
    const cursor = this.db.collection<StoredDocument>(collection).find({}, { session: this.session, sort: { _id: 1 }, batchSize });
    try {
      let batch: StoredDocument[] = [];
      for await (const document of cursor) {
        batch.push(document);
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } catch (error) {
      throw toStoreError(error, collection);
    } finally {
      await cursor.close();
    }
  }

  async close(): Promise<void> {
    await this.session?.endSession();
  }
}
