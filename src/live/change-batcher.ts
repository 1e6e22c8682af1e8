import type { StopWatching, Store } from '../store/port.js';

/**
 * Gathers the store's change feed into batches: the first change after a quiet spell opens a batch that
 * collects every change for `debounceMs`, then hands over the collections written, once each. A steady
 * stream of writes thus yields one batch per `debounceMs`, and no change waits longer than that.
 */
export class ChangeBatcher {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopWatching: StopWatching | undefined;

  constructor(
    private readonly store: Store,
    private readonly debounceMs: number,
    private readonly onBatch: (collections: ReadonlySet<string>) => void,
  ) {}

  get running(): boolean {
    return this.stopWatching !== undefined;
  }

  start(): void {
    if (this.stopWatching) return;
    this.stopWatching = this.store.watchChanges((change) => {
      for (const collection of change.collections) this.pending.add(collection);
      this.timer ??= setTimeout(() => this.flush(), this.debounceMs);
    });
  }

  /** Stops watching; changes not yet handed over are dropped (nobody is left to re-run). */
  stop(): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = new Set();
  }

  private flush(): void {
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Set();
    if (batch.size > 0) this.onBatch(batch);
  }
}
