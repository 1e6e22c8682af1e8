import type { Collection, Store, StoredDocument, Transaction } from '../../store/port.js';
import { withCollections } from '../../store/with-collections.js';

/**
 * The Store one mutation writes through: inserts made in its transaction are held back and written as
 * one `insertMany` per collection just before the next other store call (on any collection) or when the
 * mutation's work is done (`flush`). So an add of 100 objects costs one insert, not 100, while every read
 * and update still sees all earlier inserts: the mutation's logic is unchanged. What moves is where an
 * insert's DuplicateKeyError surfaces (at the flush); it is the same error, naming the collection.
 */
export interface BufferedStore extends Store {
  /** Writes the held-back inserts (one `insertMany` per collection, in first-insert order). */
  flush(): Promise<void>;
}

export function bufferInserts(store: Store, tx: Transaction): BufferedStore {
  const pending = new Map<string, StoredDocument[]>();

  const flush = async (): Promise<void> => {
    for (const [name, documents] of pending) {
      pending.delete(name);
      await store.collection(name).insertMany(documents, { tx });
    }
  };

  /** Every call but an insert in this transaction writes the held-back inserts first. */
  const afterFlush = <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await flush();
      return call(...args);
    };

  const handles = new Map<string, Collection>();
  const collection = (name: string): Collection => {
    let handle = handles.get(name);
    if (!handle) handles.set(name, (handle = bufferedCollection(name)));
    return handle;
  };

  /** One handle per collection, made on first use (a mutation asks for its collections once per object). */
  const bufferedCollection = (name: string): Collection => {
    const inner = store.collection(name);
    return {
      name: inner.name,
      find: afterFlush((filter, options, scope) => inner.find(filter, options, scope)),
      findPerKey: afterFlush((field, keys, filter, page, scope) => inner.findPerKey(field, keys, filter, page, scope)),
      count: afterFlush((filter, scope) => inner.count(filter, scope)),
      aggregate: afterFlush((pipeline, scope) => inner.aggregate(pipeline, scope)),
      updateMany: afterFlush((filter, update, scope) => inner.updateMany(filter, update, scope)),
      deleteMany: afterFlush((filter, scope) => inner.deleteMany(filter, scope)),
      async insertMany(documents, scope) {
        if (scope?.tx !== tx) {
          await flush();
          return inner.insertMany(documents, scope);
        }
        const held = pending.get(name) ?? [];
        pending.set(name, held);
        held.push(...documents);
      },
    };
  };

  return Object.assign(withCollections(store, collection), { flush });
}
