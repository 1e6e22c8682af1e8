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
    ['two sets: sign bits, words only one set has', [[0, 31, 63, 64, 5000], [31, 63, 100, 4000]], 2],
  ] as Array<[string, number[][], number]>)('counts the positions in all sets: %s', (_, lists, expected) => {
    expect(PositionBitset.countInAll(lists.map((list) => new PositionBitset(list)))).toBe(expected);
  });
});

describe('members among given positions', () => {
  const set = new PositionBitset([0, 31, 32, 95, 4000]);
  it.each<[string, number[], number[]]>([
    ['none given', [], []],
    ['members and others, in the given order', [0, 1, 31, 32, 33, 95, 96], [0, 31, 32, 95]],
    ['the sign bit of a word', [31, 63, 95], [31, 95]],
    ['beyond the last word', [4000, 4001, 90000], [4000]],
    ['a deleted member', [95, 32], [95, 32]],
  ])('%s', (_label, positions, members) => {
    expect(set.among(positions)).toEqual(members);
    expect(set.countAmong(positions)).toBe(members.length);
  });

  it('leaves out a member once deleted', () => {
    const changing = new PositionBitset([3, 70]);
    changing.delete(70);
    expect(changing.among([3, 70])).toEqual([3]);
    expect(changing.countAmong([3, 70])).toBe(1);
  });
});
