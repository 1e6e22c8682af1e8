import type { Collection, Store } from './port.js';

/**
 * `store` with its collections given by `collection(name)` (a decorator's wrapped collections) and every
 * other member passed through unchanged.
 */
export function withCollections(store: Store, collection: (name: string) => Collection): Store {
  return {
    get kind() {
      return store.kind;
    },
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
