/**
 * The Store port: what the service needs from a database. Both adapters (embedded/ and mongo/) take
 * MongoDB query documents, update documents and aggregation pipelines, so the translation in query/ is
 * exercised for real on every backend.
 */

/** A stored object. `_id` is the object's ID value (always a string). */
export type StoredDocument = { _id: string } & Record<string, unknown>;

/** A MongoDB query document, e.g. `{ title: { $regex: "^a" }, done: true }`. */
export type Filter = Record<string, unknown>;

/** A MongoDB update document with operators (`$set`, `$unset`, `$addToSet`, `$pull`, `$push`, `$inc`). */
export type UpdateDocument = Record<string, Record<string, unknown>>;

/** A MongoDB aggregation pipeline. `$lookup` may name other collections of the same store. */
export type Pipeline = Record<string, unknown>[];

/**
 * Key order matters, as in MongoDB: the first key sorts first. Unlike MongoDB, null and missing values
 * sort last in both directions (Dgraph's order); every adapter keeps to that.
 */
export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  /** Inclusion projection (`{ field: 1 }`); `_id` is always returned. */
  projection?: Record<string, 1>;
}

export interface IndexSpec {
  /** Stable name; schema activation drops indexes of ours whose name is no longer wanted. */
  name: string;
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  /** Unique indexes skip documents that lack the field. */
  sparse?: boolean;
  /**
   * Only the documents this filter selects are indexed (MongoDB's partial index), e.g. `{ code: { $type:
   * 'string' } }`: a unique index then ignores documents without a value of that type. Not with `sparse`.
   */
  partialFilterExpression?: Filter;
}

export interface IndexSync {
  created: string[];
  dropped: string[];
}

/** Opaque handle of a running transaction; pass it to every operation that belongs to it. */
export interface Transaction {
  readonly id: number;
}

export interface UpdateResult {
  matched: number;
  modified: number;
}

/**
 * The circumstances of one Collection call: the transaction it belongs to, if any, and the time by which
 * it must be over (an absolute `Date.now()` in ms). An operation that has not finished by then fails with
 * DeadlineExceededError (MongoDB: `maxTimeMS`; the embedded store checks the clock while it scans).
 */
export interface OperationScope {
  tx?: Transaction;
  deadline?: number;
}

/** The page `findPerKey` returns for each key: in `sort` order, `skip` then at most `limit` (0 or absent: all). */
export interface PerKeyPage {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  /** Inclusion projection of the documents returned (`{ field: 1 }`), as `find` applies it; `_id` always comes. */
  projection?: Record<string, 1>;
}

export interface Collection {
  readonly name: string;
  find(filter: Filter, options?: FindOptions, scope?: OperationScope): Promise<StoredDocument[]>;
  count(filter: Filter, scope?: OperationScope): Promise<number>;
  aggregate(pipeline: Pipeline, scope?: OperationScope): Promise<Record<string, unknown>[]>;
  /**
   * For each distinct key of `keys`, the page of the documents matching `filter` whose `field` equals the
   * key (or, for an array, holds it), as `find({ $and: [filter, { [field]: key }] }, page)` would give
   * it: one call for many keys (say, the first 10 tasks of each of 100 users). Every key of `keys` has an
   * entry, empty when nothing matched. `filter` is a plain query document (no `$lookup` needed).
   */
  findPerKey(field: string, keys: readonly string[], filter: Filter, page: PerKeyPage, scope?: OperationScope): Promise<Map<string, StoredDocument[]>>;
  /** All or nothing: a duplicate `_id` or unique-index violation throws `DuplicateKeyError`, writing none. */
  insertMany(documents: StoredDocument[], scope?: OperationScope): Promise<void>;
  updateMany(filter: Filter, update: UpdateDocument, scope?: OperationScope): Promise<UpdateResult>;
  /** Returns how many documents were deleted. */
  deleteMany(filter: Filter, scope?: OperationScope): Promise<number>;
}

/**
 * How far a StoreSnapshot's reads agree with each other. `point-in-time`: every document of every
 * collection as of one moment, however long the reading takes (the embedded store; MongoDB replica sets
 * and sharded clusters through a snapshot session). `per-document`: each document is whole, but writes
 * made while the snapshot is read may or may not show (a standalone MongoDB server, which has no
 * snapshot sessions).
 */
export type SnapshotConsistency = 'point-in-time' | 'per-document';

