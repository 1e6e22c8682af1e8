import type { ChangeListener, StopWatching, StoreChange } from './port.js';

/**
 * The listeners of one store's change feed. A listener that throws is reported and does not keep the
 * others (or the write that caused the change) from going on.
 */
export class ChangeListeners {
  private readonly listeners = new Set<ChangeListener>();

  constructor(private readonly onListenerError: (error: unknown) => void = reportListenerError) {}

  get size(): number {
    return this.listeners.size;
  }

  add(listener: ChangeListener): StopWatching {
    // A wrapper per call, so the same function watching twice is two listeners, each stopped on its own.
    const entry: ChangeListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Tells every listener about the collections written to; nothing when there are none. */
  emit(collections: Iterable<string>): void {
    const change: StoreChange = Object.freeze({ collections: Object.freeze([...new Set(collections)]) });
    if (change.collections.length === 0) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}

function reportListenerError(error: unknown): void {
  process.emitWarning(`a store change listener failed: ${error instanceof Error ? error.message : String(error)}`);
}
