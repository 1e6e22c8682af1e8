import type { Collection, OperationScope, Store } from '../../src/store/port.js';
import { withCollections } from '../../src/store/with-collections.js';

export type Operation = 'find' | 'findPerKey' | 'count' | 'aggregate' | 'insertMany' | 'updateMany' | 'deleteMany';

/**
 * A store whose chosen calls answer only after their deadline has passed: a backend too slow for the
 * request's time limit, without depending on how fast this machine is. `slow(operation, collection)`
 * picks the calls; a call without a deadline is never slowed (there is nothing to be late for).
 */
export function slowStore(store: Store, slow: () => ((operation: Operation, collection: string) => boolean) | undefined): Store {
  const collection = (name: string): Collection => {
    const inner = store.collection(name);
    const delayed = <A extends unknown[], R>(operation: Operation, call: (...args: A) => Promise<R>, scopeOf: (args: A) => OperationScope | undefined) =>
      async (...args: A): Promise<R> => {
        const deadline = scopeOf(args)?.deadline;
        if (deadline !== undefined && slow()?.(operation, name)) await passed(deadline);
        return call(...args);
      };
    return {
      name,
      find: delayed('find', (filter, options, scope) => inner.find(filter, options, scope), (args) => args[2]),
      count: delayed('count', (filter, scope) => inner.count(filter, scope), (args) => args[1]),
      aggregate: delayed('aggregate', (pipeline, scope) => inner.aggregate(pipeline, scope), (args) => args[1]),
      findPerKey: delayed('findPerKey', (field, keys, filter, page, scope) => inner.findPerKey(field, keys, filter, page, scope), (args) => args[4]),
      insertMany: delayed('insertMany', (documents, scope) => inner.insertMany(documents, scope), (args) => args[1]),
      updateMany: delayed('updateMany', (filter, update, scope) => inner.updateMany(filter, update, scope), (args) => args[2]),
      deleteMany: delayed('deleteMany', (filter, scope) => inner.deleteMany(filter, scope), (args) => args[1]),
    };
  };
  return withCollections(store, collection);
}

async function passed(deadline: number): Promise<void> {
  while (Date.now() <= deadline) await new Promise((resolve) => setTimeout(resolve, deadline - Date.now() + 1));
}
