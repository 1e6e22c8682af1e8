import { overriding } from './store-wrap.js';
import { StoreUnavailableError, type Collection, type Store } from '../../src/store/port.js';

export interface StoreWithOutage {
  store: Store;
  /** From now on every operation fails with StoreUnavailableError and `ready()` is false, as with MongoDB down. */
  down(): void;
  /** Back to normal. */
  up(): void;
}

const COLLECTION_OPERATIONS = ['find', 'findPerKey', 'count', 'aggregate', 'insertMany', 'updateMany', 'deleteMany'] as const;

/** `store` with a switch that makes the whole store unreachable, the way the MongoDB adapter reports it. */
export function withOutage(store: Store, { startDown = false } = {}): StoreWithOutage {
  let isDown = startDown;
  const guard = <T>(call: () => Promise<T>): Promise<T> =>
    isDown ? Promise.reject(new StoreUnavailableError('connection refused (test outage)')) : call();
  const collection = (name: string): Collection => {
    const inner = store.collection(name);
    const wrapped: Record<string, unknown> = { name: inner.name };
    for (const operation of COLLECTION_OPERATIONS) {
      wrapped[operation] = (...args: unknown[]) => guard(() => (inner[operation] as (...a: unknown[]) => Promise<unknown>).apply(inner, args));
    }
    return wrapped as unknown as Collection;
  };
  return {
    store: overriding(store, {
      collection,
      openSnapshot: () => guard(() => store.openSnapshot()),
      transaction: (work) => guard(() => store.transaction(work)),
      syncIndexes: (name, specs, prefix) => guard(() => store.syncIndexes(name, specs, prefix)),
      listIndexes: (name) => guard(() => store.listIndexes(name)),
      ready: () => !isDown && store.ready(),
    }),
    down: () => (isDown = true),
    up: () => (isDown = false),
  };
}
