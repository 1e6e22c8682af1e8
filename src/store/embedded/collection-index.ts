/**
 * One secondary index of a collection: a hash from index key to the natural-order positions of the
 * documents holding it (see CollectionState), kept sorted so that postings intersect by merging and come
 * back in natural order without sorting (keys many documents hold also get a bitset). It serves unique
 * enforcement, equality/`$in` lookups and, through its ordered keys (built on the first range or ordered
 * read, then kept up), ranges, range counts and sorted walks.
 */
import { Query } from 'mingo';
import type { IndexSpec, StoredDocument } from '../port.js';
import { indexKeysOf, plainFieldKeys, type KeyedValue } from './index-keys.js';
import { compareKeys, INDEX_KEY_ORDER, OrderedKeys, type KeyInOrder } from './ordered-keys.js';
import { PositionBitset } from './position-bitset.js';
import { insertSorted, removeSorted } from './sorted-positions.js';

export interface KeyConflict {
  /** The indexed field(s), comma separated for compound indexes. */
  field: string;
  value: unknown;
}

/** One position, or ascending positions once a key has several holders (most keys have one: no array). */
type Postings = number | number[];

/** Keys held by at least this many documents also get a bitset of their positions (dropped below half)... */
const BITSET_MIN = 1024;
/**
 * ...if at least one position in this many holds the key. A bitset takes a bit for every position of the
 * collection, postings a slot per holder: a sparser key's bitset is mostly zeros. At 1,000,000 Tasks over
 * 1,000 Users every user key passes 1,024 holders during a run of adds, and each got a bitset of ~190 KB
 * (~190 MB in all): p99 of `addTask` went from ~100 ms at 100,000 Tasks to 550–825 ms, the event loop held
 * up to 440 ms at a time (bench/mutation-growth.ts).
 */
const BITSET_MAX_SPARSENESS = 256;

export class CollectionIndex {
  readonly fields: string[];
  private readonly entries = new Map<string, Postings>();
  private readonly bitsets = new Map<string, PositionBitset>();
  private ordered: OrderedKeys | undefined;
  /** Whether some document ever held several keys here (an array of several values); never reset. */
  private severalKeysSeen = false;
  /** Whether some document ever held an array in the (top-level) field; never reset. */
  private arraysSeen = false;
  /** A partial index's filter: documents it does not select hold no key here. */
  private readonly selects: ((document: StoredDocument) => boolean) | undefined;
  /** See `followsNaturalOrder`; once false it stays false (a rebuilt index works it out again). */
  private keysFollowPositions = true;
  /** The largest position indexed so far and its key, while the keys follow the positions. */
  private lastPosition = -1;
  private lastKey: string | undefined;
  /** The key a document just left at its position: an update removes, then adds at the same position. */
  private leaving: { position: number; key: string } | undefined;
  /** The field of an index over one top-level field without a partial filter, whose keys plainFieldKeys finds. */
  private readonly plainField: string | undefined;

  /** `idAt` names the document at a natural-order position (for unique-key conflicts). */
  constructor(
    readonly spec: IndexSpec,
    private readonly idAt: (position: number) => string | undefined,
  ) {
    this.fields = Object.keys(spec.keys);
    const partial = spec.partialFilterExpression;
    if (partial) {
      const query = new Query(partial, { scriptEnabled: false });
      this.selects = (document) => query.test(document);
    }
    const [only] = this.fields;
    this.plainField = this.fields.length === 1 && !only!.includes('.') && !partial ? only : undefined;
  }

  get unique(): boolean {
    return this.spec.unique === true;
  }

  /** The single field this index can look up, or undefined for a compound index. */
  get lookupField(): string | undefined {
    return this.fields.length === 1 ? this.fields[0] : undefined;
  }

  /** Whether a document may hold several keys, so that two range bounds can be met by different keys. */
  get multikey(): boolean {
    return this.severalKeysSeen;
  }

