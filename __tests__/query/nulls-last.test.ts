import { aggregate } from 'mingo';
import { nullsLastPage, nullsLastSort, sortsNullsLastNatively } from '../../src/query/nulls-last.js';
import type { SortSpec } from '../../src/store/port.js';

/** `field` null or missing → 1, else 0: the key sorted just before an ascending field. */
const nullKey = (field: string): Record<string, unknown> => ({ $cond: [{ $eq: [{ $ifNull: [`$${field}`, null] }, null] }, 1, 0] });

describe('sortsNullsLastNatively: only ascending fields other than _id need help', () => {
  test.each<[SortSpec, boolean]>([
    [{ _id: 1 }, true],
    [{ _id: -1 }, true],
    [{ n: -1, _id: 1 }, true],
    [{ n: 1, _id: 1 }, false],
    [{ n: -1, m: 1, _id: 1 }, false],
    [{}, true],
  ])('%j → %s', (sort, expected) => {
    expect(sortsNullsLastNatively(sort)).toBe(expected);
  });
});

describe('nullsLastSort', () => {
  test.each<[string, SortSpec, ReturnType<typeof nullsLastSort>]>([
    ['by _id only: the sort as it is', { _id: 1 }, { sortStages: [{ $sort: { _id: 1 } }], dropStages: [] }],
    ['descending only: the sort as it is', { n: -1, _id: 1 }, { sortStages: [{ $sort: { n: -1, _id: 1 } }], dropStages: [] }],
    ['an ascending field gets its key just before it', { n: 1, _id: 1 }, {
      sortStages: [{ $addFields: { __null_n: nullKey('n') } }, { $sort: { __null_n: 1, n: 1, _id: 1 } }],
      dropStages: [{ $unset: ['__null_n'] }],
    }],
    ['mixed directions: keys only for the ascending fields, in place', { a: -1, b: 1, c: -1, d: 1, _id: -1 }, {
      sortStages: [
        { $addFields: { __null_b: nullKey('b'), __null_d: nullKey('d') } },
        { $sort: { a: -1, __null_b: 1, b: 1, c: -1, __null_d: 1, d: 1, _id: -1 } },
      ],
      dropStages: [{ $unset: ['__null_b', '__null_d'] }],
    }],
    ['a nested path: every dot becomes _ in the key', { 'a.b.c': 1, _id: 1 }, {
      sortStages: [{ $addFields: { __null_a_b_c: nullKey('a.b.c') } }, { $sort: { __null_a_b_c: 1, 'a.b.c': 1, _id: 1 } }],
      dropStages: [{ $unset: ['__null_a_b_c'] }],
    }],
  ])('%s', (_name, sort, expected) => {
    expect(nullsLastSort(sort)).toEqual(expected);
  });
});

describe('nullsLastPage', () => {
  const keyed = { $addFields: { __null_n: nullKey('n') } };
  test.each<[string, SortSpec, number | undefined, number | undefined, unknown[]]>([
    ['no skip, no limit', { _id: 1 }, undefined, undefined, [{ $sort: { _id: 1 } }]],
    ['skip 0 and limit 0 add no stage', { _id: 1 }, 0, 0, [{ $sort: { _id: 1 } }]],
    ['skip 1 and limit 1', { _id: 1 }, 1, 1, [{ $sort: { _id: 1 } }, { $skip: 1 }, { $limit: 1 }]],
    ['keys dropped after the page', { n: 1, _id: 1 }, 2, 3, [keyed, { $sort: { __null_n: 1, n: 1, _id: 1 } }, { $skip: 2 }, { $limit: 3 }, { $unset: ['__null_n'] }]],
  ])('%s', (_name, sort, skip, limit, expected) => {
    expect(nullsLastPage(sort, skip, limit)).toEqual(expected);
  });

  test('run by mingo: nulls and missing values last in both directions, keys removed', () => {
    const documents = [{ _id: 'a', n: 3 }, { _id: 'b', n: null }, { _id: 'c', n: 1 }, { _id: 'd' }, { _id: 'e', n: 2 }];
    const ids = (sort: SortSpec, skip?: number, limit?: number) => aggregate(documents, nullsLastPage(sort, skip, limit)).map((document) => document._id);
    expect(ids({ n: 1, _id: 1 })).toEqual(['c', 'e', 'a', 'b', 'd']);
    expect(ids({ n: -1, _id: 1 })).toEqual(['a', 'e', 'c', 'b', 'd']);
    expect(ids({ n: 1, _id: 1 }, 2, 2)).toEqual(['a', 'b']);
    expect(aggregate(documents, nullsLastPage({ n: 1, _id: 1 }, 0, 1))).toEqual([{ _id: 'c', n: 1 }]);
  });
});
