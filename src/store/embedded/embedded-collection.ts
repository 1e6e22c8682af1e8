/** The `Collection` handle of the embedded store: argument checks, then reads or writes through the store core. */
import type {
  Collection,
  Filter,
  FindOptions,
  OperationScope,
  PerKeyPage,
  Pipeline,
  StoredDocument,
  Transaction,
  UpdateDocument,
  UpdateResult,
} from '../port.js';
import type { CollectionState } from './collection-state.js';
import { countDocuments, findDocuments } from './find-documents.js';
import { findPerKey } from './find-per-key.js';
import { runPipeline, type ViewResolver } from './pipeline-runner.js';
import { scanDeadline } from './scan-deadline.js';
import { deleteDocuments, insertDocuments, updateDocuments } from './write-operations.js';
import type { WriteScope } from './write-scope.js';

/** What a collection handle needs from the store that owns it. */
export interface StoreCore {
  read<T>(tx: Transaction | undefined, work: (viewOf: ViewResolver) => T): T;
  write<T>(what: string, collection: string, tx: Transaction | undefined, work: (state: CollectionState, scope: WriteScope) => T): Promise<T>;
}

export class EmbeddedCollection implements Collection {
  constructor(
    readonly name: string,
    private readonly core: StoreCore,
  ) {}

  // The reads await the scan's promise rather than return it: an async function resolved with a promise
  // takes two more turns of the microtask queue than one that awaits it.
  async find(filter: Filter, options?: FindOptions, scope?: OperationScope): Promise<StoredDocument[]> {
    const deadline = scanDeadline(scope?.deadline, `find on ${this.name}`);
    return await this.core.read(scope?.tx, (viewOf) => findDocuments(viewOf(this.name), this.name, filter, options, deadline));
  }

  async count(filter: Filter, scope?: OperationScope): Promise<number> {
    const deadline = scanDeadline(scope?.deadline, `count on ${this.name}`);
    return await this.core.read(scope?.tx, (viewOf) => countDocuments(viewOf(this.name), this.name, filter, deadline));
  }

  async findPerKey(field: string, keys: readonly string[], filter: Filter, page: PerKeyPage, scope?: OperationScope): Promise<Map<string, StoredDocument[]>> {
    return this.core.read(scope?.tx, (viewOf) => findPerKey(viewOf(this.name), this.name, field, keys, filter, page));
  }

  async aggregate(pipeline: Pipeline, scope?: OperationScope): Promise<Record<string, unknown>[]> {
    const deadline = scanDeadline(scope?.deadline, `aggregate on ${this.name}`);
    return await this.core.read(scope?.tx, (viewOf) => runPipeline(this.name, pipeline, viewOf, deadline));
  }

  async insertMany(documents: StoredDocument[], scope?: OperationScope): Promise<void> {
    if (Array.isArray(documents) && documents.length === 0) return;
    scanDeadline(scope?.deadline, `insertMany into ${this.name}`); // throws if the deadline has passed: an insert scans nothing
    await this.core.write(`insertMany into ${this.name}`, this.name, scope?.tx, (state, writes) => insertDocuments(state, writes, documents));
  }

  async updateMany(filter: Filter, update: UpdateDocument, scope?: OperationScope): Promise<UpdateResult> {
    const deadline = scanDeadline(scope?.deadline, `updateMany on ${this.name}`);
    return this.core.write(`updateMany on ${this.name}`, this.name, scope?.tx, (state, writes) => updateDocuments(state, writes, filter, update, deadline));
  }

  async deleteMany(filter: Filter, scope?: OperationScope): Promise<number> {
    const deadline = scanDeadline(scope?.deadline, `deleteMany on ${this.name}`);
    return this.core.write(`deleteMany on ${this.name}`, this.name, scope?.tx, (state, writes) => deleteDocuments(state, writes, filter, deadline));
  }
}
