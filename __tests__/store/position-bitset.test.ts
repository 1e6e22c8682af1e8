import { PositionBitset } from '../../src/store/embedded/position-bitset.js';

describe('position bitsets', () => {
  it('adds, deletes and grows past its first size', () => {
    const set = new PositionBitset([1, 31, 32, 100]);
    set.add(5000);
    set.delete(31);
    set.delete(99999);
    expect([0, 1, 31, 32, 100, 5000, 5001].map((position) => set.has(position))).toEqual([false, true, false, true, true, true, false]);
  });

  it.each([
    ['disjoint', [[0, 2, 4], [1, 3, 5]], 0],
    ['every bit of a word', [Array.from({ length: 64 }, (_, i) => i), Array.from({ length: 64 }, (_, i) => i)], 64],
    ['sign bit and shorter sets', [[31, 63, 95, 200], [31, 95], [31, 95, 300]], 2],
    ['one set', [[7, 8, 900]], 3],
  ] as Array<[string, number[][], number]>)('counts the positions in all sets: %s', (_, lists, expected) => {
    expect(PositionBitset.countInAll(lists.map((list) => new PositionBitset(list)))).toBe(expected);
  });
});
