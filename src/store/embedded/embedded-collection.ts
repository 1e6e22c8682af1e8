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

  async find(filter: Filter, options?: FindOptions, tx?: Transaction): Promise<StoredDocument[]> {
    return this.core.read(tx, (viewOf) => findDocuments(viewOf(this.name), this.name, filter, options));
  }

  async count(filter: Filter, tx?: Transaction): Promise<number> {
    return this.core.read(tx, (viewOf) => countDocuments(viewOf(this.name), this.name, filter));
  }

  async findPerKey(field: string, keys: readonly string[], filter: Filter, page: PerKeyPage, scope?: OperationScope): Promise<Map<string, StoredDocument[]>> {
    return this.core.read(scope?.tx, (viewOf) => findPerKey(viewOf(this.name), this.name, field, keys, filter, page));
  }

  async aggregate(pipeline: Pipeline, tx?: Transaction): Promise<Record<string, unknown>[]> {
    return this.core.read(tx, (viewOf) => runPipeline(this.name, pipeline, viewOf));
  }

  async insertMany(documents: StoredDocument[], tx?: Transaction): Promise<void> {
    if (Array.isArray(documents) && documents.length === 0) return;
    await this.core.write(`insertMany into ${this.name}`, this.name, tx, (state, scope) => insertDocuments(state, scope, documents));
  }

  async updateMany(filter: Filter, update: UpdateDocument, tx?: Transaction): Promise<UpdateResult> {
    return this.core.write(`updateMany on ${this.name}`, this.name, tx, (state, scope) => updateDocuments(state, scope, filter, update));
  }

  async deleteMany(filter: Filter, tx?: Transaction): Promise<number> {
    return this.core.write(`deleteMany on ${this.name}`, this.name, tx, (state, scope) => deleteDocuments(state, scope, filter));
  }
}
