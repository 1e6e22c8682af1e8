import type { Store } from '../../src/store/port.js';

/** `store` with some of its methods replaced; the others pass through. */
export function overriding(store: Store, overrides: Partial<Store>): Store {
  return {
    get kind() {
      return store.kind;
    },
    collection: (name) => store.collection(name),
    openSnapshot: () => store.openSnapshot(),
    transaction: (work) => store.transaction(work),
    syncIndexes: (collection, specs, prefix) => store.syncIndexes(collection, specs, prefix),
    listIndexes: (collection) => store.listIndexes(collection),
    dropCollection: (collection) => store.dropCollection(collection),
    watchChanges: (listener) => store.watchChanges(listener),
    ready: () => store.ready(),
    close: () => store.close(),
    ...overrides,
  };
}
