import { compareBySort, compareValues } from '../../src/query/sort-compare.js';

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

describe('compareValues: the sign of MongoDB\'s order for two stored values', () => {
  test.each<[string, unknown, unknown, -1 | 0 | 1]>([
    ['missing equals null', undefined, null, 0],
    ['null before a number', null, 0, -1],
    ['a number after missing', 0, undefined, 1],
    ['numbers', 2, 10, -1],
    ['numbers, the larger first', 10, 2, 1],
    ['a positive number after a negative one', 1, -5, 1],
    ['equal numbers', 3, 3, 0],
    ['a number before a string', 99, '1', -1],
    ['strings', 'a', 'b', -1],
    ['strings, the larger first', 'b', 'a', 1],
    ['strings compare by code unit, not length', 'b', 'ab', 1],
    ['equal strings', 'a', 'a', 0],
    ['a string before an object', 'z', { a: 1 }, -1],
    ['an object before an array', { a: 1 }, ['a'], -1],
    ['an array after an object', ['a'], { a: 1 }, 1],
    ['an array before a boolean', ['a'], false, -1],
    ['a boolean after an array', false, ['a'], 1],
    ['false before true', false, true, -1],
    ['true after false', true, false, 1],
    ['equal booleans', true, true, 0],
    ['a boolean before any other kind of value', true, 1n, -1],
    ['any other kind of value after a boolean', 1n, false, 1],
    ['two objects are not told apart', { a: 1 }, { a: 2 }, 0],
    ['two arrays are not told apart (no list field is orderable)', ['b'], ['a'], 0],
    ['two arrays of numbers neither', [2], [1], 0],
  ])('%s', (_name, a, b, sign) => {
    expect(Math.sign(compareValues(a, b))).toBe(sign);
  });
});

describe('compareBySort: the first key that differs decides, in its direction', () => {
  test.each<[string, Record<string, unknown>, Record<string, unknown>, Record<string, 1 | -1>, -1 | 0 | 1]>([
    ['ascending', { n: 1 }, { n: 2 }, { n: 1 }, -1],
    ['descending', { n: 1 }, { n: 2 }, { n: -1 }, 1],
    ['a tie on the first key: the second decides', { n: 1, m: 'b' }, { n: 1, m: 'a' }, { n: -1, m: 1 }, 1],
    ['a tie on the first key, the second descending', { n: 1, m: 'b' }, { n: 1, m: 'a' }, { n: 1, m: -1 }, -1],
    ['the first key decides before the second', { n: 2, m: 'a' }, { n: 1, m: 'b' }, { n: 1, m: 1 }, 1],
    ['null last ascending', { n: null }, { n: 1 }, { n: 1 }, 1],
    ['null last descending', { n: 1 }, { n: null }, { n: -1 }, -1],
    ['missing last descending', {}, { n: 1 }, { n: -1 }, 1],
    ['two nulls tie, the next key decides', { n: null, _id: 'a' }, { _id: 'b' }, { n: 1, _id: 1 }, -1],
    ['all keys equal', { n: 1, _id: 'a' }, { n: 1, _id: 'a' }, { n: 1, _id: 1 }, 0],
    ['no keys', { n: 1 }, { n: 2 }, {}, 0],
  ])('%s', (_name, a, b, sort, sign) => {
    expect(Math.sign(compareBySort(a, b, sort))).toBe(sign);
  });
});
