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

  it('adds the weights of the keys in a run, whole blocks at a time, through adjustments and splits', () => {
    const numbers = Array.from({ length: 5000 }, (_, i) => encodeValue(i));
    const weights = new Map(numbers.map((key, i) => [key, 1 + (i % 4)]));
    const ordered = new OrderedKeys(numbers, undefined, (key) => weights.get(key) ?? 0);
    const sumBetween = (low: number, high: number) =>
      ordered.sumFrom(low, (key) => key === encodeValue(low), (key) => key.startsWith('n:') && Number(key.slice(2)) <= high);
    const expected = (low: number, high: number) => numbers.filter((_, i) => i > low && i <= high).reduce((sum, key) => sum + weights.get(key)!, 0);
    expect(sumBetween(10, 4000)).toBe(expected(10, 4000));
    for (let i = 0; i < 5000; i += 7) {
      weights.set(numbers[i]!, weights.get(numbers[i]!)! + 2);
      ordered.adjust(numbers[i]!, 2);
    }
    for (let i = 0; i < 5000; i += 5) {
      ordered.adjust(numbers[i]!, -weights.get(numbers[i]!)!);
      weights.delete(numbers[i]!);
      ordered.delete(numbers[i]!);
    }
    for (let i = 5000; i < 7000; i++) {
      numbers.push(encodeValue(i - 2500.5));
      weights.set(numbers[i]!, 3);
      ordered.insert(numbers[i]!);
    }
    const remaining = (low: number, high: number) =>
      [...weights].filter(([key]) => Number(key.slice(2)) > low && Number(key.slice(2)) <= high).reduce((sum, [, weight]) => sum + weight, 0);
    for (const [low, high] of [[10, 4000], [-1, 7000], [2000, 2000.5], [4999, 5000], [100, 50]]) {
      expect({ low, high, sum: sumBetween(low!, high!) }).toEqual({ low, high, sum: remaining(low!, high!) });
    }
  });
});
