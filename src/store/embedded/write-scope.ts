/**
 * The undo log of one unit of work (a transaction, or a single auto-committed operation): the version of
 * every document it touched as it was before the unit began. It yields both the rollback and the
 * after-images the unit appends to the write-ahead log.
 */
import type { StoredDocument, Transaction } from '../port.js';
import type { Database } from './database.js';
import type { LogOperation } from './log-records.js';

export type EarlierVersions = ReadonlyMap<string, StoredDocument | undefined>;

export class WriteScope {
  readonly handle: Transaction;
  private readonly earlier = new Map<string, Map<string, StoredDocument | undefined>>();

  constructor(id: number) {
    this.handle = Object.freeze({ id });
  }

  /** Records the version of a document before its first change in this scope. */
  remember(collection: string, id: string, before: StoredDocument | undefined): void {
    let versions = this.earlier.get(collection);
    if (!versions) this.earlier.set(collection, (versions = new Map()));
    if (!versions.has(id)) versions.set(id, before);
  }

  /** Versions as they were before this scope, for readers outside it; undefined if it touched none. */
  earlierVersions(collection: string): EarlierVersions | undefined {
    return this.earlier.get(collection);
  }

  /** The collections this scope wrote to. */
  collections(): string[] {
    return [...this.earlier.keys()];
  }

  get touchedNothing(): boolean {
    return this.earlier.size === 0;
  }

  rollback(database: Database): void {
    for (const [collection, versions] of this.earlier) database.ensure(collection).restore(versions);
    this.earlier.clear();
  }

  /** The scope's net effect as after-images: the current version of every document it touched. */
  logOperations(database: Database): LogOperation[] {
    const operations: LogOperation[] = [];
    for (const [collection, versions] of this.earlier) {
      const state = database.ensure(collection);
      const documents: StoredDocument[] = [];
      const ids: string[] = [];
      for (const id of versions.keys()) {
        const current = state.get(id);
        if (current) documents.push(current);
        else ids.push(id);
      }
      if (documents.length > 0) operations.push({ op: 'put', collection, documents });
      if (ids.length > 0) operations.push({ op: 'delete', collection, ids });
    }
    return operations;
  }
}
