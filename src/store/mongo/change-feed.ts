/**
 * The MongoDB store's change feed.
 *
 * On a replica set or sharded cluster it reads a change stream on the database: MongoDB reports every
 * committed write of every instance (a transaction's writes only after its commit), so this instance's
 * own writes arrive that way too.
 *
 * A standalone server has no change streams. There every write through this store also increments the
 * write counter of its collection (`_autograph_changes`, one small document per collection); the feed
 * tells its listeners at once about its own writes (a transaction's at its end) and reads the counters
 * every `pollMs` to hear of other instances' writes, as the schema is kept in line (server/definition-sync.ts).
 */
import type { ChangeStream, Db } from 'mongodb';
import { ChangeListeners } from '../change-listeners.js';
import { SYSTEM_COLLECTIONS, type ChangeListener, type StopWatching, type Transaction } from '../port.js';
import type { MongoStoreLogger, StoreConnection } from './connection.js';

export const DEFAULT_CHANGE_POLL_MS = 250;

/** How the feed learns of writes: from a change stream, or by reading the write counters. */
export type ChangeFeedMode = 'change-stream' | 'polling';

interface WriteCounter {
  _id: string;
  writes: number;
}

export class MongoChangeFeed {
  private readonly listeners: ChangeListeners;
  /** Collections written by each running transaction (standalone only), told when it ends. */
  private readonly pendingByTransaction = new Map<number, Set<string>>();
  /** The last count seen per collection (standalone only). */
  private readonly seenWrites = new Map<string, number>();
  private stream: ChangeStream | undefined;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** The first poll only learns the counts: writes before this feed started are no news. */
  private polledOnce = false;
  private closed = false;
  private announced = false;

  constructor(
    private readonly connection: StoreConnection,
    private readonly databaseName: string,
    private readonly pollMs: number,
    private readonly logger?: MongoStoreLogger,
  ) {
    this.listeners = new ChangeListeners((error) => logger?.warn(`a store change listener failed: ${describe(error)}`));
  }

  /** The mode the deployment allows, or undefined while MongoDB has not been reached yet. */
  mode(): ChangeFeedMode | undefined {
    try {
      return this.connection.deployment().kind === 'standalone' ? 'polling' : 'change-stream';
    } catch {
      return undefined;
    }
  }

  watch(listener: ChangeListener): StopWatching {
    const stop = this.listeners.add(listener);
    if (!this.started) {
      this.started = true;
      this.schedule(0);
    }
    return () => {
      stop();
      if (this.listeners.size === 0) this.stop();
    };
  }

  /**
   * After a write through this store changed documents of `collection`. On a standalone: counts it for
   * other instances, and tells this one's listeners now (or at the end of `tx`).
   */
  async wrote(collection: string, tx: Transaction | undefined): Promise<void> {
    if (this.mode() !== 'polling') return;
    if (tx !== undefined) {
      let pending = this.pendingByTransaction.get(tx.id);
      if (!pending) this.pendingByTransaction.set(tx.id, (pending = new Set()));
      pending.add(collection);
      return;
    }
    await this.count([collection]);
    this.listeners.emit([collection]);
  }

  /** A transaction ended (standalone: its writes stay, committed or not, so they are told either way). */
  async transactionEnded(tx: Transaction): Promise<void> {
    const pending = this.pendingByTransaction.get(tx.id);
    if (!pending) return;
    this.pendingByTransaction.delete(tx.id);
    await this.count([...pending]);
    this.listeners.emit(pending);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const stream = this.stream;
    this.stream = undefined;
    void stream?.close().catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    if (this.closed || !this.started) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const mode = this.mode();
    if (mode === undefined) return this.schedule(this.pollMs);
    this.announce(mode);
    if (mode === 'change-stream') return this.openStream();
    try {
      await this.poll();
    } catch (error) {
      this.logger?.warn(`reading the write counters failed: ${describe(error)}; trying again`);
    }
    this.schedule(this.pollMs);
  }

  private announce(mode: ChangeFeedMode): void {
    if (this.announced) return;
    this.announced = true;
    if (mode === 'change-stream') {
      this.logger?.info('subscriptions hear of writes through a MongoDB change stream');
    } else {
      this.logger?.warn(
        `MongoDB is a standalone server, which has no change streams: subscriptions hear of other instances' writes ` +
          `by reading write counters every ${this.pollMs} ms`,
      );
    }
  }

  private openStream(): void {
    if (this.stream || this.closed || !this.started) return;
    const stream = this.database().watch([{ $match: { operationType: { $in: ['insert', 'update', 'replace', 'delete', 'drop'] } } }]);
    this.stream = stream;
    stream.on('change', (event) => {
      const namespace = (event as { ns?: { coll?: string } }).ns;
      if (namespace?.coll) this.listeners.emit([namespace.coll]);
    });
    stream.on('error', (error) => {
      // The driver resumes by itself after transient errors; this one ended the stream: open a new one.
      this.logger?.warn(`the MongoDB change stream failed: ${describe(error)}; reopening`);
      if (this.stream === stream) this.stream = undefined;
      void stream.close().catch(() => undefined);
      this.schedule(this.pollMs);
    });
  }

  private async poll(): Promise<void> {
    const counters = await this.database().collection<WriteCounter>(SYSTEM_COLLECTIONS.changes).find({}).toArray();
    const first = !this.polledOnce;
    this.polledOnce = true;
    const changed: string[] = [];
    for (const counter of counters) {
      if (this.seenWrites.get(counter._id) === counter.writes) continue;
      this.seenWrites.set(counter._id, counter.writes);
      changed.push(counter._id);
    }
    if (!first) this.listeners.emit(changed);
  }

  /** Increments the write counters; the counts this makes are this instance's own, not told again by `poll`. */
  private async count(collections: string[]): Promise<void> {
    const counters = this.database().collection<WriteCounter>(SYSTEM_COLLECTIONS.changes);
    for (const collection of collections) {
      try {
        const after = await counters.findOneAndUpdate({ _id: collection }, { $inc: { writes: 1 } }, { upsert: true, returnDocument: 'after' });
        const seen = this.seenWrites.get(collection);
        // Only when no other instance's write came in between, which `poll` must still tell.
        if (after && (seen === undefined ? after.writes === 1 : after.writes === seen + 1)) this.seenWrites.set(collection, after.writes);
      } catch (error) {
        // The write itself succeeded; other instances hear of it with the next write to the collection.
        this.logger?.warn(`counting a write to ${collection} for other instances failed: ${describe(error)}`);
      }
    }
  }

  private database(): Db {
    return this.connection.database(this.databaseName);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
