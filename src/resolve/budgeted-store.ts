/**
 * The store as one request sees it: a Store decorator that holds every call to the request's budget.
 * A call starts only while the budget lasts, carries the request's deadline to the adapter (MongoDB
 * `maxTimeMS`, the embedded store's scan checks), and a store's DeadlineExceededError becomes the
 * request's REQUEST_TIMEOUT. A read outside a transaction also ends at the deadline even if the backend
 * keeps it waiting: it is raced against the budget's timer, unless the store ends its reads at the
 * deadline by itself (`endsReadsAtDeadline`, the embedded store). Writes and reads inside a transaction
 * are left to finish or fail in the adapter, so the transaction stays whole and rolls back as one.
 */
import type { RequestBudget } from '../limits/budget.js';
import {
  DeadlineExceededError,
  type Collection,
  type Filter,
  type FindOptions,
  type OperationScope,
  type PerKeyPage,
  type Pipeline,
  type Store,
  type StoredDocument,
  type UpdateDocument,
  type UpdateResult,
} from '../store/port.js';
import { ForwardingStore } from '../store/forwarding-store.js';

export function budgetedStore(store: Store, budget: RequestBudget): Store {
  return new BudgetedStore(store, budget);
}

/** A class rather than an object of closures (store/with-collections.ts): every request makes one. */
class BudgetedStore extends ForwardingStore {
  constructor(
    inner: Store,
    private readonly budget: RequestBudget,
  ) {
    super(inner);
  }

  collection(name: string): Collection {
    return new BudgetedCollection(this.inner.collection(name), this.budget, this.inner.endsReadsAtDeadline === true);
  }
}

class BudgetedCollection implements Collection {
  constructor(
    private readonly inner: Collection,
    private readonly budget: RequestBudget,
    private readonly readsEndAtDeadline: boolean,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  find(filter: Filter, options?: FindOptions, scope?: OperationScope): Promise<StoredDocument[]> {
    return this.read(scope, (budgeted) => this.inner.find(filter, options, budgeted));
  }

  count(filter: Filter, scope?: OperationScope): Promise<number> {
    return this.read(scope, (budgeted) => this.inner.count(filter, budgeted));
  }

  aggregate(pipeline: Pipeline, scope?: OperationScope): Promise<Record<string, unknown>[]> {
    return this.read(scope, (budgeted) => this.inner.aggregate(pipeline, budgeted));
  }

  findPerKey(field: string, keys: readonly string[], filter: Filter, page: PerKeyPage, scope?: OperationScope): Promise<Map<string, StoredDocument[]>> {
    return this.read(scope, (budgeted) => this.inner.findPerKey(field, keys, filter, page, budgeted));
  }

  insertMany(documents: StoredDocument[], scope?: OperationScope): Promise<void> {
    return this.write(scope, (budgeted) => this.inner.insertMany(documents, budgeted));
  }

  updateMany(filter: Filter, update: UpdateDocument, scope?: OperationScope): Promise<UpdateResult> {
    return this.write(scope, (budgeted) => this.inner.updateMany(filter, update, budgeted));
  }

  deleteMany(filter: Filter, scope?: OperationScope): Promise<number> {
    return this.write(scope, (budgeted) => this.inner.deleteMany(filter, budgeted));
  }

  private async read<T>(scope: OperationScope | undefined, call: (scope: OperationScope) => Promise<T>): Promise<T> {
    const budgeted = this.scoped(scope);
    try {
      // The race's own rejection is already the request's REQUEST_TIMEOUT.
      return await (budgeted.tx === undefined && !this.readsEndAtDeadline ? this.budget.within(call(budgeted)) : call(budgeted));
    } catch (error) {
      throw this.asRequestTimeout(error);
    }
  }

  private async write<T>(scope: OperationScope | undefined, call: (scope: OperationScope) => Promise<T>): Promise<T> {
    try {
      return await call(this.scoped(scope));
    } catch (error) {
      throw this.asRequestTimeout(error);
    }
  }

  /** `scope` with the earlier of its own deadline and the request's; throws if the budget is spent. */
  private scoped(scope: OperationScope | undefined): OperationScope {
    this.budget.check();
    const own = scope?.deadline;
    const deadline = own !== undefined && own < this.budget.deadline ? own : this.budget.deadline;
    // Built field by field: most reads pass `{ tx: undefined }`, which a spread would copy as it is.
    return scope?.tx === undefined ? { deadline } : { tx: scope.tx, deadline };
  }

  /** A store's DeadlineExceededError as the request's REQUEST_TIMEOUT; any other error as it is. */
  private asRequestTimeout(error: unknown): unknown {
    return error instanceof DeadlineExceededError ? this.budget.timedOut() : error;
  }
}
