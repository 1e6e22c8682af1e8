import { MongoServerError, type ClientSession, type Collection as DriverCollection, type MongoClientOptions } from 'mongodb';
import { DEFAULT_CHANGE_POLL_MS, MongoChangeFeed } from './change-feed.js';
import {
  type ChangeListener,
  type Collection,
  type IndexSpec,
  type IndexSync,
  type Store,
  type StopWatching,
  type StoredDocument,
  type StoreSnapshot,
  type Transaction,
} from '../port.js';
import { MongoConnection, type MongoStoreLogger, type StoreConnection } from './connection.js';
import { DEFAULT_DATABASE_NAME, databaseNameFromUri } from './database-name.js';
import { ELECTION_POLL_MS, ELECTION_WINDOW_MS, isNotAppliedError, pause } from './election-retry.js';
import { isDuplicateKeyError, isTransientTransactionError, isUnavailableError, toStoreError } from './errors.js';
import {
  existingIndexFrom,
  indexSpecFrom,
  planIndexSync,
  validateIndexSpecs,
  type ExistingIndex,
} from './index-sync.js';
import { MongoCollection, type OperationRunner } from './mongo-collection.js';
import { openMongoSnapshot } from './mongo-snapshot.js';
import { runTransaction } from './transaction-loop.js';
import { TransactionRegistry } from './transactions.js';

export type { MongoStoreLogger } from './connection.js';

export interface MongoStoreOptions {
  /** Database to use; default: the one named in the URI, else `autograph`. */
  dbName?: string;
  logger?: MongoStoreLogger;
  /** How long one driver operation waits for a usable server (default 2000). */
  serverSelectionTimeoutMS?: number;
  /**
   * How long after losing the writable server (an election) an operation that could not run is tried
   * again, before it fails with StoreUnavailableError (default ELECTION_WINDOW_MS, 12000).
   */
  electionRetryWindowMS?: number;
  /** Server re-check interval, i.e. how fast readiness comes back after an outage (default 2000). */
  heartbeatFrequencyMS?: number;
  /** Pause between connection attempts while MongoDB has never been reached (default 1000). */
  reconnectDelayMS?: number;
  /** How long a transaction (or its commit) is retried after transient errors such as write conflicts or an election (default 15000). */
  transactionRetryWindowMS?: number;
  /** Standalone server only: how often the change feed reads other instances' write counters (default 250). */
  changePollMS?: number;
}

const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 2000;
const DEFAULT_HEARTBEAT_FREQUENCY_MS = 2000;
const DEFAULT_RECONNECT_DELAY_MS = 1000;

/**
 * A transaction is retried after transient errors (write conflicts, a primary stepping down) and its
 * commit after an unknown result, within this window (transaction-loop.ts): long enough to outlast an
 * election (ELECTION_WINDOW_MS), short enough that a caller is not kept waiting for the driver's 120 s.
 */
const DEFAULT_TRANSACTION_RETRY_WINDOW_MS = 15_000;

const NAMESPACE_NOT_FOUND = 26;
const NAMESPACE_EXISTS = 48;
const INDEX_NOT_FOUND = 27;

/**
 * Opens the MongoDB store. Resolves after the first connection attempt (at most about
 * `serverSelectionTimeoutMS`), connected or not: when MongoDB is unreachable the store is returned with
 * `ready()` false, requests fail with StoreUnavailableError, and it keeps reconnecting by itself.
 * Rejects only for a connection string the driver cannot parse.
 */
export async function openMongoStore(uri: string, options: MongoStoreOptions = {}): Promise<Store> {
  checkOptions(options);
  const databaseName = options.dbName ?? databaseNameFromUri(uri) ?? DEFAULT_DATABASE_NAME;
  checkDatabaseName(databaseName);
  let connection: MongoConnection;
  try {
    connection = new MongoConnection(uri, clientOptions(uri, options), {
      reconnectDelayMS: options.reconnectDelayMS ?? DEFAULT_RECONNECT_DELAY_MS,
      logger: options.logger,
    });
  } catch (error) {
    // The driver's message names the problem; the URI itself is left out since it may hold a password.
    throw new Error(`invalid MongoDB connection string: ${error instanceof Error ? error.message : String(error)}`);
  }
  const store = new MongoStore(connection, databaseName, {
    transactionRetryWindowMS: options.transactionRetryWindowMS ?? DEFAULT_TRANSACTION_RETRY_WINDOW_MS,
    electionRetryWindowMS: options.electionRetryWindowMS ?? ELECTION_WINDOW_MS,
    changePollMS: options.changePollMS ?? DEFAULT_CHANGE_POLL_MS,
    logger: options.logger,
  });
  await connection.start();
  return store;
}

