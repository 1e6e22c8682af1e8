/**
 * A Store decorator that times every Collection call (one store round trip) into the store metrics and,
 * given the request's trace context, wraps it in a client span named after the method and collection
 * (like store/counting.ts counts them).
 */
import { SpanKind, type Context, type Span } from '@opentelemetry/api';
import type {
  Collection, Filter, FindOptions, OperationScope, PerKeyPage, Pipeline, Store, StoredDocument, UpdateDocument, UpdateResult,
} from '../store/port.js';
import type { ServiceMetrics } from './metrics.js';
import { timedCall, tracer } from './tracer.js';
import { ForwardingStore } from '../store/forwarding-store.js';

type StoreMethod = 'find' | 'findPerKey' | 'count' | 'aggregate' | 'insertMany' | 'updateMany' | 'deleteMany';

export function observedStore(store: Store, metrics: ServiceMetrics | undefined, traceContext: Context | undefined): Store {
  return new ObservedStore(store, metrics, traceContext);
}

/** A class rather than an object of closures: a traced request makes one, so it is one small allocation. */
class ObservedStore extends ForwardingStore {
  constructor(
    inner: Store,
    private readonly metrics: ServiceMetrics | undefined,
    private readonly traceContext: Context | undefined,
  ) {
    super(inner);
  }

  /** The untraced store is made once and shared by every request: its collections are made once per name. */
  private readonly collections = new Map<string, Collection>();

  collection(name: string): Collection {
    let collection = this.collections.get(name);
    if (!collection) this.collections.set(name, (collection = new ObservedCollection(this.inner.collection(name), this.inner.kind, this.metrics, this.traceContext)));
    return collection;
  }
}

class ObservedCollection implements Collection {
  constructor(
    private readonly inner: Collection,
    private readonly storeKind: string,
    private readonly metrics: ServiceMetrics | undefined,
    private readonly traceContext: Context | undefined,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  find(filter: Filter, options?: FindOptions, scope?: OperationScope): Promise<StoredDocument[]> {
    return this.observe('find', () => this.inner.find(filter, options, scope));
  }

  count(filter: Filter, scope?: OperationScope): Promise<number> {
    return this.observe('count', () => this.inner.count(filter, scope));
  }

  aggregate(pipeline: Pipeline, scope?: OperationScope): Promise<Record<string, unknown>[]> {
    return this.observe('aggregate', () => this.inner.aggregate(pipeline, scope));
  }

  findPerKey(field: string, keys: readonly string[], filter: Filter, page: PerKeyPage, scope?: OperationScope): Promise<Map<string, StoredDocument[]>> {
    return this.observe('findPerKey', () => this.inner.findPerKey(field, keys, filter, page, scope));
  }

  insertMany(documents: StoredDocument[], scope?: OperationScope): Promise<void> {
    return this.observe('insertMany', () => this.inner.insertMany(documents, scope));
  }

  updateMany(filter: Filter, update: UpdateDocument, scope?: OperationScope): Promise<UpdateResult> {
    return this.observe('updateMany', () => this.inner.updateMany(filter, update, scope));
  }

  deleteMany(filter: Filter, scope?: OperationScope): Promise<number> {
    return this.observe('deleteMany', () => this.inner.deleteMany(filter, scope));
  }

  /** Not an async function: timedCall's promise is handed on as it is (one promise per store call, not two). */
  private observe<T>(method: StoreMethod, call: () => Promise<T>): Promise<T> {
    const span = this.startSpan(method);
    return timedCall(span, (seconds, failed) => this.metrics?.recordStoreCall(method, seconds, failed), call);
  }

  private startSpan(method: StoreMethod): Span | undefined {
    if (!this.traceContext) return undefined;
    return tracer.startSpan(
      `${method} ${this.inner.name}`,
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': this.storeKind, 'db.collection.name': this.inner.name, 'db.operation.name': method } },
      this.traceContext,
    );
  }
}
