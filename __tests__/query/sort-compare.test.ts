import { compareBySort } from '../../src/query/sort-compare.js';

describe('compareBySort orders like MongoDB, but with nulls last as Dgraph does', () => {
  const values: unknown[] = [true, ['a'], { a: 1 }, 'b', 'a', 10, 2, null];

  test('ascending: numbers, strings, objects, arrays, booleans, then missing/null', () => {
    const sorted = values.map((v) => ({ v })).sort((a, b) => compareBySort(a, b, { v: 1 })).map((doc) => doc.v);
    expect(sorted).toEqual([2, 10, 'a', 'b', { a: 1 }, ['a'], true, null]);
  });

  test('descending reverses the values, nulls still last; later keys break ties', () => {
    const docs = [{ _id: 'c', n: 1 }, { _id: 'e', n: null }, { _id: 'a', n: 2 }, { _id: 'b', n: 1 }, { _id: 'd' }];
    expect(docs.sort((a, b) => compareBySort(a, b, { n: -1, _id: 1 })).map((doc) => doc._id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  test('a null on a later key sorts last among the ties of the earlier ones', () => {
    const docs = [{ _id: 'a', n: 1 }, { _id: 'b', n: 1, m: 5 }, { _id: 'c', n: 0 }];
    expect(docs.sort((a, b) => compareBySort(a, b, { n: 1, m: 1, _id: 1 })).map((doc) => doc._id)).toEqual(['c', 'b', 'a']);
  });

  test('booleans: false before true', () => {
    expect(compareBySort({ v: false }, { v: true }, { v: 1 })).toBeLessThan(0);
  });
});
