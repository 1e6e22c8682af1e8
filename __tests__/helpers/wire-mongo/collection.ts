/**
 * One collection in memory: documents in insertion order (MongoDB's natural order) keyed by `_id`, and its
 * indexes. Every write checks every unique index before it changes anything, so a refused write leaves no
 * trace; the documents handed out are the stored objects, which callers must not modify.
 */
import { randomUUID } from 'node:crypto';
import { UUID } from 'mongodb';
import { CommandError, duplicateKeyError } from './errors';
import { describeIndex, ID_INDEX, sameDefinition, sameOptions, UniqueIndex, type IndexDefinition } from './indexes';
import { isDocument, keyOf, type Document } from './values';

export class Collection {
  readonly uuid = new UUID(randomUUID());
  private readonly documents = new Map<string, Document>();
  private readonly indexes: IndexDefinition[] = [ID_INDEX];
  private readonly uniqueIndexes: UniqueIndex[];

  constructor(readonly namespace: string) {
    this.uniqueIndexes = [new UniqueIndex(ID_INDEX, namespace)];
  }

  all(): Document[] {
    return [...this.documents.values()];
  }

  /**
   * The documents a filter can match: looked up by `_id` when the filter pins it (`{ _id: v }` or
   * `{ _id: { $in: [...] } }`), else all. The filter itself must still be applied to them.
   */
  candidates(filter: unknown): Document[] {
    const ids = pinnedIds(filter);
    if (!ids) return this.all();
    const found: Document[] = [];
    for (const key of new Set(ids.map(keyOf))) {
      const document = this.documents.get(key);
      if (document) found.push(document);
    }
    return found;
  }

  insert(document: Document): void {
    const idKey = keyOf(document._id);
    if (this.documents.has(idKey)) throw duplicateKeyError(this.namespace, ID_INDEX.name, ID_INDEX.key, { _id: document._id });
    for (const index of this.uniqueIndexes) index.check(idKey, document);
    for (const index of this.uniqueIndexes) index.add(idKey, document);
    this.documents.set(idKey, document);
  }

  /** Replaces the stored `current` (same `_id`) with `next`. */
  replace(current: Document, next: Document): void {
    const idKey = keyOf(current._id);
    for (const index of this.uniqueIndexes) index.check(idKey, next);
    for (const index of this.uniqueIndexes) {
      index.remove(idKey, current);
      index.add(idKey, next);
    }
    this.documents.set(idKey, next);
  }

  remove(document: Document): void {
    const idKey = keyOf(document._id);
    for (const index of this.uniqueIndexes) index.remove(idKey, document);
    this.documents.delete(idKey);
  }

  listIndexes(): Document[] {
    return this.indexes.map(describeIndex);
  }

  /** Creates the index, or does nothing when an identical one exists; returns whether it was created. */
  createIndex(definition: IndexDefinition): boolean {
    const sameName = this.indexes.find((index) => index.name === definition.name);
    if (sameName) {
      if (sameDefinition(sameName, definition)) return false;
      const requested = JSON.stringify(describeIndex(definition));
      const existing = JSON.stringify(describeIndex(sameName));
      throw keyOf(sameName.key) === keyOf(definition.key)
        ? new CommandError('IndexOptionsConflict', `An equivalent index already exists with the same name but different options. Requested index: ${requested}, existing index: ${existing}`)
        : new CommandError('IndexKeySpecsConflict', `An existing index has the same name as the requested index. Requested index: ${requested}, existing index: ${existing}`);
    }
    const sameKeys = this.indexes.find((index) => keyOf(index.key) === keyOf(definition.key) && sameOptions(index, definition));
    if (sameKeys) {
      throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${sameKeys.name}`);
    }
    if (definition.unique) this.uniqueIndexes.push(this.buildUniqueIndex(definition));
    this.indexes.push(definition);
    return true;
  }

  dropIndex(name: string): void {
    if (name === ID_INDEX.name) throw new CommandError('InvalidOptions', 'cannot drop _id index');
    const position = this.indexes.findIndex((index) => index.name === name);
    if (position < 0) throw new CommandError('IndexNotFound', `index not found with name [${name}]`);
    this.indexes.splice(position, 1);
    const unique = this.uniqueIndexes.findIndex((index) => index.definition.name === name);
    if (unique >= 0) this.uniqueIndexes.splice(unique, 1);
  }

  /** Every index except `_id_`, as `dropIndexes: '*'` removes them. */
  dropAllIndexes(): void {
    for (const index of this.indexes.slice(1)) this.dropIndex(index.name);
  }

  indexNamed(name: string): IndexDefinition | undefined {
    return this.indexes.find((index) => index.name === name);
  }

  indexWithKey(key: Document): IndexDefinition | undefined {
    return this.indexes.find((index) => keyOf(index.key) === keyOf(key));
  }

  private buildUniqueIndex(definition: IndexDefinition): UniqueIndex {
    const index = new UniqueIndex(definition, this.namespace);
    for (const [idKey, document] of this.documents) {
      try {
        index.check(idKey, document);
      } catch (error) {
        if (!(error instanceof CommandError)) throw error;
        throw new CommandError(
          'DuplicateKey',
          `Index build failed: ${this.uuid.toHexString()}: Collection ${this.namespace} ( ${this.uuid.toHexString()} ) :: caused by :: ${error.message}`,
          error.details,
        );
      }
      index.add(idKey, document);
    }
    return index;
  }
}

function pinnedIds(filter: unknown): unknown[] | undefined {
  if (!isDocument(filter) || !('_id' in filter)) return undefined;
  const id = filter._id;
  if (isDocument(id)) {
    const operators = Object.keys(id);
    return operators.length === 1 && Array.isArray(id.$in) && !id.$in.some((value) => value instanceof RegExp || isDocument(value) || Array.isArray(value)) ? id.$in : undefined;
  }
  return id instanceof RegExp || Array.isArray(id) ? undefined : [id];
}
