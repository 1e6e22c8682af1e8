/**
 * The keys of one index in MongoDB sort order (`compareValues` of the values they encode; keys of values
 * that sort equal, like `null` and `[]`, by the key text), as a list of sorted blocks: built from all keys
 * with one sort per type, kept up by insertions and removals in one block, and walked from any value in
 * either direction.
 */
import { decodeKey } from './index-keys.js';
import { compareValues } from './sort-order.js';

/** Blocks are split beyond this many keys, so an insertion or removal moves at most this many. */
const MAX_BLOCK = 1024;

export interface KeyInOrder {
  /** What the key sorts as: null for a missing field and for an empty array, else the value. */
  sortValue: unknown;
  key: string;
}

export const sortValueOf = (key: string): unknown => (key === 'a:[]' ? null : decodeKey(key));

/** Two keys in index order; strings and numbers (nearly all keys) without decoding. */
export function compareKeys(a: string, b: string): number {
  const typeA = a.charCodeAt(0);
  if (typeA === b.charCodeAt(0) && a[1] === ':' && b[1] === ':') {
    if (typeA === 115 /* s */) return a < b ? -1 : a > b ? 1 : 0;
    if (typeA === 110 /* n */) return Number(a.slice(2)) - Number(b.slice(2)) || (a < b ? -1 : a > b ? 1 : 0);
  }
  return compareValues(sortValueOf(a), sortValueOf(b)) || (a < b ? -1 : a > b ? 1 : 0);
}

/** How an OrderedKeys compares its keys and what value each key sorts as. */
export interface KeyOrder {
  compare(a: string, b: string): number;
  sortValueOf(key: string): unknown;
  /** All keys in order (may be faster than sorting with `compare`). */
  sortAll(keys: Iterable<string>): string[];
}

/** The keys of a secondary index (see index-keys.ts), in MongoDB sort order of their values. */
export const INDEX_KEY_ORDER: KeyOrder = { compare: compareKeys, sortValueOf, sortAll: (keys) => sortKeys(keys) };

/** Document ids (always strings) in MongoDB's order of strings. */
export const ID_ORDER: KeyOrder = {
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  sortValueOf: (id) => id,
  sortAll: (ids) => Array.from(ids).sort(),
};

export class OrderedKeys {
  private blocks: string[][];
  /** With `weightOf`: the total weight of each block's keys, kept up through `adjust`. */
  private readonly weights: number[] = [];

  /**
   * `weightOf` (optional) gives a key's weight (for an index: how many documents hold it), so that sumFrom
   * can add whole blocks; the owner reports every later change of a weight through `adjust`.
   */
  constructor(
    keys: Iterable<string>,
    private readonly order: KeyOrder = INDEX_KEY_ORDER,
    private readonly weightOf?: (key: string) => number,
  ) {
    const sorted = order.sortAll(keys);
    this.blocks = [];
    for (let start = 0; start < sorted.length; start += MAX_BLOCK / 2) this.blocks.push(sorted.slice(start, start + MAX_BLOCK / 2));
    if (weightOf) this.weights = this.blocks.map((block) => this.weightOfBlock(block));
  }

  /** Adds `delta` to the weight of `key`'s block (the key's own weight changed by that much). */
  adjust(key: string, delta: number): void {
    if (!this.weightOf) return;
    const blockIndex = this.blockFor((last) => this.order.compare(last, key) >= 0);
    if (blockIndex < this.weights.length) this.weights[blockIndex]! += delta;
  }

  /**
   * The total weight of the keys from the first sorting at or after `from`, leaving out the leading keys
   * for which `skip` holds and stopping at the first for which `within` does not (`within` must hold for
   * a run of keys, then never again). Blocks entirely within are added whole.
   */
  sumFrom(from: unknown, skip: (key: string) => boolean, within: (key: string) => boolean): number {
    const weightOf = this.weightOf;
    if (!weightOf) throw new Error('sumFrom needs keys with weights');
    const blocks = this.blocks;
    const sortValueOf = this.order.sortValueOf;
    const atOrAfter = (key: string): boolean => compareValues(sortValueOf(key), from) >= 0;
    let blockIndex = this.blockFor(atOrAfter);
    let at = blockIndex < blocks.length ? firstIndex(blocks[blockIndex]!, atOrAfter) : 0;
    for (; blockIndex < blocks.length; blockIndex++, at = 0) {
      const block = blocks[blockIndex]!;
      while (at < block.length && skip(block[at]!)) at++;
      if (at < block.length) break;
    }
    let total = 0;
    for (; blockIndex < blocks.length; blockIndex++, at = 0) {
      const block = blocks[blockIndex]!;
      if (at === 0 && within(block[block.length - 1]!)) {
        total += this.weights[blockIndex]!;
        continue;
      }
      for (; at < block.length; at++) {
        if (!within(block[at]!)) return total;
        total += weightOf(block[at]!);
      }
    }
    return total;
  }

