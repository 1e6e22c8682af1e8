/**
 * The embedded `Store`: in-memory collections made durable by the write-ahead log and snapshots.
 * Every write runs as a unit of work (see TransactionManager) and is appended to the log as one record
 * before it is acknowledged.
 */
import { ChangeListeners } from '../change-listeners.js';
import type { ChangeListener, Collection, IndexSpec, IndexSync, StopWatching, Store, StoreSnapshot, Transaction } from '../port.js';
import { sameIndexDefinition } from './collection-index.js';
import { ID_INDEX_NAME, type CollectionState } from './collection-state.js';
import { CollectionView } from './collection-view.js';
import { assertCollectionName, type Database } from './database.js';
import type { DirectoryLock } from './directory-lock.js';
import { EmbeddedCollection, type StoreCore } from './embedded-collection.js';
import { freezeDatabase } from './frozen-snapshot.js';
import type { LogOperation } from './log-records.js';
import type { ViewResolver } from './pipeline-runner.js';
import { Compactor, type CompactionReport } from './compactor.js';
import { TransactionManager } from './transaction-manager.js';
import type { WriteAheadLog } from './write-ahead-log.js';
import type { WriteScope } from './write-scope.js';

export interface EmbeddedStoreOptions {
  /** Never compact the log into a snapshot before it grows past this many bytes (default 32 MiB); see compactor.ts. */
  compactAfterBytes?: number;
  /**
   * Nor before it has grown to this share of the last snapshot's size (default 1: as large as the snapshot;
   * 0: `compactAfterBytes` alone decides); see compaction-policy.ts.
   */
  compactAfterSnapshotShare?: number;
  /** Told about failures that cannot fail the request that caused them (a compaction after a commit). */
  onBackgroundError?: (error: Error) => void;
  /** Told after each compaction: how many documents the snapshot holds and how long it took. */
  onCompacted?: (report: CompactionReport) => void;
}

export const DEFAULT_COMPACT_AFTER_BYTES = 32 * 1024 * 1024;
export const DEFAULT_COMPACT_AFTER_SNAPSHOT_SHARE = 1;

export class StoreClosedError extends Error {
  constructor(dataDir: string) {
    super(`the embedded store for ${dataDir} is closed`);
    this.name = 'StoreClosedError';
  }
}

export class EmbeddedStore implements Store, StoreCore {
  readonly kind = 'embedded';
  /** Scans check their deadline (scan-deadline.ts); every other read answers within its call. */
  readonly endsReadsAtDeadline = true;
  private readonly transactions = new TransactionManager();
  private readonly handles = new Map<string, EmbeddedCollection>();
  private readonly compactor: Compactor;
  private readonly changes: ChangeListeners;
  private closed = false;
  private compactionQueued = false;
  private readonly reportBackgroundError: (error: Error) => void;

  /**
   * `previousLogExists`: the log of an interrupted compaction was replayed, so the next compaction must hold it.
   * `snapshotBytes`: the size of the snapshot the database was loaded from (0: none).
   */
  constructor(
    readonly dataDir: string,
    private readonly database: Database,
    private readonly log: WriteAheadLog,
    private readonly lock: DirectoryLock,
    private lastSeq: number,
    options: EmbeddedStoreOptions,
    previousLogExists = false,
    snapshotBytes = 0,
  ) {
    const report = options.onBackgroundError ?? ((e: Error) => process.emitWarning(`embedded store compaction failed: ${e.message}`));
    this.reportBackgroundError = report;
    this.changes = new ChangeListeners(options.onBackgroundError && ((error) => options.onBackgroundError!(asError(error))));
    const policy = {
      minLogBytes: options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES,
      snapshotShare: options.compactAfterSnapshotShare ?? DEFAULT_COMPACT_AFTER_SNAPSHOT_SHARE,
    };
    this.compactor = new Compactor(dataDir, database, log, { policy, onError: report, onCompacted: options.onCompacted }, previousLogExists, snapshotBytes);
  }

  collection(name: string): Collection {
    assertCollectionName(name);
    let handle = this.handles.get(name);
    if (!handle) this.handles.set(name, (handle = new EmbeddedCollection(name, this)));
    return handle;
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.announcingCommit((commit) =>
      this.transactions.runCallerWork(
        'transaction',
        (scope) => {
          this.assertOpen();
          return work(scope.handle);
        },
        commit,
        (scope) => scope.rollback(this.database),
      ),
    );
  }

