/**
 * A test double of the Store port holding only what persisted queries use: `find` by `_id` (equality or
 * `$in`, with `limit` and an `_id` projection), all-or-nothing `insertMany`, and the `updateMany` that a
 * manifest upload promotes client registrations with (`_id` `$in` and `source`, `$set`). Everything else throws,
 * so a test notices if the code under test starts to depend on more. It counts calls and can be made
 * unavailable, to test lookups that reach the store and its outages.
 */
import {
  DuplicateKeyError,
  StoreUnavailableError,
  type Collection,
  type Filter,
  type FindOptions,
  type Store,
  type StoredDocument,
  type UpdateDocument,
  type UpdateResult,
} from '../../src/store/port.js';

export class MemoryStore implements Store {
  readonly kind = 'memory-test-double';
  readonly collections = new Map<string, MemoryCollection>();
  unavailable = false;

  collection(name: string): MemoryCollection {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MemoryCollection(name, this);
      this.collections.set(name, collection);
    }
    return collection;
  }

  transaction<T>(): Promise<T> {
    throw new Error('MemoryStore.transaction is not implemented by the test double');
  }
  openSnapshot(): never {
    throw new Error('MemoryStore.openSnapshot is not implemented by the test double');
  }
  syncIndexes(): never {
    throw new Error('MemoryStore.syncIndexes is not implemented by the test double');
  }
  listIndexes(): never {
    throw new Error('MemoryStore.listIndexes is not implemented by the test double');
  }
  dropCollection(): never {
    throw new Error('MemoryStore.dropCollection is not implemented by the test double');
  }
  watchChanges(): never {
    throw new Error('MemoryStore.watchChanges is not implemented by the test double');
  }
  ready(): boolean {
    return !this.unavailable;
  }
  async close(): Promise<void> {}
}

export class MemoryCollection implements Collection {
  readonly documents = new Map<string, StoredDocument>();
  findCalls = 0;
  insertCalls = 0;
  /** Runs before the next insert's checks: lets a test play a racing instance. */
  beforeNextInsert: (() => void) | undefined;

  constructor(
    readonly name: string,
    private readonly store: MemoryStore,
  ) {}

  async find(filter: Filter, options: FindOptions = {}): Promise<StoredDocument[]> {
    this.findCalls += 1;
    this.checkAvailable();
    const ids = idsMatching(filter);
    let found = ids.flatMap((id) => {
      const document = this.documents.get(id);
      return document ? [structuredClone(document)] : [];
    });
    if (options.projection) {
      const fields = Object.keys(options.projection);
      found = found.map((document) => {
        const projected: StoredDocument = { _id: document._id };
        for (const field of fields) {
          if (field in document) projected[field] = document[field];
        }
        return projected;
      });
    }
    return options.limit ? found.slice(0, options.limit) : found;
  }

  async insertMany(documents: StoredDocument[]): Promise<void> {
    this.insertCalls += 1;
    const racing = this.beforeNextInsert;
    this.beforeNextInsert = undefined;
    racing?.();
    this.checkAvailable();
    const seen = new Set<string>();
    for (const document of documents) {
      if (this.documents.has(document._id) || seen.has(document._id)) {
        throw new DuplicateKeyError(this.name, '_id', document._id);
      }
      seen.add(document._id);
    }
    for (const document of documents) {
      this.documents.set(document._id, structuredClone(document));
    }
  }

  findPerKey(): never {
    throw new Error('MemoryCollection.findPerKey is not implemented by the test double');
  }
  count(): never {
    throw new Error('MemoryCollection.count is not implemented by the test double');
  }
  aggregate(): never {
    throw new Error('MemoryCollection.aggregate is not implemented by the test double');
  }
  async updateMany(filter: Filter, update: UpdateDocument): Promise<UpdateResult> {
    this.checkAvailable();
    const { source, ...byId } = filter;
    const set = update.$set;
    if (set === undefined || Object.keys(update).length !== 1) {
      throw new Error(`MemoryCollection.updateMany supports only $set, got ${JSON.stringify(update)}`);
    }
    let matched = 0;
    for (const id of idsMatching(byId)) {
      const document = this.documents.get(id);
      if (document === undefined || (source !== undefined && document.source !== source)) continue;
      matched += 1;
      Object.assign(document, structuredClone(set));
    }
    return { matched, modified: matched };
  }
  deleteMany(): never {
    throw new Error('MemoryCollection.deleteMany is not implemented by the test double');
  }

  private checkAvailable(): void {
    if (this.store.unavailable) {
      throw new StoreUnavailableError('the test made the store unavailable');
    }
  }
}

function idsMatching(filter: Filter): string[] {
  const keys = Object.keys(filter);
  const id = filter._id;
  if (keys.length !== 1 || keys[0] !== '_id') {
    throw new Error(`MemoryCollection.find supports only filters on _id, got ${JSON.stringify(filter)}`);
  }
  if (typeof id === 'string') {
    return [id];
  }
  if (typeof id === 'object' && id !== null && Array.isArray((id as { $in?: unknown }).$in)) {
    return (id as { $in: string[] }).$in;
  }
  throw new Error(`MemoryCollection.find supports _id equality or $in, got ${JSON.stringify(filter)}`);
}
