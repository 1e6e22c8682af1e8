import { aggregate } from 'mingo';
import { countGroup, groupAll } from '../../src/store/embedded/group-all.js';

/** Rows whose field `v` holds `values` in turn (`undefined`: the field is missing). */
function rowsWith(values: unknown[]): Array<Record<string, unknown>> {
  return values.map((value, i) => (value === undefined ? { _id: `r${i}`, n: i } : { _id: `r${i}`, n: i, v: value }));
}

const ALL_ACCUMULATORS = {
  $group: {
    _id: null,
    count: { $sum: 1 },
    twice: { $sum: 2 },
    total: { $sum: '$v' },
    average: { $avg: '$v' },
    smallest: { $min: '$v' },
    largest: { $max: '$v' },
    missing: { $max: '$nowhere' },
    index: { $avg: '$n' },
  },
};

describe('groupAll (the embedded store computing { $group: { _id: null } } itself)', () => {
  const datasets: Record<string, unknown[]> = {
    'integers and fractions': [3, 1.5, -2, 7, 0, 7, 2.25],
    'both zeros': [0, -0, -0, 0],
    'negative zero first': [-0, 0],
    'numbers, null and missing': [null, 4, undefined, -1, null, 4],
    'only null and missing': [null, undefined, null],
    strings: ['b', 'a', 'B', '', 'a', 'ä', '2024-01-01T00:00:00.000Z'],
    'strings and null': [null, 'x', undefined, 'w'],
    'one row': [5],
  };

  it.each(Object.entries(datasets))('gives exactly what mingo gives for %s', (_name, values) => {
    const rows = rowsWith(values);
    const ours = groupAll(rows, ALL_ACCUMULATORS);
    expect(ours).toEqual(aggregate(rows, [ALL_ACCUMULATORS]));
  });

  it('gives no group for no rows, like mingo', () => {
    expect(groupAll([], ALL_ACCUMULATORS)).toEqual([]);
    expect(aggregate([], [ALL_ACCUMULATORS])).toEqual([]);
  });

  it('adds and averages only the numbers of mixed values, like mingo', () => {
    const rows = rowsWith([1, 'two', true, [3], { four: 4 }, null, 5.5, '6']);
    const stage = { $group: { _id: null, total: { $sum: '$v' }, average: { $avg: '$v' }, count: { $sum: 1 } } };
    expect(groupAll(rows, stage)).toEqual(aggregate(rows, [stage]));
    expect(groupAll(rows, stage)).toEqual([{ _id: null, total: 6.5, average: 3.25, count: 8 }]);
  });

  it('sums a fractional constant as mingo does', () => {
    const rows = rowsWith(Array.from({ length: 10 }, (_, i) => i));
    const stage = { $group: { _id: null, tenths: { $sum: 0.1 } } };
    expect(groupAll(rows, stage)).toEqual(aggregate(rows, [stage]));
  });

  it('leaves $min and $max of values of several types to mingo', () => {
    for (const values of [[1, 'a'], ['a', true], [1, [0]], [{ a: 1 }, 2], [false, true]]) {
      for (const operator of ['$min', '$max']) {
        expect(groupAll(rowsWith(values), { $group: { _id: null, m: { [operator]: '$v' } } })).toBeUndefined();
      }
    }
  });

  it('leaves every other $group to mingo', () => {
    const rows = rowsWith([1, 2]);
    const stages = [
      { $group: { _id: '$v', count: { $sum: 1 } } },
      { $group: { _id: null, first: { $first: '$v' } } },
      { $group: { _id: null, total: { $sum: '$v.w' } } },
      { $group: { _id: null, total: { $sum: '$$ROOT' } } },
      { $group: { _id: null, total: { $sum: '$constructor' } } },
      { $group: { _id: null, average: { $avg: 2 } } },
      { $group: { _id: null, total: { $sum: { $multiply: ['$v', 2] } } } },
      { $group: { _id: null, total: { $sum: '$v', $avg: '$v' } } },
      { $match: {} },
    ];
    for (const stage of stages) expect({ stage, result: groupAll(rows, stage) }).toEqual({ stage, result: undefined });
  });

  it.each([0, 1, 7, 10])('counts %i rows without reading them, exactly as mingo groups them', (count) => {
    const stage = { $group: { _id: null, count: { $sum: 1 }, tenths: { $sum: 0.1 }, none: { $sum: 0 } } };
    expect(countGroup(count, stage)).toEqual(aggregate(rowsWith(Array.from({ length: count }, () => 1)), [stage]));
  });

  it('does not count a group that reads a field or groups by one', () => {
    expect(countGroup(3, { $group: { _id: null, count: { $sum: 1 }, total: { $sum: '$v' } } })).toBeUndefined();
    expect(countGroup(3, { $group: { _id: '$v', count: { $sum: 1 } } })).toBeUndefined();
  });
});