  /**
   * Whether every document's key is its stored value itself: no array (nor dotted path, which may pass
   * through one) was ever indexed here, so each document holds exactly one key, its value (or null).
   */
  get holdsScalarsOnly(): boolean {
    return !this.arraysSeen;
  }

  /**
   * Whether every document holds exactly one key here, a value (never null, missing or an array), and the
   * keys never decrease along natural order, as for a creation time of documents created in time order.
   * The matches of any filter are then in this field's order by position already, so a sorted page is read
   * off their start or end instead of sorting them (position-ordered-page.ts).
   */
  get followsNaturalOrder(): boolean {
    return this.keysFollowPositions && !this.arraysSeen;
  }

  /** How many distinct keys the index holds. */
  get keyCount(): number {
    return this.entries.size;
  }

  keysOf(document: StoredDocument): KeyedValue[] {
    if (this.selects && !this.selects(document)) return [];
    return indexKeysOf(document, this.fields, this.spec.sparse === true);
  }

  add(document: StoredDocument, position: number): void {
    const keys = this.keyStringsOf(document);
    if (typeof keys === 'string') {
      // One value, no array: nothing to note but the order of the keys.
      if (this.keysFollowPositions) this.followPositions(keys, position);
      this.addKey(keys, position);
      return;
    }
    if (keys.length > 1) this.severalKeysSeen = true;
    if (!this.arraysSeen && this.fields.some((field) => field.includes('.') || Array.isArray(document[field]))) this.arraysSeen = true;
    if (this.keysFollowPositions) this.followPositions(keys.length === 1 ? keys[0] : undefined, position);
    for (const key of keys) this.addKey(key, position);
  }

  /** The document's keys here: one string when the indexed field holds one value (see plainFieldKeys). */
  private keyStringsOf(document: StoredDocument): string | string[] {
    if (this.plainField !== undefined) return plainFieldKeys(document, this.plainField, this.spec.sparse === true);
    return this.keysOf(document).map((keyed) => keyed.key);
  }

  private addKey(key: string, position: number): void {
    const holders = this.entries.get(key);
    if (holders === undefined) {
      this.entries.set(key, position);
      this.ordered?.insert(key);
    } else if (typeof holders === 'number') {
      if (holders === position) return;
      this.entries.set(key, holders < position ? [holders, position] : [position, holders]);
      this.ordered?.adjust(key, 1);
    } else if (insertSorted(holders, position)) {
      this.ordered?.adjust(key, 1);
      // Only a key held by more than BITSET_MIN / 2 documents can have a bitset (removeKey drops it below):
      // most keys are held by fewer, and skip the lookup.
      if (holders.length <= BITSET_MIN / 2) return;
      const bitset = this.bitsets.get(key);
      if (bitset) bitset.add(position);
      else if (holders.length >= BITSET_MIN && holders.length * BITSET_MAX_SPARSENESS > holders[holders.length - 1]!) this.bitsets.set(key, new PositionBitset(holders));
    }
  }

  /**
   * Keeps `keysFollowPositions` true only while the document's key (added at `position`; undefined when it
   * holds none or several) sorts at or after every key before it.
   */
  private followPositions(key: string | undefined, position: number): void {
    const leaving = this.leaving;
    this.leaving = undefined;
    if (key === undefined || key === 'null' || key === 'a:[]') {
      this.keysFollowPositions = false;
    } else if (leaving !== undefined && leaving.position === position && leaving.key === key) {
      // An update that kept this field's value: nothing moved.
    } else if (position > this.lastPosition && (this.lastKey === undefined || compareKeys(this.lastKey, key) <= 0)) {
      this.lastPosition = position;
      this.lastKey = key;
    } else {
      this.keysFollowPositions = false;
    }
  }

