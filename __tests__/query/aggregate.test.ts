import { aggregateOutputs, aggregateProjection, aggregateResultOf, aggregateRowOf, compileAggregate, readAggregateResult } from '../../src/query/aggregate.js';
import { expectArgumentError } from './argument-error.js';
import { QueryArgumentError } from '../../src/query/errors.js';
import { compileFilter } from '../../src/query/filter.js';
import { model } from './fixtures.js';

const noFilter = { lookups: [], match: {} };

describe('compileAggregate', () => {
  test.each<[string, string[], Record<string, unknown>]>([
    ['count only', ['count'], { _id: null, count: { $sum: 1 } }],
    ['__typename is ignored', ['__typename', 'count'], { _id: null, count: { $sum: 1 } }],
    ['Min/Max of a String', ['titleMin', 'titleMax'], { _id: null, titleMin: { $min: '$title' }, titleMax: { $max: '$title' } }],
    ['Min/Max of a DateTime', ['dueMin', 'dueMax'], { _id: null, dueMin: { $min: '$due' }, dueMax: { $max: '$due' } }],
    ['Avg of an Int', ['priorityAvg'], { _id: null, priorityAvg: { $avg: '$priority' } }],
    ['Sum computes a hidden average to tell "no values" from 0', ['scoreSum'], { _id: null, scoreSum: { $sum: '$score' }, __scoreAvg: { $avg: '$score' } }],
    ['Int64 Sum and Min', ['sizeSum', 'sizeMin'], { _id: null, sizeSum: { $sum: '$size' }, __sizeAvg: { $avg: '$size' }, sizeMin: { $min: '$size' } }],
    ['nothing requested still gives one row', [], { _id: null }],
  ])('%s', (_name, requested, group) => {
    expect(compileAggregate(model, 'Task', noFilter, requested)).toEqual([{ $group: group }]);
  });

  test('the filter runs first: lookups, then $match', () => {
    const plan = compileFilter(model, 'User', { has: ['tasks'], age: { gt: 20 } });
    expect(compileAggregate(model, 'User', plan, ['count', 'ageMax'])).toEqual([
      ...plan.lookups,
      { $match: { '__has_tasks.0': { $exists: true }, age: { $gt: 20 } } },
      { $group: { _id: null, count: { $sum: 1 }, ageMax: { $max: '$age' } } },
    ]);
  });

  test.each<[string, string]>([
    ['completedMin', 'TaskAggregateResult has no field "completedMin"'],
    ['titleSum', 'TaskAggregateResult has no field "titleSum"'],
    ['dueAvg', 'TaskAggregateResult has no field "dueAvg"'],
    ['tagsMin', 'TaskAggregateResult has no field "tagsMin"'],
    ['idMax', 'TaskAggregateResult has no field "idMax"'],
    ['total', 'TaskAggregateResult has no field "total"'],
  ])('%s is refused', (name, message) => {
    expect(() => compileAggregate(model, 'Task', noFilter, [name])).toThrow(QueryArgumentError);
    expect(() => compileAggregate(model, 'Task', noFilter, [name])).toThrow(message);
  });
});

describe('readAggregateResult', () => {
  const requested = ['__typename', 'count', 'priorityMin', 'prioritySum', 'priorityAvg'];

  test('nothing matched: count 0 and nulls', () => {
    expect(readAggregateResult([], requested)).toEqual({ count: 0, priorityMin: null, prioritySum: null, priorityAvg: null });
  });

  test('values from the row; only the requested ones', () => {
    expect(readAggregateResult([{ _id: null, count: 3, priorityMin: 1, prioritySum: 6, __priorityAvg: 2, priorityAvg: 2 }], requested))
      .toEqual({ count: 3, priorityMin: 1, prioritySum: 6, priorityAvg: 2 });
  });

  test('documents matched but none had the field: Sum is null, not 0', () => {
    expect(readAggregateResult([{ _id: null, count: 2, priorityMin: null, prioritySum: 0, __priorityAvg: null, priorityAvg: null }], requested))
      .toEqual({ count: 2, priorityMin: null, prioritySum: null, priorityAvg: null });
  });
});

describe('aggregateRowOf (what the $group of compileAggregate gives, folded in JavaScript)', () => {
  const rows = [
    { _id: 'a', priority: 3, score: 1.5, title: 'b', due: '2024-02-01T00:00:00.000Z' },
    { _id: 'b', priority: null, score: 2.25, title: 'a' },
    { _id: 'c', priority: 7, title: 'c', due: '2023-12-31T00:00:00.000Z' },
    { _id: 'd', score: -1 },
  ];
  test.each<[string, string[], Array<Record<string, unknown>>, Record<string, unknown> | undefined]>([
    ['count', ['count'], rows, { count: 4 }],
    ['Min/Max skip null and missing', ['priorityMin', 'priorityMax', 'titleMin', 'titleMax', 'dueMin', 'dueMax'], rows,
      { priorityMin: 3, priorityMax: 7, titleMin: 'a', titleMax: 'c', dueMin: '2023-12-31T00:00:00.000Z', dueMax: '2024-02-01T00:00:00.000Z' }],
    ['Sum and Avg of the numbers only, with the hidden average', ['scoreSum', 'priorityAvg'], rows, { scoreSum: 2.75, __scoreAvg: 2.75 / 3, priorityAvg: 5 }],
    ['no values: Min, Max and Avg null, Sum 0 with a null hidden average', ['sizeMin', 'sizeSum', 'sizeAvg'], rows, { sizeMin: null, sizeSum: 0, __sizeAvg: null, sizeAvg: null }],
    ['no documents: no row', ['count', 'priorityMax'], [], undefined],
  ])('%s', (_name, requested, documents, expected) => {
    expect(aggregateRowOf(aggregateOutputs(model, 'Task', requested), documents)).toEqual(expected);
  });

  test('reads only the aggregated fields', () => {
    expect(aggregateProjection(aggregateOutputs(model, 'Task', ['count', 'scoreSum', 'titleMax']))).toEqual({ score: 1, title: 1 });
  });
});

