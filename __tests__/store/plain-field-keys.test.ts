import { indexKeysOf, plainFieldKeys } from '../../src/store/embedded/index-keys.js';

/**
 * plainFieldKeys, the index keys of a top-level field without the general path's key objects, against
 * the keys indexKeysOf gives for the same document: its own answers first, then the two side by side.
 */
const CASES: Array<[string, Record<string, unknown>, boolean, string | string[]]> = [
  ['a string', { f: 'a' }, false, 's:a'],
  ['an empty string', { f: '' }, false, 's:'],
  ['a number', { f: 3 }, false, 'n:3'],
  ['a negative fraction', { f: -1.5 }, false, 'n:-1.5'],
  ['true', { f: true }, false, 'b:1'],
  ['false', { f: false }, false, 'b:0'],
  ['null', { f: null }, false, 'null'],
  ['null in a sparse index', { f: null }, true, 'null'],
  ['a missing field', { g: 1 }, false, 'null'],
  ['a missing field in a sparse index', { g: 1 }, true, []],
  ['an embedded document', { f: { x: 'a' } }, false, 'o:{"x":"a"}'],
  ['an empty array', { f: [] }, false, ['a:[]']],
  ['an empty array in a sparse index', { f: [] }, true, ['a:[]']],
  ['an array of one', { f: ['a'] }, false, ['s:a']],
  ['an array with repeats', { f: ['a', 1, 'a', 1, true] }, false, ['s:a', 'n:1', 'b:1']],
  ['an array holding null and an array', { f: [null, ['a']] }, false, ['null', 'o:["a"]']],
  ['a string and a number that read alike', { f: ['1', 1] }, false, ['s:1', 'n:1']],
  ['a long array with repeats (the Set path)', { f: [...Array.from({ length: 20 }, (_, i) => `t${i % 10}`), 'u'] }, false, [...Array.from({ length: 10 }, (_, i) => `s:t${i}`), 's:u']],
];

describe('plainFieldKeys', () => {
  test.each(CASES)('%s', (_name, document, sparse, expected) => {
    expect(plainFieldKeys(document, 'f', sparse)).toEqual(expected);
  });

  test.each(CASES)('gives the keys indexKeysOf gives: %s', (_name, document, sparse) => {
    const keys = plainFieldKeys(document, 'f', sparse);
    const general = indexKeysOf(document, ['f'], sparse).map((keyed) => keyed.key);
    expect(typeof keys === 'string' ? [keys] : keys).toEqual(general);
  });
});
