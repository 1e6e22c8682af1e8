/**
 * A Store decorator that counts round trips: every Collection call (find, findPerKey, count, aggregate, insertMany,
 * updateMany, deleteMany) is one. Tests use it to prove that a request costs a bounded number of store
 * calls however many objects it returns (no N+1).
 */
import type { Collection, Store } from './port.js';
import { withCollections } from './with-collections.js';

export interface RoundTripCounter {
  /** Collection calls since the last reset. */
  count: number;
  /** The same calls by operation name, e.g. `{ find: 2, aggregate: 1 }`. */
  byOperation: Record<string, number>;
  reset(): void;
}

const COUNTED_OPERATIONS = ['find', 'findPerKey', 'count', 'aggregate', 'insertMany', 'updateMany', 'deleteMany'] as const;

export function countRoundTrips(store: Store): { store: Store; counter: RoundTripCounter } {
  const counter: RoundTripCounter = {
    count: 0,
    byOperation: {},
    reset() {
      counter.count = 0;
      counter.byOperation = {};
    },
  };
  const record = (operation: string): void => {
    counter.count++;
    counter.byOperation[operation] = (counter.byOperation[operation] ?? 0) + 1;
  };

  const countingCollection = (inner: Collection): Collection => {
    const wrapped = { name: inner.name } as Record<string, unknown>;
    for (const operation of COUNTED_OPERATIONS) {
      wrapped[operation] = (...args: unknown[]) => {
        record(operation);
        return (inner[operation] as (...a: unknown[]) => unknown).apply(inner, args);
      };
    }
    return wrapped as unknown as Collection;
  };

  const collections = new Map<string, Collection>();
  const collectionNamed = (name: string): Collection => {
    let collection = collections.get(name);
    if (!collection) collections.set(name, (collection = countingCollection(store.collection(name))));
    return collection;
  };
  return { store: withCollections(store, collectionNamed, { readsPassedStraightOn: true }), counter };
}
