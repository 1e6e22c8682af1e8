/**
 * The embedded store's StoreSnapshot: each collection's document array and index specs as of one moment
 * between units of work, the way compaction freezes the state (compactor.ts). Documents are never changed
 * in place (a write replaces them, and a collection's array is rebuilt rather than changed), so the frozen
 * arrays keep showing that moment while writes go on, at the cost of one pointer per document at most.
 */
import type { SnapshotCollectionInfo, StoredDocument, StoreSnapshot } from '../port.js';
import type { Database } from './database.js';

interface FrozenCollection extends SnapshotCollectionInfo {
  documents: readonly StoredDocument[];
}

/** The current state of `database`; call it between units of work. */
export function freezeDatabase(database: Database): StoreSnapshot {
  const collections: FrozenCollection[] = database
    .all()
    .map((state) => {
      const documents = state.all();
      const indexes = state.indexSpecs().map((spec) => structuredClone(spec));
      return { name: state.name, count: documents.length, indexes, documents };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new FrozenSnapshot(collections);
}

class FrozenSnapshot implements StoreSnapshot {
  readonly consistency = 'point-in-time';
  readonly collections: readonly SnapshotCollectionInfo[];
  private readonly byName: Map<string, FrozenCollection>;
  private closed = false;

  constructor(collections: FrozenCollection[]) {
    this.collections = collections.map(({ name, count, indexes }) => ({ name, count, indexes }));
    this.byName = new Map(collections.map((collection) => [collection.name, collection]));
  }

  async *documents(collection: string, batchSize: number): AsyncIterable<StoredDocument[]> {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`snapshot batch size must be a positive integer, got ${batchSize}`);
    const documents = this.byName.get(collection)?.documents ?? [];
    for (let start = 0; start < documents.length; start += batchSize) {
      if (this.closed) throw new Error('the snapshot was closed while its documents were read');
      yield documents.slice(start, start + batchSize);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.byName.clear();
  }
}
