import type { ExecutionResult } from 'graphql';
import type { Store } from '../store/port.js';
import { ChangeBatcher } from './change-batcher.js';
import { serviceAtCapacity, tooManyOnConnection } from './errors.js';
import type { LiveQuery } from './live-query.js';
import { touches, type ReadSet } from './read-set.js';
import type { LiveSettings } from './settings.js';

interface Entry {
  reads: ReadSet;
  owner: object;
}

/**
 * The running subscriptions of this instance: what each reads and which connection owns it. It watches
 * the store's change feed only while it holds any, and after each batch of changes marks stale exactly
 * the subscriptions whose reads the batch touched.
 */
export class LiveRegistry {
  private readonly entries = new Map<LiveQuery, Entry>();
  private readonly countByOwner = new Map<object, number>();
  private readonly batcher: ChangeBatcher;
  /** Batches handed over and subscriptions marked stale, for tests and metrics. */
  readonly stats = { batches: 0, invalidations: 0 };

  constructor(store: Store, private readonly settings: LiveSettings) {
    this.batcher = new ChangeBatcher(store, settings.debounceMs, (collections) => this.onBatch(collections));
  }

  get size(): number {
    return this.entries.size;
  }

  /** The refusal a new subscription of `owner` would meet now, if any. */
  refusal(owner: object): Error | undefined {
    if ((this.countByOwner.get(owner) ?? 0) >= this.settings.maxPerConnection) return tooManyOnConnection(this.settings.maxPerConnection);
    if (this.entries.size >= this.settings.maxTotal) return serviceAtCapacity(this.settings.maxTotal);
    return undefined;
  }

  /** Holds `query` until it finishes. Throws the refusal when a limit is reached. */
  add(owner: object, reads: ReadSet, query: LiveQuery): void {
    const refusal = this.refusal(owner);
    if (refusal) throw refusal;
    this.entries.set(query, { reads, owner });
    this.countByOwner.set(owner, (this.countByOwner.get(owner) ?? 0) + 1);
    this.batcher.start();
    query.onFinished(() => this.remove(query));
  }

  /** Ends every running subscription with `result` (a schema swap). */
  endAll(result: ExecutionResult): void {
    for (const query of [...this.entries.keys()]) query.end(result);
  }

  close(): void {
    for (const query of [...this.entries.keys()]) void query.return();
    this.batcher.stop();
  }

  private remove(query: LiveQuery): void {
    const entry = this.entries.get(query);
    if (!entry) return;
    this.entries.delete(query);
    const left = (this.countByOwner.get(entry.owner) ?? 1) - 1;
    if (left > 0) this.countByOwner.set(entry.owner, left);
    else this.countByOwner.delete(entry.owner);
    if (this.entries.size === 0) this.batcher.stop();
  }

  private onBatch(collections: ReadonlySet<string>): void {
    this.stats.batches++;
    for (const [query, entry] of this.entries) {
      if (touches(entry.reads, collections)) {
        this.stats.invalidations++;
        query.invalidate();
      }
    }
  }
}