function checkOptions(options: MongoStoreOptions): void {
  const timings = ['serverSelectionTimeoutMS', 'heartbeatFrequencyMS', 'reconnectDelayMS', 'transactionRetryWindowMS', 'electionRetryWindowMS', 'changePollMS'] as const;
  for (const name of timings) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value <= 0)) {
      throw new Error(`openMongoStore: ${name} must be a positive integer (milliseconds), got ${value}`);
    }
  }
}

/** MongoDB's naming rules for databases, checked up front so the message says which name is wrong. */
function checkDatabaseName(name: string): void {
  if (name === '' || /[/\\. "$*<>:|?\0]/.test(name) || Buffer.byteLength(name) > 63) {
    throw new Error(
      `openMongoStore: invalid database name ${JSON.stringify(name)}: it must be 1 to 63 bytes without / \\ . space " $ * < > : | ?`,
    );
  }
}

/** Timeouts set in the URI win over our defaults; explicit options win over both. */
function clientOptions(uri: string, options: MongoStoreOptions): MongoClientOptions {
  const result: MongoClientOptions = {};
  const fromUri = (name: string) => new RegExp(`[?&]${name}=`, 'i').test(uri);
  if (options.serverSelectionTimeoutMS !== undefined || !fromUri('serverSelectionTimeoutMS')) {
    result.serverSelectionTimeoutMS = options.serverSelectionTimeoutMS ?? DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
  }
  if (options.heartbeatFrequencyMS !== undefined || !fromUri('heartbeatFrequencyMS')) {
    result.heartbeatFrequencyMS = options.heartbeatFrequencyMS ?? DEFAULT_HEARTBEAT_FREQUENCY_MS;
  }
  return result;
}

interface StoreSettings {
  transactionRetryWindowMS: number;
  electionRetryWindowMS: number;
  changePollMS?: number;
  logger?: MongoStoreLogger;
}

const DEFAULT_SETTINGS: StoreSettings = {
  transactionRetryWindowMS: DEFAULT_TRANSACTION_RETRY_WINDOW_MS,
  electionRetryWindowMS: ELECTION_WINDOW_MS,
  changePollMS: DEFAULT_CHANGE_POLL_MS,
};

/** The Store port over the official driver; collections and `_id`s follow the shared storage layout. */
export class MongoStore implements Store, OperationRunner {
  readonly kind = 'mongodb';
  private readonly collections = new Map<string, MongoCollection>();
  private readonly transactions = new TransactionRegistry();
  /** Per collection, the fields of each index by name: what a duplicate-key message's index name means. */
  private readonly indexKeys = new Map<string, Map<string, string[]>>();
  private readonly changes: MongoChangeFeed;

  constructor(
    private readonly connection: StoreConnection,
    readonly databaseName: string,
    private readonly settings: StoreSettings = DEFAULT_SETTINGS,
  ) {
    this.changes = new MongoChangeFeed(connection, databaseName, settings.changePollMS ?? DEFAULT_CHANGE_POLL_MS, settings.logger);
  }

  watchChanges(listener: ChangeListener): StopWatching {
    return this.changes.watch(listener);
  }

  wrote(collection: string, tx: Transaction | undefined): Promise<void> {
    return this.changes.wrote(collection, tx);
  }

  collection(name: string): Collection {
    checkCollectionName(name);
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MongoCollection(name, this);
      this.collections.set(name, collection);
    }
    return collection;
  }

  ready(): boolean {
    return this.connection.ready();
  }

  /** Through a snapshot session where the deployment has them (not on a standalone server): see mongo-snapshot.ts. */
  async openSnapshot(): Promise<StoreSnapshot> {
    const deployment = this.connection.deployment();
    const session = deployment.kind === 'standalone' ? undefined : this.connection.client.startSession({ snapshot: true });
    try {
      return await openMongoSnapshot(this.connection.database(this.databaseName), session);
    } catch (error) {
      await session?.endSession();
      throw toStoreError(error, 'a snapshot');
    }
  }

  supportsTransactions(): boolean {
    try {
      return this.connection.deployment().supportsTransactions;
    } catch {
      return false;
    }
  }

  async run<T>(
    collection: string,
    tx: Transaction | undefined,
    call: (collection: DriverCollection<StoredDocument>, session: ClientSession | undefined) => Promise<T>,
  ): Promise<T> {
    const session = this.transactions.sessionOf(tx);
    const driverCollection = this.connection.database(this.databaseName).collection<StoredDocument>(collection);
    for (;;) {
      try {
        return await call(driverCollection, session);
      } catch (error) {
        if (session?.inTransaction() && isTransientTransactionError(error)) {
          throw error; // untranslated, so the transaction loop recognises it and retries the transaction
        }
        // Outside a transaction, an operation that did not run waits for the election to end (a
        // transaction's operations cannot: the transaction loop retries the whole transaction).
        if (!session && isNotAppliedError(error) && this.electionMayStillEnd()) {
          await pause(ELECTION_POLL_MS);
          continue;
        }
        throw toStoreError(error, collection);
      }
    }
  }

  /** The writable server was lost, recently enough that an election may still bring one back. */
  private electionMayStillEnd(): boolean {
    const without = this.connection.msWithoutWritableServer();
    return without !== undefined && without < this.settings.electionRetryWindowMS;
  }

  /**
   * On a replica set or sharded cluster: one driver transaction (snapshot reads, majority-acknowledged
   * commit), retried after transient errors and an unknown commit result within `transactionRetryWindowMS`
   * (transaction-loop.ts).
   *
   * On a standalone server MongoDB has no multi-document transactions, so `work` runs without one and
   * the guarantee shrinks to this: each single-document write is atomic, and insertMany undoes its own
   * partial insert after a duplicate key; but when `work` fails after some writes, those writes remain
   * (a multi-document mutation may be left half done), and concurrent readers can see intermediate state.
   * (Mutations decide their `@auth` rules before their first write, so a refusal writes nothing here too.)
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    if (!this.connection.deployment().supportsTransactions) {
      const tx = this.transactions.begin(undefined);
      try {
        return await work(tx);
      } finally {
        this.transactions.end(tx);
        await this.changes.transactionEnded(tx);
      }
    }
    const session = this.connection.client.startSession();
    const tx = this.transactions.begin(session);
    try {
      return await runTransaction(session, () => work(tx), this.settings.transactionRetryWindowMS);
    } catch (error) {
      throw toStoreError(error, 'a transaction');
    } finally {
      this.transactions.end(tx);
      await session.endSession();
    }
  }

  indexFields(collection: string, indexName: string): readonly string[] | undefined {
    return this.indexKeys.get(collection)?.get(indexName);
  }

  private rememberIndexes(collection: string, indexes: ReadonlyArray<{ name: string; keys: Record<string, unknown> }>): void {
    const known = this.indexKeys.get(collection) ?? new Map<string, string[]>();
    this.indexKeys.set(collection, known);
    for (const index of indexes) known.set(index.name, Object.keys(index.keys));
  }

  async listIndexes(collection: string): Promise<IndexSpec[]> {
    checkCollectionName(collection);
    const existing = await this.existingIndexes(collection);
    return existing
      .filter((index) => index.name !== '_id_')
      .map(indexSpecFrom)
      .filter((spec): spec is IndexSpec => spec !== undefined);
  }

  async syncIndexes(collection: string, specs: IndexSpec[], prefix: string): Promise<IndexSync> {
    checkCollectionName(collection);
    validateIndexSpecs(collection, specs, prefix);
    const plan = planIndexSync(await this.existingIndexes(collection), specs, prefix);
    // New names are built before anything is dropped, so data that breaks a new unique index leaves the
    // old indexes in place, and a changed definition (a new name, see store/indexes.ts) never leaves the
    // collection without its unique index. Only an index redefined under its old name must go first.
    const replacing = plan.create.filter((spec) => plan.drop.includes(spec.name));
    const fresh = plan.create.filter((spec) => !replacing.includes(spec));
    await this.ensureCollection(collection);
    await this.run(collection, undefined, async (driverCollection) => {
      await createIndexes(driverCollection, fresh);
      for (const name of plan.drop) {
        await dropIndexIfPresent(driverCollection, name);
      }
      await createIndexes(driverCollection, replacing);
    });
    this.rememberIndexes(collection, specs);
    return { created: plan.create.map((spec) => spec.name), dropped: plan.drop };
  }

  /**
   * Since MongoDB 7.0 (and on mongos always) `drop` succeeds for a collection that does not exist, so the
   * driver's answer cannot tell; the collection is looked up first. Older servers answer "ns not found",
   * which the driver's `drop` turns into false (another instance dropped it in between).
   */
  async dropCollection(collection: string): Promise<boolean> {
    checkCollectionName(collection);
    const existed = await this.run(collection, undefined, async (driverCollection) => {
      const found = await driverCollection.db.listCollections({ name: collection }, { nameOnly: true }).toArray();
      return found.length > 0 && (await driverCollection.drop());
    });
    this.indexKeys.delete(collection);
    if (existed) await this.changes.wrote(collection, undefined);
    return existed;
  }

  async close(): Promise<void> {
    await this.changes.close();
    await this.connection.close();
  }

  /**
   * Creates the collection when it does not exist yet. Schema activation syncs every collection's indexes
   * before any transaction runs, so no transaction has to create a collection by inserting into it: on a
   * sharded cluster before MongoDB 8.0 a transaction that writes to more than one shard cannot.
   */
  private async ensureCollection(collection: string): Promise<void> {
    await this.run(collection, undefined, async (driverCollection) => {
      try {
        await driverCollection.db.createCollection(collection);
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
      }
    });
  }

  private existingIndexes(collection: string): Promise<ExistingIndex[]> {
    return this.run(collection, undefined, async (driverCollection) => {
      try {
        const existing = (await driverCollection.listIndexes().toArray()).map(existingIndexFrom);
        this.rememberIndexes(collection, existing);
        return existing;
      } catch (error) {
        if (error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND) {
          return []; // the collection does not exist yet
        }
        throw error;
      }
    });
  }
}