  remove(document: StoredDocument, position: number): void {
    const keys = this.keyStringsOf(document);
    if (typeof keys === 'string') {
      this.leaving = { position, key: keys };
      this.removeKey(keys, position);
      return;
    }
    this.leaving = keys.length === 1 ? { position, key: keys[0]! } : undefined;
    for (const key of keys) this.removeKey(key, position);
  }

  private removeKey(key: string, position: number): void {
    const holders = this.entries.get(key);
    if (holders === position) {
      this.entries.delete(key);
      this.ordered?.adjust(key, -1);
      this.ordered?.delete(key);
    } else if (Array.isArray(holders) && removeSorted(holders, position)) {
      this.ordered?.adjust(key, -1);
      this.bitsets.get(key)?.delete(position);
      if (holders.length < BITSET_MIN / 2) this.bitsets.delete(key);
      if (holders.length === 1) this.entries.set(key, holders[0]!);
    }
  }

  /** The ascending positions of the documents holding `key` (shared: do not modify). */
  positionsWithKey(key: string): readonly number[] {
    const holders = this.entries.get(key);
    if (holders === undefined) return [];
    return typeof holders === 'number' ? [holders] : holders;
  }

  /** Adds the positions of the documents holding `key` to `target` (no array per key for the many keys of a range). */
  appendPositions(key: string, target: number[]): void {
    const holders = this.entries.get(key);
    if (typeof holders === 'number') target.push(holders);
    else if (holders !== undefined) for (const position of holders) target.push(position);
  }

  /** The positions holding `key` as a bitset, for keys many documents hold. */
  bitsetOf(key: string): PositionBitset | undefined {
    return this.bitsets.get(key);
  }

  /** How many documents hold `key`. */
  countWithKey(key: string): number {
    const holders = this.entries.get(key);
    return holders === undefined ? 0 : typeof holders === 'number' ? 1 : holders.length;
  }

  /**
   * The keys in MongoDB sort order, ascending from the first sorting at or after `from`, or descending
   * from the last sorting at or before it (all of them without `from`).
   */
  keysInOrder(direction: 1 | -1, from?: unknown): IterableIterator<KeyInOrder> {
    return this.orderedKeys().inOrder(direction, from);
  }

  /** The encoded keys ascending from the first sorting at or after `from` (for ranges: nothing decoded). */
  encodedKeysFrom(from: unknown): IterableIterator<string> {
    return this.orderedKeys().keys(1, from);
  }

  /**
   * How many documents hold the keys from the first sorting at or after `from`, leaving out leading keys
   * that `skip` and stopping at the first key not `within` (see OrderedKeys.sumFrom).
   */
  countKeysFrom(from: unknown, skip: (key: string) => boolean, within: (key: string) => boolean): number {
    return this.orderedKeys().sumFrom(from, skip, within);
  }

  private orderedKeys(): OrderedKeys {
    this.ordered ??= new OrderedKeys(this.entries.keys(), INDEX_KEY_ORDER, (key) => this.countWithKey(key));
    return this.ordered;
  }

  /**
   * For a unique index: the first key of `keys` already held by a document other than `id` and not in
   * `leaving` (documents whose old keys are being replaced in the same write).
   */
  findConflict(id: string, keys: KeyedValue[], leaving?: ReadonlySet<string>): KeyConflict | undefined {
    for (const keyed of keys) {
      for (const position of this.positionsWithKey(keyed.key)) {
        const holder = this.idAt(position);
        if (holder !== undefined && holder !== id && !leaving?.has(holder)) return this.conflict(keyed);
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
    (a.sparse === true) === (b.sparse === true) &&
    JSON.stringify(a.partialFilterExpression ?? null) === JSON.stringify(b.partialFilterExpression ?? null)
  );
}

/** Whether some documents hold no key in the index (sparse or partial): it cannot find absent values or order all documents. */
export function skipsDocuments(spec: IndexSpec): boolean {
  return spec.sparse === true || spec.partialFilterExpression !== undefined;
}