  /** Frozen as a unit of work of its own, so no transaction is half applied in it. */
  async openSnapshot(): Promise<StoreSnapshot> {
    this.assertOpen();
    return this.transactions.run(
      'openSnapshot',
      () => freezeDatabase(this.database),
      () => undefined,
      () => undefined,
    );
  }

  watchChanges(listener: ChangeListener): StopWatching {
    return this.changes.add(listener);
  }

  read<T>(tx: Transaction | undefined, work: (viewOf: ViewResolver) => T): T {
    this.assertOpen();
    if (tx !== undefined) {
      this.transactions.scopeOf(tx);
      return work((name) => new CollectionView(this.database.get(name), undefined));
    }
    // Each view hides the units in flight when it is made (the one committing and the one running): a read
    // that pauses (see find-documents.ts) may make its next view after they ended and others began.
    return work((name) => new CollectionView(this.database.get(name), this.transactions.hiddenVersions(name)));
  }

  async write<T>(
    what: string,
    collection: string,
    tx: Transaction | undefined,
    work: (state: CollectionState, scope: WriteScope) => T,
  ): Promise<T> {
    this.assertOpen();
    if (tx !== undefined) return work(this.database.ensure(collection), this.transactions.scopeOf(tx));
    return this.announcingCommit((commit) =>
      this.transactions.run(
        what,
        (scope) => {
          this.assertOpen();
          return work(this.database.ensure(collection), scope);
        },
        commit,
        (scope) => scope.rollback(this.database),
        'pipelined',
      ),
    );
  }

  /**
   * Runs a unit of work given the commit step to use, and tells the change feed what it wrote once it has
   * finished: its record is durable and readers outside it see it. A unit that failed (rolled back) or
   * wrote nothing says nothing.
   */
  private async announcingCommit<T>(run: (commit: (scope: WriteScope) => Promise<void>) => Promise<T>): Promise<T> {
    let written: string[] = [];
    const result = await run(async (scope) => {
      await this.commit(scope);
      written = scope.collections();
    });
    this.changes.emit(written);
    return result;
  }

  async syncIndexes(collection: string, specs: IndexSpec[], prefix: string): Promise<IndexSync> {
    assertCollectionName(collection);
    checkIndexSpecs(collection, specs, prefix);
    this.assertOpen();
    let undo: () => void = () => undefined;
    return this.transactions.run(
      `syncIndexes on ${collection}`,
      async () => {
        this.assertOpen();
        const state = this.database.ensure(collection);
        const wanted = new Map(specs.map((spec) => [spec.name, copySpec(spec)]));
        const obsolete = state
          .indexSpecs()
          .filter((existing) => existing.name.startsWith(prefix))
          .filter((existing) => {
            const replacement = wanted.get(existing.name);
            return !replacement || !sameIndexDefinition(existing, replacement);
          });
        const missing = [...wanted.values()].filter((spec) => {
          const existing = state.index(spec.name)?.spec;
          return !existing || !sameIndexDefinition(existing, spec);
        });
        // Build the new indexes before touching the old ones: a duplicate in the data fails the whole sync.
        const built = missing.map((spec) => state.buildIndex(spec, true));
        for (const spec of obsolete) state.dropIndex(spec.name);
        for (const index of built) state.attachIndex(index);
        undo = () => {
          for (const spec of missing) state.dropIndex(spec.name);
          for (const spec of obsolete) state.addIndex(spec, false);
        };
        const operations: LogOperation[] = [
          ...obsolete.map((spec): LogOperation => ({ op: 'dropIndex', collection, name: spec.name })),
          ...missing.map((spec): LogOperation => ({ op: 'createIndex', collection, spec })),
        ];
        if (operations.length > 0) await this.append(operations);
        return { created: missing.map((spec) => spec.name), dropped: obsolete.map((spec) => spec.name) };
      },
      () => undefined,
      () => undo(),
    );
  }