/** Another instance activating the same schema may have dropped it first. */
async function dropIndexIfPresent(collection: DriverCollection<StoredDocument>, name: string): Promise<void> {
  try {
    await collection.dropIndex(name);
  } catch (error) {
    if (!(error instanceof MongoServerError && error.code === INDEX_NOT_FOUND)) {
      throw error;
    }
  }
}

/**
 * Creating an index that already exists identically is a no-op, so instances syncing concurrently agree.
 * Existing documents that break a new unique index surface as DuplicateKeyError (via `run`); any other
 * refusal (the same keys indexed under a foreign name, say) is reported with the index names.
 */
async function createIndexes(collection: DriverCollection<StoredDocument>, specs: IndexSpec[]): Promise<void> {
  if (specs.length === 0) {
    return;
  }
  try {
    await collection.createIndexes(
      specs.map((spec) => ({
        name: spec.name,
        key: spec.keys,
        ...(spec.unique && { unique: true }),
        ...(spec.sparse && { sparse: true }),
        ...(spec.partialFilterExpression && { partialFilterExpression: spec.partialFilterExpression }),
      })),
    );
  } catch (error) {
    if (isDuplicateKeyError(error) || isUnavailableError(error)) {
      throw error;
    }
    const names = specs.map((spec) => spec.name).join(', ');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`creating indexes ${names} on ${collection.collectionName} failed: ${reason}`, { cause: error });
  }
}

/** MongoDB's own rules, checked here so the message names the collection instead of a driver internal. */
function checkCollectionName(name: string): void {
  if (name === '' || name.includes('$') || name.includes('\0') || name.startsWith('system.')) {
    throw new Error(
      `invalid collection name ${JSON.stringify(name)}: it must be non-empty, contain no "$" or NUL, and not start with "system."`,
    );
  }
}