describe('aggregateOutputs: every numeric kind sums and averages; names without a known suffix are refused', () => {
  test.each<[string, string[], unknown]>([
    ['Int Sum', ['prioritySum'], [{ name: 'prioritySum', operation: 'sum', path: 'priority' }, { name: '__priorityAvg', operation: 'avg', path: 'priority' }]],
    ['Int64 Avg', ['sizeAvg'], [{ name: 'sizeAvg', operation: 'avg', path: 'size' }]],
    ['Float Avg', ['scoreAvg'], [{ name: 'scoreAvg', operation: 'avg', path: 'score' }]],
    ['a name asked twice is computed once', ['count', 'titleMax', 'count', 'titleMax'], [{ name: 'count', operation: 'count' }, { name: 'titleMax', operation: 'max', path: 'title' }]],
    ['names starting with __ are skipped', ['__typename', '__scoreAvg'], []],
  ])('%s', (_name, requested, expected) => {
    expect(aggregateOutputs(model, 'Task', requested)).toEqual(expected);
  });

  test.each<[string, string]>([
    ['a field name with an unknown suffix', 'titleXyz'],
    ['a field name alone', 'title'],
    ['Sum of a DateTime', 'dueSum'],
    ['Avg of a String', 'titleAvg'],
    ['an empty name', ''],
  ])('%s is refused', (_name, requested) => {
    expectArgumentError(() => aggregateOutputs(model, 'Task', [requested]), `TaskAggregateResult has no field "${requested}"`);
  });
});

describe('aggregateResultOf: a Sum is null only when no value was summed', () => {
  test.each<[string, Record<string, unknown> | undefined, Record<string, unknown>]>([
    ['a row with values', { count: 2, prioritySum: 5, __priorityAvg: 2.5 }, { count: 2, prioritySum: 5 }],
    ['values that sum to 0 are 0, not null', { count: 2, prioritySum: 0, __priorityAvg: 0 }, { count: 2, prioritySum: 0 }],
    ['no value summed', { count: 2, prioritySum: 0, __priorityAvg: null }, { count: 2, prioritySum: null }],
    ['a presence without the sum itself', { count: 1, __priorityAvg: 3 }, { count: 1, prioritySum: null }],
    ['a sum without its presence is not trusted', { count: 1, prioritySum: 4 }, { count: 1, prioritySum: null }],
    ['a count that is not a number reads as 0', { count: '2', __priorityAvg: null }, { count: 0, prioritySum: null }],
  ])('%s', (_name, row, expected) => {
    expect(aggregateResultOf(row, ['count', 'prioritySum'])).toEqual(expected);
  });

  test('Min, Max and Avg: the row\'s value, or null', () => {
    expect(aggregateResultOf({ titleMin: 'a', priorityAvg: 0 }, ['titleMin', 'priorityAvg', 'titleMax'])).toEqual({ titleMin: 'a', priorityAvg: 0, titleMax: null });
  });
});

describe('aggregateRowOf: Min and Max in MongoDB\'s order over mixed values', () => {
  test.each<[string, unknown[], unknown, unknown]>([
    ['numbers', [5, -2, 9, 0], -2, 9],
    ['a single value is both', [4], 4, 4],
    ['the first value is the smallest', [1, 3, 2], 1, 3],
    ['the last value is the largest', [2, 1, 3], 1, 3],
    ['strings', ['pear', 'apple', 'zoo'], 'apple', 'zoo'],
    ['nulls and missing values are skipped', [null, 7, undefined, 3], 3, 7],
    ['only nulls: null', [null, undefined], null, null],
  ])('%s', (_name, values, min, max) => {
    const documents = values.map((priority, index) => ({ _id: `t${index}`, priority }));
    expect(aggregateRowOf(aggregateOutputs(model, 'Task', ['priorityMin', 'priorityMax']), documents)).toEqual({ priorityMin: min, priorityMax: max });
  });

  test('Sum and Avg skip what is not a number', () => {
    const documents = [{ _id: 'a', priority: 2 }, { _id: 'b', priority: '3' }, { _id: 'c', priority: null }, { _id: 'd', priority: 4 }];
    expect(aggregateRowOf(aggregateOutputs(model, 'Task', ['prioritySum', 'priorityAvg', 'count']), documents)).toEqual({ prioritySum: 6, __priorityAvg: 3, priorityAvg: 3, count: 4 });
  });
});
