import { Query } from 'mingo';
import { orderedFindPlan, runValueSplit, type FindCommand, type OrderedFindPlan } from '../../src/store/mongo/sorted-find.js';
import type { Filter, FindOptions, StoredDocument } from '../../src/store/port.js';

const nullKey = { __null_rank: { $cond: [{ $eq: [{ $ifNull: ['$rank', null] }, null] }, 1, 0] } };
const DONE = { done: true };

describe('orderedFindPlan: how a find with Dgraph order runs on MongoDB', () => {
  test.each<[string, Filter, FindOptions, OrderedFindPlan]>([
    ['no sort: a plain find', DONE, { limit: 5 }, { kind: 'find', command: { filter: DONE, limit: 5 } }],
    ['sort by _id only: a plain find', DONE, { sort: { _id: -1 }, skip: 0 }, { kind: 'find', command: { filter: DONE, sort: { _id: -1 }, skip: 0 } }],
    [
      'descending sorts nulls last natively: a plain find',
      DONE,
      { sort: { rank: -1, _id: 1 }, skip: 3, limit: 5, projection: { rank: 1 } },
      { kind: 'find', command: { filter: DONE, sort: { rank: -1, _id: 1 }, skip: 3, limit: 5, projection: { rank: 1 } } },
    ],
    [
      'ascending on one field: the documents with a value, then those without in _id order',
      DONE,
      { sort: { rank: 1, _id: 1 }, skip: 2, limit: 5 },
      {
        kind: 'split',
        withValue: { filter: { $and: [DONE, { rank: { $ne: null } }] }, sort: { rank: 1, _id: 1 }, skip: 2, limit: 5 },
        withoutValue: { filter: { $and: [DONE, { rank: null }] }, sort: { _id: 1 } },
      },
    ],
    [
      'empty filter: the value condition alone; then a descending field; a projection on both parts',
      {},
      { sort: { rank: 1, title: -1, _id: 1 }, limit: 0, projection: { rank: 1 } },
      {
        kind: 'split',
        withValue: { filter: { rank: { $ne: null } }, sort: { rank: 1, title: -1, _id: 1 }, projection: { rank: 1 } },
        withoutValue: { filter: { rank: null }, sort: { title: -1, _id: 1 }, projection: { rank: 1 } },
      },
    ],
    [
      'a second ascending field: the aggregation with a null key',
      DONE,
      { sort: { title: -1, rank: 1 }, skip: 2, limit: 5, projection: { rank: 1 } },
      {
        kind: 'aggregate',
        pipeline: [
          { $match: DONE },
          { $addFields: nullKey },
          { $sort: { title: -1, __null_rank: 1, rank: 1 } },
          { $skip: 2 },
          { $limit: 5 },
          { $unset: ['__null_rank'] },
          { $project: { rank: 1 } },
        ],
      },
    ],
  ])('%s', (_name, filter, options, expected) => {
    expect(orderedFindPlan(filter, options)).toEqual(expected);
  });
});

/** Runs the parts over documents in memory (mingo, as the embedded store), recording each command. */
function recordingRunner(documents: StoredDocument[]) {
  const commands: unknown[] = [];
  return {
    commands,
    find: async (command: FindCommand) => {
      commands.push({ find: command });
      let cursor = new Query(command.filter).find<StoredDocument>(documents);
      if (command.sort) cursor = cursor.sort(command.sort);
      if (command.skip) cursor = cursor.skip(command.skip);
      if (command.limit) cursor = cursor.limit(command.limit);
      return cursor.all();
    },
    count: async (filter: Filter) => {
      commands.push({ count: filter });
      return new Query(filter).find(documents).all().length;
    },
  };
}

describe('runValueSplit: skip and limit carried across the two parts', () => {
  const DOCUMENTS: StoredDocument[] = [
    { _id: 'a', rank: 3 },
    { _id: 'b', rank: null },
    { _id: 'c', rank: 1 },
    { _id: 'd' },
    { _id: 'e', rank: 2 },
    { _id: 'f', rank: 1 },
  ];
  const HAS = { rank: { $ne: null } };
  const NONE = { rank: null };
  const SORT = { rank: 1 as const, _id: 1 as const };

  test.each<[string, FindOptions, string[], unknown[]]>([
    ['the first part fills the page: no second read', { skip: 1, limit: 2 }, ['f', 'e'], [{ find: { filter: HAS, sort: SORT, skip: 1, limit: 2 } }]],
    [
      'a short first part: the rest of the page from the start of the second',
      { skip: 3, limit: 2 },
      ['a', 'b'],
      [{ find: { filter: HAS, sort: SORT, skip: 3, limit: 2 } }, { find: { filter: NONE, sort: { _id: 1 }, limit: 1 } }],
    ],
    [
      'no limit: every document, the second part whole',
      {},
      ['c', 'f', 'e', 'a', 'b', 'd'],
      [{ find: { filter: HAS, sort: SORT } }, { find: { filter: NONE, sort: { _id: 1 } } }],
    ],
    [
      'a skip past every value: counted, and the remainder skipped in the second part',
      { skip: 5, limit: 5 },
      ['d'],
      [{ find: { filter: HAS, sort: SORT, skip: 5, limit: 5 } }, { count: HAS }, { find: { filter: NONE, sort: { _id: 1 }, skip: 1, limit: 5 } }],
    ],
    [
      'a skip ending exactly at the last value: counted, nothing skipped after',
      { skip: 4 },
      ['b', 'd'],
      [{ find: { filter: HAS, sort: SORT, skip: 4 } }, { count: HAS }, { find: { filter: NONE, sort: { _id: 1 } } }],
    ],
    [
      'a skip past everything: empty',
      { skip: 9, limit: 3 },
      [],
      [{ find: { filter: HAS, sort: SORT, skip: 9, limit: 3 } }, { count: HAS }, { find: { filter: NONE, sort: { _id: 1 }, skip: 5, limit: 3 } }],
    ],
  ])('%s', async (_name, window, expectedIds, expectedCommands) => {
    const plan = orderedFindPlan({}, { sort: SORT, ...window });
    if (plan.kind !== 'split') throw new Error(`expected a split plan, got ${plan.kind}`);
    const runner = recordingRunner(DOCUMENTS);
    const page = await runValueSplit(plan, runner);
    expect(page.map((document) => document._id)).toEqual(expectedIds);
    expect(runner.commands).toEqual(expectedCommands);
  });
});
