/**
 * One secondary index of a collection: a hash from index key to the ids of the documents holding it. It
 * serves both unique enforcement and equality/`$in` lookups on its (single) field.
 */
import type { IndexSpec, StoredDocument } from '../port.js';
import { indexKeysOf, type KeyedValue } from './index-keys.js';

export interface KeyConflict {
  /** The indexed field(s), comma separated for compound indexes. */
  field: string;
  value: unknown;
}

export class CollectionIndex {
  readonly fields: string[];
  /** Key → holder id, or a set of ids once a key has several holders (most keys have one: no set per key). */
  private readonly entries = new Map<string, string | Set<string>>();

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.keys);
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /** The single field this index can look up, or undefined for a compound index. */
  get lookupField(): string | undefined {
    return this.fields.length === 1 ? this.fields[0] : undefined;
  }

  keysOf(document: StoredDocument): KeyedValue[] {
    return indexKeysOf(document, this.fields, this.spec.sparse === true);
  }

  add(document: StoredDocument): void {
    const id = document._id;
    for (const { key } of this.keysOf(document)) {
      const holders = this.entries.get(key);
      if (holders === undefined) this.entries.set(key, id);
      else if (typeof holders === 'string') {
        if (holders !== id) this.entries.set(key, new Set([holders, id]));
      } else holders.add(id);
    }
  }

  remove(document: StoredDocument): void {
    const id = document._id;
    for (const { key } of this.keysOf(document)) {
      const holders = this.entries.get(key);
      if (holders === id) this.entries.delete(key);
      else if (holders instanceof Set) {
        holders.delete(id);
        if (holders.size === 1) this.entries.set(key, holders.values().next().value!);
      }
    }
  }

  idsWithKey(key: string): ReadonlySet<string> | undefined {
    const holders = this.entries.get(key);
    return typeof holders === 'string' ? new Set([holders]) : holders;
  }

  /**
   * For a unique index: the first key of `keys` already held by a document other than `id` and not in
   * `leaving` (documents whose old keys are being replaced in the same write).
   */
  findConflict(id: string, keys: KeyedValue[], leaving?: ReadonlySet<string>): KeyConflict | undefined {
    for (const keyed of keys) {
      const holders = this.entries.get(keyed.key);
      if (holders === undefined) continue;
      for (const holder of typeof holders === 'string' ? [holders] : holders) {
        if (holder !== id && !leaving?.has(holder)) return this.conflict(keyed);
      }
    }
    return undefined;
  }

  conflict(keyed: KeyedValue): KeyConflict {
    return { field: this.fields.join(','), value: keyed.value };
  }
}

/** Whether two specs describe the same index (name aside). */
export function sameIndexDefinition(a: IndexSpec, b: IndexSpec): boolean {
  return (
    JSON.stringify(Object.entries(a.keys)) === JSON.stringify(Object.entries(b.keys)) &&
    (a.unique === true) === (b.unique === true) &&
    (a.sparse === true) === (b.sparse === true)
  );
}
