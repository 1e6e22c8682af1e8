/**
 * The base of Store decorators made once per request (budgeted, observed): every member but `collection`
 * passes through to the wrapped store. A class, so a request makes one small object rather than a set of
 * closures (store/with-collections.ts is the closure form, for decorators made once per service).
 */
import type { ChangeListener, Collection, IndexSpec, IndexSync, Store, StopWatching, StoreSnapshot, Transaction } from './port.js';

export abstract class ForwardingStore implements Store {
  constructor(protected readonly inner: Store) {}

  abstract collection(name: string): Collection;

  get kind(): string {
    return this.inner.kind;
  }

  get endsReadsAtDeadline(): boolean | undefined {
    return this.inner.endsReadsAtDeadline;
  }

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.inner.transaction(work);
  }

  openSnapshot(): Promise<StoreSnapshot> {
    return this.inner.openSnapshot();
  }

  syncIndexes(collection: string, specs: IndexSpec[], prefix: string): Promise<IndexSync> {
    return this.inner.syncIndexes(collection, specs, prefix);
  }

  listIndexes(collection: string): Promise<IndexSpec[]> {
    return this.inner.listIndexes(collection);
  }

  dropCollection(collection: string): Promise<boolean> {
    return this.inner.dropCollection(collection);
  }

  watchChanges(listener: ChangeListener): StopWatching {
    return this.inner.watchChanges(listener);
  }

  ready(): boolean {
    return this.inner.ready();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
