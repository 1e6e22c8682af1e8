import type { Collection, Store } from './port.js';

/** How a decorator's collections treat the calls they wrap. */
export interface WrappedCollections {
  /**
   * The collections hand each read on at once and answer when the store does (counting, renaming): the
   * decorated store keeps the store's `endsReadsAtDeadline`. Default false: a decorator that may delay
   * reads must not claim it.
   */
  readsPassedStraightOn?: boolean;
}

/**
 * `store` with its collections given by `collection(name)` (a decorator's wrapped collections) and every
 * other member passed through unchanged.
 */
export function withCollections(store: Store, collection: (name: string) => Collection, wrapped: WrappedCollections = {}): Store {
  return {
    get kind() {
      return store.kind;
    },
    endsReadsAtDeadline: wrapped.readsPassedStraightOn === true ? store.endsReadsAtDeadline : undefined,
    collection,
    openSnapshot: () => store.openSnapshot(),
    transaction: (work) => store.transaction(work),
    syncIndexes: (name, specs, prefix) => store.syncIndexes(name, specs, prefix),
    listIndexes: (name) => store.listIndexes(name),
    dropCollection: (name) => store.dropCollection(name),
    watchChanges: (listener) => store.watchChanges(listener),
    ready: () => store.ready(),
    close: () => store.close(),
  };
}