  async listIndexes(collection: string): Promise<IndexSpec[]> {
    assertCollectionName(collection);
    this.assertOpen();
    // Like the MongoDB adapter: the implicit `_id` index is not listed.
    return (this.database.get(collection)?.indexSpecs() ?? []).map(copySpec);
  }

  async dropCollection(collection: string): Promise<boolean> {
    assertCollectionName(collection);
    this.assertOpen();
    let removed: CollectionState | undefined;
    const existed = await this.transactions.run(
      `dropCollection ${collection}`,
      async () => {
        this.assertOpen();
        removed = this.database.remove(collection);
        if (removed === undefined) return false;
        await this.append([{ op: 'dropCollection', collection }]);
        return true;
      },
      () => undefined,
      () => {
        if (removed !== undefined) this.database.restore(removed);
      },
    );
    if (existed) this.changes.emit([collection]);
    return existed;
  }

  ready(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.transactions.drain(async () => {
      if (this.closed) return;
      this.closed = true;
      try {
        await this.compactor.idle();
        // Only what the policy would compact at the next write anyway: a compaction rewrites the whole
        // store (about 3 s at a million objects), and a close followed by an open (a restart, a rolling
        // deploy) is shorter replaying a log the policy bounds than writing and then reading it back.
        if (this.compactor.due || this.compactor.hasPreviousLog) this.compact();
      } finally {
        this.log.close();
        this.lock.release();
      }
    });
  }

  /** Writes everything into a new snapshot and empties the logs, at once. Runs only between units of work. */
  compact(): void {
    this.compactor.compactNow(this.lastSeq);
  }

  private async commit(scope: WriteScope): Promise<void> {
    if (scope.touchedNothing) return;
    await this.append(scope.logOperations(this.database));
  }

  /** Appends one durable log record; then, if the log has grown past the threshold, a compaction is queued. */
  private async append(operations: LogOperation[]): Promise<void> {
    const seq = this.lastSeq + 1;
    await this.log.append({ seq, ops: operations });
    this.lastSeq = seq;
    if (this.compactor.due && !this.compactionQueued) this.queueCompaction();
  }

  /**
   * A compaction freezes the state as of the last durable record, so it runs as a unit of its own once
   * nothing is in flight: the next unit may already be working on top of the record just made durable.
   */
  private queueCompaction(): void {
    this.compactionQueued = true;
    const compact = (): void => {
      this.compactionQueued = false;
      if (!this.closed) this.compactor.afterCommit(this.lastSeq);
    };
    this.transactions.run('compaction', compact, () => undefined, () => undefined).catch((error: unknown) => this.reportBackgroundError(asError(error)));
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError(this.dataDir);
  }
}

function copySpec(spec: IndexSpec): IndexSpec {
  const copy: IndexSpec = { name: spec.name, keys: { ...spec.keys } };
  if (spec.unique) copy.unique = true;
  if (spec.sparse) copy.sparse = true;
  if (spec.partialFilterExpression) copy.partialFilterExpression = structuredClone(spec.partialFilterExpression);
  return copy;
}

function checkIndexSpecs(collection: string, specs: IndexSpec[], prefix: string): void {
  const where = `syncIndexes on ${collection}`;
  if (typeof prefix !== 'string' || prefix.length === 0) throw new Error(`${where}: the prefix must be a non-empty string`);
  if (!Array.isArray(specs)) throw new Error(`${where}: expected an array of index specs`);
  const names = new Set<string>();
  for (const spec of specs) {
    if (typeof spec?.name !== 'string' || !spec.name.startsWith(prefix)) {
      throw new Error(`${where}: index name ${JSON.stringify(spec?.name)} must start with the prefix "${prefix}"`);
    }
    if (spec.name === ID_INDEX_NAME) throw new Error(`${where}: the index name "${ID_INDEX_NAME}" is reserved for _id`);
    if (names.has(spec.name)) throw new Error(`${where}: index name "${spec.name}" appears twice`);
    names.add(spec.name);
    const keys = Object.entries(spec.keys ?? {});
    if (keys.length === 0) throw new Error(`${where}: index "${spec.name}" has no keys`);
    for (const [field, direction] of keys) {
      if (direction !== 1 && direction !== -1) {
        throw new Error(`${where}: index "${spec.name}" key ${field} must be 1 or -1, got ${JSON.stringify(direction)}`);
      }
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
