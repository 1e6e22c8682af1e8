import { aggregate } from 'mingo';
import { groupByKey } from '../../src/store/embedded/group-by-key.js';

const ACCUMULATORS = {
  count: { $sum: 1 },
  total: { $sum: '$v' },
  average: { $avg: '$v' },
  smallest: { $min: '$v' },
  largest: { $max: '$v' },
};

/** Sorted by key, since MongoDB promises no order of groups. */
const byKey = (rows: Array<Record<string, unknown>>) => [...rows].sort((a, b) => String(a._id).localeCompare(String(b._id)));

describe('groupByKey (the embedded store computing { $group: { _id: "$field" } } itself)', () => {
  const datasets: Record<string, Array<Record<string, unknown>>> = {
    'numbers under three keys': [
      { p: 'a', v: 3 }, { p: 'b', v: 1.5 }, { p: 'a', v: -2 }, { p: 'c', v: 7 }, { p: 'b', v: 0 }, { p: 'a', v: 7 },
    ],
    'null, missing values and a row without the key': [
      { p: 'a', v: null }, { p: 'a' }, { p: 'b', v: 4 }, { v: 9 }, { p: null, v: 1 }, { p: 'b', v: -1 },
    ],
    'strings (DateTime values)': [
      { p: 'x', v: '2024-03-01T00:00:00.000Z' }, { p: 'x', v: '2023-12-31T00:00:00.000Z' }, { p: 'y', v: 'b' }, { p: 'y', v: 'a' },
    ],
  };

  it.each(Object.entries(datasets))('gives exactly what mingo gives for %s', (_name, rows) => {
    const stage = { $group: { _id: '$p', ...ACCUMULATORS } };
    const ours = groupByKey(rows, stage);
    expect(ours).toBeDefined();
    expect(byKey(ours!)).toEqual(byKey(aggregate(rows, [stage]) as Array<Record<string, unknown>>));
  });

  it('computes each group separately', () => {
    const rows = [{ p: 'a', v: 1 }, { p: 'b', v: 10 }, { p: 'a', v: 3 }];
    expect(groupByKey(rows, { $group: { _id: '$p', ...ACCUMULATORS } })).toEqual([
      { _id: 'a', count: 2, total: 4, average: 2, smallest: 1, largest: 3 },
      { _id: 'b', count: 1, total: 10, average: 10, smallest: 10, largest: 10 },
    ]);
  });

  it.each([
    ['a key that is a number', [{ p: 1, v: 1 }], { _id: '$p', count: { $sum: 1 } }],
    ['a key that is an array', [{ p: ['a', 'b'], v: 1 }], { _id: '$p', count: { $sum: 1 } }],
    ['a dotted key', [{ p: { q: 'a' }, v: 1 }], { _id: '$p.q', count: { $sum: 1 } }],
    ['an expression as key', [{ p: 'a', v: 1 }], { _id: { $toUpper: '$p' }, count: { $sum: 1 } }],
    ['an accumulator it does not compute', [{ p: 'a', v: 1 }], { _id: '$p', all: { $push: '$v' } }],
    ['$min over values of several types', [{ p: 'a', v: 1 }, { p: 'a', v: 'x' }], { _id: '$p', low: { $min: '$v' } }],
  ])('leaves %s to mingo', (_name, rows, group) => {
    expect(groupByKey(rows as Array<Record<string, unknown>>, { $group: group })).toBeUndefined();
  });
});