  private weightOfBlock(block: readonly string[]): number {
    let total = 0;
    for (const key of block) total += this.weightOf!(key);
    return total;
  }

  insert(key: string): void {
    if (this.blocks.length === 0) {
      this.blocks.push([key]);
      if (this.weightOf) this.weights.push(this.weightOf(key));
      return;
    }
    const blockIndex = Math.min(this.blockFor((last) => this.order.compare(last, key) >= 0), this.blocks.length - 1);
    const block = this.blocks[blockIndex]!;
    const at = firstIndex(block, (item) => this.order.compare(item, key) >= 0);
    if (block[at] === key) return;
    block.splice(at, 0, key);
    if (this.weightOf) this.weights[blockIndex]! += this.weightOf(key);
    if (block.length > MAX_BLOCK) {
      const halves = [block.slice(0, MAX_BLOCK / 2), block.slice(MAX_BLOCK / 2)];
      this.blocks.splice(blockIndex, 1, ...halves);
      if (this.weightOf) this.weights.splice(blockIndex, 1, ...halves.map((half) => this.weightOfBlock(half)));
    }
  }

  /** Removes `key`; with weights, its weight must have been adjusted to 0 first. */
  delete(key: string): void {
    const blockIndex = this.blockFor((last) => this.order.compare(last, key) >= 0);
    const block = this.blocks[blockIndex];
    if (!block) return;
    const at = firstIndex(block, (item) => this.order.compare(item, key) >= 0);
    if (block[at] !== key) return;
    block.splice(at, 1);
    if (block.length === 0) {
      this.blocks.splice(blockIndex, 1);
      if (this.weightOf) this.weights.splice(blockIndex, 1);
    }
  }

  /**
   * The keys ascending (`1`) from the first sorting at or after `from`, or descending (`-1`) from the
   * last sorting at or before it; all of them without `from`.
   */
  *inOrder(direction: 1 | -1, from?: unknown): IterableIterator<KeyInOrder> {
    const sortValueOf = this.order.sortValueOf;
    for (const key of this.keys(direction, from)) yield { sortValue: sortValueOf(key), key };
  }

  /** Like inOrder, the keys alone (nothing decoded on the way). */
  *keys(direction: 1 | -1, from?: unknown): IterableIterator<string> {
    const blocks = this.blocks;
    const sortValueOf = this.order.sortValueOf;
    if (direction === 1) {
      const atOrAfter = (key: string): boolean => compareValues(sortValueOf(key), from) >= 0;
      let blockIndex = from === undefined ? 0 : this.blockFor(atOrAfter);
      let at = from === undefined || blockIndex >= blocks.length ? 0 : firstIndex(blocks[blockIndex]!, atOrAfter);
      for (; blockIndex < blocks.length; blockIndex++, at = 0) {
        const block = blocks[blockIndex]!;
        for (; at < block.length; at++) yield block[at]!;
      }
      return;
    }
    const after = (key: string): boolean => compareValues(sortValueOf(key), from) > 0;
    let blockIndex = from === undefined ? blocks.length - 1 : Math.min(this.blockFor(after), blocks.length - 1);
    let at = from === undefined || blockIndex < 0 ? Infinity : firstIndex(blocks[blockIndex]!, after) - 1;
    for (; blockIndex >= 0; blockIndex--, at = Infinity) {
      const block = blocks[blockIndex]!;
      for (at = Math.min(at, block.length - 1); at >= 0; at--) yield block[at]!;
    }
  }

  /** The first block whose last key meets `test` (monotone over the blocks), or the number of blocks. */
  private blockFor(test: (last: string) => boolean): number {
    let low = 0;
    let high = this.blocks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const block = this.blocks[middle]!;
      if (test(block[block.length - 1]!)) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}

/** The first index of `items` meeting `test` (false then true along the items), or their number. */
function firstIndex(items: readonly string[], test: (item: string) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(items[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * All keys in index order, one sort per type in MongoDB's type order (null, numbers, strings, objects and
 * arrays, booleans): strings by their key text (same prefix, same order as `<` on the values), numbers
 * numerically (each number has one key), the rest by the generic comparison.
 */
function sortKeys(keys: Iterable<string>): string[] {
  const nulls: string[] = [];
  const numbers: number[] = [];
  const strings: string[] = [];
  const others: string[] = [];
  const booleans: string[] = [];
  for (const key of keys) {
    if (key.startsWith('s:')) strings.push(key);
    else if (key.startsWith('n:')) numbers.push(Number(key.slice(2)));
    else if (key === 'null' || key === 'a:[]') nulls.push(key);
    else if (key.startsWith('b:')) booleans.push(key);
    else others.push(key);
  }
  const sorted = nulls.sort();
  for (const number of Float64Array.from(numbers).sort()) sorted.push(`n:${String(number)}`);
  for (const key of strings.sort()) sorted.push(key);
  for (const key of others.sort(compareKeys)) sorted.push(key);
  for (const key of booleans.sort()) sorted.push(key);
  return sorted;
}
