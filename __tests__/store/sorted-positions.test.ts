import { includesSorted, insertSorted, intersectAll, removeSorted, unionAll } from '../../src/store/embedded/sorted-positions.js';

/** Ascending positions below `limit`, each taken with probability `density` (deterministic). */
function positions(seed: number, limit: number, density: number): number[] {
  let state = seed;
  const chosen: number[] = [];
  for (let position = 0; position < limit; position++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    if (state / 2 ** 32 < density) chosen.push(position);
  }
  return chosen;
}

const inAll = (lists: number[][]): number[] => lists[0]!.filter((position) => lists.every((list) => list.includes(position)));
const inAny = (lists: number[][]): number[] => [...new Set(lists.flat())].sort((a, b) => a - b);

describe('sorted positions', () => {
  const CASES: Array<[string, number[][]]> = [
    ['one list', [[1, 4, 9]]],
    ['disjoint', [[1, 3, 5], [2, 4, 6]]],
    ['an empty list', [[1, 2, 3], []]],
    ['a short list against a long one (galloping)', [[5, 777, 1500, 1999], positions(1, 2000, 0.6)]],
    ['similar lists', [positions(2, 3000, 0.5), positions(3, 3000, 0.5)]],
    ['three lists of different densities', [positions(4, 5000, 0.9), positions(5, 5000, 0.05), positions(6, 5000, 0.3)]],
    ['the last position only', [[0, 4999], positions(7, 5000, 0.2).concat([4999])]],
  ];

  it.each(CASES)('intersects and unites %s', (_, lists) => {
    expect([...intersectAll(lists)]).toEqual(inAll(lists));
    expect([...unionAll(lists)]).toEqual(inAny(lists));
  });

  it.each<[string, number[], number, boolean]>([
    ['empty', [], 0, false],
    ['the first', [3, 9, 12], 3, true],
    ['the last', [3, 9, 12], 12, true],
    ['between two members', [3, 9, 12], 10, false],
    ['below every member', [3, 9, 12], 1, false],
    ['beyond every member', [3, 9, 12], 13, false],
  ])('finds whether a list holds a position: %s', (_label, list, position, expected) => {
    expect(includesSorted(list, position)).toBe(expected);
  });

  it('inserts and removes keeping the order, without repeats', () => {
    const list = [2, 8];
    for (const position of [5, 1, 9, 5, 8]) insertSorted(list, position);
    expect(list).toEqual([1, 2, 5, 8, 9]);
    for (const position of [2, 3, 9]) removeSorted(list, position);
    expect(list).toEqual([1, 5, 8]);
  });
});
