import { compareBySort } from '../../src/query/sort-compare.js';

describe('compareBySort orders like MongoDB', () => {
  const values: unknown[] = [true, ['a'], { a: 1 }, 'b', 'a', 10, 2, null];

  test('ascending: missing/null, numbers, strings, objects, arrays, booleans', () => {
    const sorted = values.map((v) => ({ v })).sort((a, b) => compareBySort(a, b, { v: 1 })).map((doc) => doc.v);
    expect(sorted).toEqual([null, 2, 10, 'a', 'b', { a: 1 }, ['a'], true]);
  });

  test('descending reverses; later keys break ties', () => {
    const docs = [{ _id: 'c', n: 1 }, { _id: 'a', n: 2 }, { _id: 'b', n: 1 }, { _id: 'd' }];
    expect(docs.sort((a, b) => compareBySort(a, b, { n: -1, _id: 1 })).map((doc) => doc._id)).toEqual(['a', 'b', 'c', 'd']);
  });

  test('booleans: false before true', () => {
    expect(compareBySort({ v: false }, { v: true }, { v: 1 })).toBeLessThan(0);
  });
});