export interface SnapshotCollectionInfo {
  name: string;
  /** Documents in the collection as of the snapshot (with `per-document` consistency, when it was opened). */
  count: number;
  /** Its indexes, like `listIndexes`. */
  indexes: IndexSpec[];
}

/** A read-only view of the whole store for export and backup. Close it when done: it may hold resources. */
export interface StoreSnapshot {
  readonly consistency: SnapshotConsistency;
  /** Every collection, system collections included, sorted by name. */
  readonly collections: readonly SnapshotCollectionInfo[];
  /**
   * The documents of `collection`, in batches of at most `batchSize`, so a caller holds one batch at a
   * time. The documents are the caller's to read, never to change.
   */
  documents(collection: string, batchSize: number): AsyncIterable<StoredDocument[]>;
  close(): Promise<void>;
}

/** What one committed unit of work (or, over MongoDB, one reported write) changed. */
export interface StoreChange {
  /** The collections it wrote to, each once. */
  readonly collections: readonly string[];
}

export type ChangeListener = (change: StoreChange) => void;
export type StopWatching = () => void;

export interface Store {
  /** A short name for logs and /health: `embedded` or `mongodb`. */
  readonly kind: string;
  /**
   * True when every read outside a transaction ends by itself once its scope's deadline passes: the
   * embedded store looks at the clock while it scans (and between the slices of a long scan), and a read
   * that does not scan answers at once. A caller then need not race such reads against a timer of its
   * own. Absent: a read may keep its caller waiting past the deadline (a remote backend). Decorators that
   * pass calls straight through pass it on; one that may delay a read must not.
   */
  readonly endsReadsAtDeadline?: boolean;
  collection(name: string): Collection;
  /** Opens a snapshot of every collection (see StoreSnapshot and its consistency). */
  openSnapshot(): Promise<StoreSnapshot>;
  /**
   * Runs `work` as one unit: if it throws, none of its writes remain. Writes acknowledged after it
   * resolves are durable.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Makes the collection's indexes named with `prefix` exactly `specs`: creates missing, drops obsolete. */
  syncIndexes(collection: string, specs: IndexSpec[], prefix: string): Promise<IndexSync>;
  listIndexes(collection: string): Promise<IndexSpec[]>;
  /**
   * Removes the collection with its documents and indexes; true when it existed. Writing to it later
   * creates it anew, empty and without indexes. Listeners hear of it as a write to the collection.
   */
  dropCollection(collection: string): Promise<boolean>;
  /**
   * The change feed: `listener` hears of every committed write, through this instance or (MongoDB) any
   * other sharing the database, never of a rolled-back one. Returns the function that stops it.
   */
  watchChanges(listener: ChangeListener): StopWatching;
  /** Whether the backend can serve requests now (MongoDB may be unreachable). */
  ready(): boolean;
  close(): Promise<void>;
}

/** A write would break a unique index. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    readonly field: string,
    readonly value: unknown,
  ) {
    super(`duplicate value ${JSON.stringify(value)} for ${field} in ${collection}`);
    this.name = 'DuplicateKeyError';
  }
}

/** An operation was still running at its scope's deadline (or started after it) and was stopped. */
export class DeadlineExceededError extends Error {
  constructor(readonly operation: string) {
    super(`${operation} was stopped at its deadline`);
    this.name = 'DeadlineExceededError';
  }
}

/** The backend cannot be reached (MongoDB down); requests answer "data store unavailable". */
/** The GraphQL error code of every answer that failed because the data store could not be reached. */
export const STORE_UNAVAILABLE_CODE = 'STORE_UNAVAILABLE';

export class StoreUnavailableError extends Error {
  constructor(reason: string) {
    super(`data store unavailable: ${reason}`);
    this.name = 'StoreUnavailableError';
  }
}

/** Collections the service keeps for itself; user type names cannot start with `_`, so none collide. */
export const SYSTEM_COLLECTIONS = {
  schema: '_autograph_schema',
  lambda: '_autograph_lambda',
  persistedQueries: '_autograph_persisted_queries',
  /** Always empty: documents written and deleted within one mutation (resolve/mutations/interface-id-claims.ts). */
  interfaceIdClaims: '_autograph_interface_id_claims',
  /** Every activated schema, by revision (schema-changes/history.ts). */
  schemaHistory: '_autograph_schema_history',
  /** MongoDB standalone only: a write counter per collection, read by other instances' change feeds. */
  changes: '_autograph_changes',
} as const;
