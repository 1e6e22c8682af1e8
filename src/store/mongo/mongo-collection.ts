import { MongoBulkWriteError, type ClientSession, type Collection as DriverCollection, type Document } from 'mongodb';
import {
  DuplicateKeyError,
  type Collection,
  type Filter,
  type FindOptions,
  type OperationScope,
  type PerKeyPage,
  type Pipeline,
  type StoredDocument,
  type Transaction,
  type UpdateDocument,
  type UpdateResult,
} from '../port.js';
import { duplicateKeyOfInsert, isDuplicateKeyError } from './errors.js';
import { timeLimitOf } from './time-limit.js';
import { perKeyPipeline, readPerKeyRows } from './per-key-pipeline.js';
import { orderedFindPlan, runValueSplit, type FindCommand } from './sorted-find.js';

/** What a collection needs from its store: error translation, sessions and transactions. */
export interface OperationRunner {
  /**
   * Runs one driver call on `collection`, with `tx`'s session when it has one, and translates errors
   * into the port's (DuplicateKeyError, StoreUnavailableError).
   */
  run<T>(
    collection: string,
    tx: Transaction | undefined,
    call: (collection: DriverCollection<StoredDocument>, session: ClientSession | undefined) => Promise<T>,
  ): Promise<T>;
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  supportsTransactions(): boolean;
  /** After a write under `tx` (or none) changed documents of `collection`: the change feed's part. */
  wrote(collection: string, tx: Transaction | undefined): Promise<void>;
  /** The fields of a collection's index by its name, as last synced or listed (undefined: not known). */
  indexFields(collection: string, indexName: string): readonly string[] | undefined;
}

export class MongoCollection implements Collection {
  constructor(
    readonly name: string,
    private readonly runner: OperationRunner,
  ) {}

  async find(filter: Filter, options: FindOptions = {}, scope?: OperationScope): Promise<StoredDocument[]> {
    // As in MongoDB (and the embedded store), limit 0 means no limit.
    checkWindow(this.name, options);
    const timeLimit = timeLimitOf(scope, `find on ${this.name}`);
    const plan = orderedFindPlan(filter, options);
    return this.runner.run(this.name, scope?.tx, async (collection, session) => {
      const find = (command: FindCommand): Promise<Document[]> => {
        const { filter: query, ...window } = command;
        return collection.find(query, { session, ...timeLimit, ...window }).toArray();
      };
      const documents =
        plan.kind === 'find' ? await find(plan.command)
        : plan.kind === 'aggregate' ? await collection.aggregate(plan.pipeline, { session, ...timeLimit }).toArray()
        // The parts run one after another: a transaction's session carries one operation at a time.
        : await runValueSplit(plan, { find, count: (query) => collection.countDocuments(query, { session, ...timeLimit }) });
      return documents.map((document) => asStoredDocument(this.name, document));
    });
  }

  async count(filter: Filter, scope?: OperationScope): Promise<number> {
    const timeLimit = timeLimitOf(scope, `count on ${this.name}`);
    return this.runner.run(this.name, scope?.tx, (collection, session) => collection.countDocuments(filter, { session, ...timeLimit }));
  }

  findPerKey(field: string, keys: readonly string[], filter: Filter, page: PerKeyPage, scope?: OperationScope): Promise<Map<string, StoredDocument[]>> {
    checkWindow(this.name, page);
    const timeLimit = timeLimitOf(scope, `findPerKey on ${this.name}`);
    return this.runner.run(this.name, scope?.tx, async (collection, session) => {
      const rows = await collection.db.aggregate(perKeyPipeline(this.name, field, keys, filter, page), { session, ...timeLimit }).toArray();
      const pages = readPerKeyRows(rows, keys);
      for (const documents of pages.values()) documents.forEach((document) => asStoredDocument(this.name, document));
      return pages;
    });
  }

  async aggregate(pipeline: Pipeline, scope?: OperationScope): Promise<Record<string, unknown>[]> {
    const timeLimit = timeLimitOf(scope, `aggregate on ${this.name}`);
    return this.runner.run(this.name, scope?.tx, (collection, session) => collection.aggregate(pipeline, { session, ...timeLimit }).toArray());
  }

  /**
   * All or nothing. Inside a real transaction a failed insert aborts it. Without a caller's transaction
   * on a replica set, several documents get a transaction of their own. On a standalone server (no
   * transactions) the insert is ordered, and after a duplicate-key failure the documents it had already
   * written are deleted again; a reader may briefly see them in between.
   */
  async insertMany(documents: StoredDocument[], scope?: OperationScope): Promise<void> {
    if (documents.length === 0) {
      return;
    }
    if (scope?.tx === undefined && documents.length > 1 && this.runner.supportsTransactions()) {
      return this.runner.transaction((own) => this.insertMany(documents, { ...scope, tx: own }));
    }
    const timeLimit = timeLimitOf(scope, `insertMany into ${this.name}`);
    await this.runner.run(this.name, scope?.tx, async (collection, session) => {
      try {
        await collection.insertMany(documents, { ordered: true, session, ...timeLimit });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        if (!session?.inTransaction()) await deleteInsertedBeforeFailure(collection, documents, error, session);
        const { field, value } = duplicateKeyOfInsert(error, documents, (indexName) => this.runner.indexFields(this.name, indexName));
        throw new DuplicateKeyError(this.name, field, value);
      }
    });
    await this.runner.wrote(this.name, scope?.tx);
  }

  async updateMany(filter: Filter, update: UpdateDocument, scope?: OperationScope): Promise<UpdateResult> {
    const timeLimit = timeLimitOf(scope, `updateMany on ${this.name}`);
    const outcome = await this.runner.run(this.name, scope?.tx, async (collection, session) => {
      const result = await collection.updateMany(filter, update, { session, ...timeLimit });
      return { matched: result.matchedCount, modified: result.modifiedCount };
    });
    if (outcome.modified > 0) await this.runner.wrote(this.name, scope?.tx);
    return outcome;
  }

  async deleteMany(filter: Filter, scope?: OperationScope): Promise<number> {
    const timeLimit = timeLimitOf(scope, `deleteMany on ${this.name}`);
    const deleted = await this.runner.run(this.name, scope?.tx, async (collection, session) => {
      const result = await collection.deleteMany(filter, { session, ...timeLimit });
      return result.deletedCount;
    });
    if (deleted > 0) await this.runner.wrote(this.name, scope?.tx);
    return deleted;
  }
}

function checkWindow(collection: string, options: Pick<FindOptions, 'skip' | 'limit'>): void {
  for (const key of ['skip', 'limit'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new Error(`find on ${collection}: ${key} must be a non-negative integer, got ${value}`);
    }
  }
}

function asStoredDocument(collection: string, document: Document): StoredDocument {
  if (typeof document._id !== 'string') {
    throw new Error(
      `collection ${collection} holds a document whose _id is not a string (${String(document._id)}); ` +
        'this service stores every object under its string ID',
    );
  }
  return document as StoredDocument;
}

/** An ordered insert stops at its first failure: every document before that index was written. */
async function deleteInsertedBeforeFailure(
  collection: DriverCollection<StoredDocument>,
  documents: StoredDocument[],
  error: unknown,
  session: ClientSession | undefined,
): Promise<void> {
  if (!(error instanceof MongoBulkWriteError)) {
    return;
  }
  const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  const failedAt = Math.min(...writeErrors.map((writeError) => writeError.index));
  const written = documents.slice(0, Number.isFinite(failedAt) ? failedAt : error.insertedCount).map((d) => d._id);
  if (written.length > 0) {
    await collection.deleteMany({ _id: { $in: written } }, { session });
  }
}
