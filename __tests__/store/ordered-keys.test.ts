import { encodeValue } from '../../src/store/embedded/index-keys.js';
import { compareKeys, OrderedKeys, sortValueOf } from '../../src/store/embedded/ordered-keys.js';
import { compareValues } from '../../src/store/embedded/sort-order.js';

/** Keys of every kind of value, as an index holds them (several thousand, so that blocks split). */
function keysOfManyKinds(count: number): string[] {
  const keys = new Set<string>(['null', 'a:[]', 'b:0', 'b:1', encodeValue(''), encodeValue({ x: 1 }), encodeValue({ a: 'b' }), encodeValue(['a']), encodeValue([1, 2])]);
  let seed = 3;
  for (let i = 0; i < count; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const value = [seed % 1000 - 500, (seed % 977) / 7, `s${seed % 1500}`, new Date(seed * 1000).toISOString(), -0, 1e21][i % 6];
    keys.add(encodeValue(value));
  }
  return [...keys];
}

/** The reference order: the generic comparison of the decoded values, ties by key text. */
const reference = (keys: string[]): string[] =>
  [...keys].sort((a, b) => compareValues(sortValueOf(a), sortValueOf(b)) || (a < b ? -1 : a > b ? 1 : 0));

const walk = (ordered: OrderedKeys, direction: 1 | -1, from?: unknown): string[] => Array.from(ordered.inOrder(direction, from), (entry) => entry.key);

describe('ordered index keys', () => {
  const keys = keysOfManyKinds(4000);

  it('orders keys as the generic comparison does, built at once or one by one', () => {
    const expected = reference(keys);
    expect(walk(new OrderedKeys(keys), 1)).toEqual(expected);
    const incremental = new OrderedKeys([]);
    for (const key of keys) incremental.insert(key);
    expect(walk(incremental, 1)).toEqual(expected);
    expect(walk(incremental, -1)).toEqual([...expected].reverse());
    expect([...keys].sort(compareKeys)).toEqual(expected);
  });

  it('keeps the order through removals and insertions, dropping emptied blocks', () => {
    const ordered = new OrderedKeys(keys);
    const removed = keys.filter((_, i) => i % 3 !== 0);
    for (const key of removed) ordered.delete(key);
    ordered.delete('s:not there');
    ordered.insert(keys[0]!);
    const kept = keys.filter((_, i) => i % 3 === 0);
    expect(walk(ordered, 1)).toEqual(reference(kept));
    for (const key of removed.slice(0, 500)) ordered.insert(key);
    expect(walk(ordered, -1)).toEqual(reference([...kept, ...removed.slice(0, 500)]).reverse());
  });

  it.each([null, -500, 0, 3.5, 1e21, 's1', '', '2001', { x: 1 }, ['a'], false, true])('walks from %p in both directions', (from) => {
    const ordered = new OrderedKeys(keys);
    const sorted = reference(keys);
    expect(walk(ordered, 1, from)).toEqual(sorted.filter((key) => compareValues(sortValueOf(key), from) >= 0));
    expect(walk(ordered, -1, from)).toEqual(sorted.filter((key) => compareValues(sortValueOf(key), from) <= 0).reverse());
  });

  it('walks nothing when empty', () => {
    expect(walk(new OrderedKeys([]), 1, 5)).toEqual([]);
    expect(walk(new OrderedKeys([]), -1)).toEqual([]);
  });
});
