import type { Store } from '../../src/store/port.js';
import { withCollections } from '../../src/store/with-collections.js';

/** `store` with some of its methods replaced; the others pass through. */
export function overriding(store: Store, overrides: Partial<Store>): Store {
  return { ...withCollections(store, (name) => store.collection(name)), ...overrides };
}
