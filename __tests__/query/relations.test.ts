import { QueryArgumentError } from '../../src/query/errors.js';
import {
  childIdsByParent,
  cutToFirstChildren,
  derivedRelationPipeline,
  isIdOrder,
  pagePerParent,
  readGroupedRelation,
  readRelationAggregates,
  relationAggregatePipeline,
  storedRelationQueries,
} from '../../src/query/relations.js';
import type { StoredDocument } from '../../src/store/port.js';
import { f, model, pair, schemaModel } from './fixtures.js';

function schemaModelWithSingleDerived() {
  const holder = pair(['Passport', 'holder'], ['Person', 'passport']);
  return schemaModel([
    { name: 'Person', fields: [f('id', 'ID!'), f('passport', 'Passport', holder.derived)] },
    { name: 'Passport', fields: [f('id', 'ID!'), f('holder', 'Person', { ...holder.stored, hasInverse: 'passport' })] },
  ]);
}

describe('stored list pages in the default order: only the first ids are read', () => {
  const friends = model.types.get('User')!.fieldsByName.get('friends')!;
  test.each<[string, Record<string, unknown>, { skip: number; limit: number }, unknown]>([
    ['the first skip + limit distinct ids in id order', { _id: 'u1', friends: ['u9', 'u3', 'u7', 'u3', 'u1'] }, { skip: 1, limit: 2 }, ['u1', 'u3', 'u7']],
    ['all of a shorter list', { _id: 'u1', friends: ['u2'] }, { skip: 0, limit: 10 }, ['u2']],
    ['none for first: 0', { _id: 'u1', friends: ['u2', 'u3'] }, { skip: 0, limit: 0 }, []],
    ['none for a parent without the field', { _id: 'u1' }, { skip: 0, limit: 3 }, []],
  ])('%s', (_name, parent, page, expected) => {
    expect(cutToFirstChildren(friends, [parent], page)).toEqual([{ ...parent, friends: expected }]);
  });

  test.each<[Record<string, 1 | -1>, boolean]>([
    [{ _id: 1 }, true],
    [{ _id: -1 }, false],
    [{ _id: 1, age: 1 }, false],
    [{ age: 1, _id: 1 }, false],
    [{}, false],
  ])('isIdOrder(%j) is %s', (sort, expected) => {
    expect(isIdOrder(sort)).toBe(expected);
  });
});

describe('stored relations: one find per target collection', () => {
  test('single: the ids the parents hold, with the field filter', () => {
    const parents = [{ _id: 't1', user: 'u1' }, { _id: 't2', user: 'u2' }, { _id: 't3', user: 'u1' }, { _id: 't4' }];
    expect(storedRelationQueries(model, 'Task', 'user', parents, { filter: { age: { gt: 20 } } })).toEqual([
      { collection: 'User', plan: { lookups: [], match: { _id: { $in: ['u1', 'u2'] }, age: { $gt: 20 } } }, sort: { _id: 1 } },
    ]);
  });

  test('list: all child ids of all parents, filter and order', () => {
    const parents = [{ _id: 'u1', friends: ['u2', 'u3'] }, { _id: 'u2', friends: ['u3'] }, { _id: 'u3' }];
    expect(storedRelationQueries(model, 'User', 'friends', parents, { filter: { name: { ge: 'B' } }, order: { desc: 'age' }, first: 1 })).toEqual([
      { collection: 'User', plan: { lookups: [], match: { _id: { $in: ['u2', 'u3'] }, name: { $gte: 'B' } } }, sort: { age: -1, _id: 1 } },
    ]);
  });

  test('a filter on the same key as the constraint is ANDed, not merged away', () => {
    const [query] = storedRelationQueries(model, 'User', 'friends', [{ _id: 'u1', friends: ['u2'] }], { filter: { id: ['u9'] } });
    expect(query.plan.match).toEqual({ $and: [{ _id: { $in: ['u2'] } }, { _id: { $in: ['u9'] } }] });
  });

  test('a relation to an interface gives one query per implementing type', () => {
    const parents = [{ _id: 'u1', favourites: ['b1', 'm1'] }];
    expect(storedRelationQueries(model, 'User', 'favourites', parents, { order: { asc: 'label' } })).toEqual([
      { collection: 'Book', plan: { lookups: [], match: { _id: { $in: ['b1', 'm1'] } } }, sort: { label: 1, _id: 1 } },
      { collection: 'Movie', plan: { lookups: [], match: { _id: { $in: ['b1', 'm1'] } } }, sort: { label: 1, _id: 1 } },
    ]);
  });

  test('a derived relation is refused', () => {
    expect(() => storedRelationQueries(model, 'User', 'tasks', [], {})).toThrow('User.tasks is derived, load it with derivedRelationPipeline');
  });

  test('a field that is not a relation is refused', () => {
    expect(() => storedRelationQueries(model, 'User', 'name', [], {})).toThrow(QueryArgumentError);
  });
});

describe('pagePerParent', () => {
  const children: StoredDocument[] = [
    { _id: 'u4', age: 20 },
    { _id: 'u2', age: 40 },
    { _id: 'u3', age: 30 },
    { _id: 'u5' },
  ];
  const childIds = childIdsByParent(model.types.get('User')!.fieldsByName.get('friends')!, [
    { _id: 'u1', friends: ['u2', 'u3', 'u4', 'u9'] },
    { _id: 'u6', friends: ['u5', 'u3'] },
    { _id: 'u7' },
  ]);

  test.each<[string, Record<string, 1 | -1>, { skip: number; limit: number }, Record<string, string[]>]>([
    ['order by age desc, first 2', { age: -1, _id: 1 }, { skip: 0, limit: 2 }, { u1: ['u2', 'u3'], u6: ['u3', 'u5'], u7: [] }],
    ['offset 1', { age: -1, _id: 1 }, { skip: 1, limit: 10 }, { u1: ['u3', 'u4'], u6: ['u5'], u7: [] }],
    ['ascending: missing values last, as Dgraph orders', { age: 1, _id: 1 }, { skip: 0, limit: 10 }, { u1: ['u4', 'u3', 'u2'], u6: ['u3', 'u5'], u7: [] }],
    ['first 0', { _id: 1 }, { skip: 0, limit: 0 }, { u1: [], u6: [], u7: [] }],
  ])('%s', (_name, sort, page, expected) => {
    const pages = pagePerParent(childIds, children, sort, page);
    expect(Object.fromEntries([...pages].map(([parent, items]) => [parent, items.map((item) => item._id)]))).toEqual(expected);
  });
});

describe('derived relations: one grouped pipeline on the target collection', () => {
  test('inverse holds one id: match, sort, group by it, slice per parent', () => {
    expect(derivedRelationPipeline(model, 'User', 'tasks', ['u1', 'u2'], { filter: { completed: false }, order: { desc: 'priority' }, first: 2, offset: 1 })).toEqual({
      collection: 'Task',
      pipeline: [
        { $match: { user: { $in: ['u1', 'u2'] }, completed: { $eq: false } } },
        { $addFields: { __typename: 'Task' } },
        { $sort: { priority: -1, _id: 1 } },
        { $group: { _id: '$user', items: { $push: '$$ROOT' } } },
        { $project: { items: { $slice: ['$items', 1, 2] } } },
      ],
    });
  });

  test('an ascending order sorts a temporary null key first, so objects without a value come last', () => {
    expect(derivedRelationPipeline(model, 'User', 'tasks', ['u1'], { order: { asc: 'priority' } }).pipeline.slice(2, 4)).toEqual([
      { $addFields: { __null_priority: { $cond: [{ $eq: [{ $ifNull: ['$priority', null] }, null] }, 1, 0] } } },
      { $sort: { __null_priority: 1, priority: 1, _id: 1 } },
    ]);
  });

  test('inverse is a list: a copy per parent, matched again against the parents', () => {
    expect(derivedRelationPipeline(model, 'User', 'groups', ['u1'], {})).toEqual({
      collection: 'Group',
      pipeline: [
        { $match: { members: { $in: ['u1'] } } },
        { $addFields: { __typename: 'Group' } },
        { $sort: { _id: 1 } },
        { $addFields: { __parent: '$members' } },
        { $unwind: '$__parent' },
        { $match: { __parent: { $in: ['u1'] } } },
        { $group: { _id: '$__parent', items: { $push: '$$ROOT' } } },
        { $project: { items: { $slice: ['$items', 0, 1000] } } },
      ],
    });
  });

  test('target is an interface: every implementing collection, unioned before the sort', () => {
    expect(derivedRelationPipeline(model, 'User', 'items', ['u1'], { filter: { label: { eq: 'x' } }, first: 5 })).toEqual({
      collection: 'Book',
      pipeline: [
        { $match: { owner: { $in: ['u1'] }, label: { $eq: 'x' } } },
        { $addFields: { __typename: 'Book' } },
        { $unionWith: { coll: 'Movie', pipeline: [{ $match: { owner: { $in: ['u1'] }, label: { $eq: 'x' } } }, { $addFields: { __typename: 'Movie' } }] } },
        { $sort: { _id: 1 } },
        { $group: { _id: '$owner', items: { $push: '$$ROOT' } } },
        { $project: { items: { $slice: ['$items', 0, 5] } } },
      ],
    });
  });

  test('a filter needing a lookup: the parents first (indexed), then the equality lookup, then the match on it', () => {
    expect(derivedRelationPipeline(model, 'User', 'mentees', ['u1'], { filter: { has: ['tasks'] } }).pipeline.slice(0, 3)).toEqual([
      { $match: { mentor: { $in: ['u1'] } } },
      {
        $lookup: {
          from: 'Task',
          localField: '_id',
          foreignField: 'user',
          pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }],
          as: '__has_tasks',
        },
      },
      { $match: { '__has_tasks.0': { $exists: true } } },
    ]);
  });

  test('a single derived relation takes the first child', () => {
    const single = schemaModelWithSingleDerived();
    expect(derivedRelationPipeline(single, 'Person', 'passport', ['p1'], {}).pipeline).toEqual([
      { $match: { holder: { $in: ['p1'] } } },
      { $addFields: { __typename: 'Passport' } },
      { $sort: { _id: 1 } },
      { $group: { _id: '$holder', items: { $push: '$$ROOT' } } },
      { $project: { items: { $slice: ['$items', 0, 1] } } },
    ]);
  });

  test('first 0 gives empty pages without an invalid $slice', () => {
    const { pipeline } = derivedRelationPipeline(model, 'User', 'tasks', ['u1'], { first: 0 });
    expect(pipeline[pipeline.length - 1]).toEqual({ $project: { items: { $literal: [] } } });
  });

  test('a stored relation is refused', () => {
    expect(() => derivedRelationPipeline(model, 'Group', 'members', ['g1'])).toThrow('Group.members is stored on Group, load it with storedRelationQueries');
  });

  test('page limits apply per parent', () => {
    expect(() => derivedRelationPipeline(model, 'User', 'tasks', ['u1'], { first: 10001 })).toThrow('first must be at most 10000');
  });

  test('readGroupedRelation: each parent its items without temporary fields; [] when none', () => {
    const rows = [{ _id: 'u1', items: [{ _id: 'g1', members: ['u1', 'u2'], __typename: 'Group', __parent: 'u1', __has_members: [] }] }];
    expect(readGroupedRelation(rows, ['u1', 'u2'])).toEqual(new Map([
      ['u1', [{ _id: 'g1', members: ['u1', 'u2'], __typename: 'Group' }]],
      ['u2', []],
    ]));
  });
});

describe('<relation>Aggregate', () => {
  test('derived: grouped per parent on the target collection', () => {
    expect(relationAggregatePipeline(model, 'User', 'tasks', [{ _id: 'u1' }, { _id: 'u2' }], { completed: true }, ['count', 'priorityMax'])).toEqual({
      collection: 'Task',
      pipeline: [
        { $match: { user: { $in: ['u1', 'u2'] }, completed: { $eq: true } } },
        { $group: { _id: '$user', count: { $sum: 1 }, priorityMax: { $max: '$priority' } } },
      ],
    });
  });

  test('derived with a list inverse: unwound per parent first', () => {
    expect(relationAggregatePipeline(model, 'User', 'groups', [{ _id: 'u1' }], null, ['count'])).toEqual({
      collection: 'Group',
      pipeline: [
        { $match: { members: { $in: ['u1'] } } },
        { $addFields: { __parent: '$members' } },
        { $unwind: '$__parent' },
        { $match: { __parent: { $in: ['u1'] } } },
        { $group: { _id: '$__parent', count: { $sum: 1 } } },
      ],
    });
  });

  test('stored list: on the target collection, the children of all parents, a copy per parent holding it, grouped', () => {
    const parents = [{ _id: 'g1', members: ['u1', 'u2'] }, { _id: 'g2', members: ['u2'] }, { _id: 'g3' }];
    expect(relationAggregatePipeline(model, 'Group', 'members', parents, { age: { ge: 18 } }, ['count', 'ageAvg', 'ageSum'])).toEqual({
      collection: 'User',
      pipeline: [
        { $match: { _id: { $in: ['u1', 'u2'] }, age: { $gte: 18 } } },
        {
          $addFields: {
            __parent: {
              $map: {
                input: {
                  $filter: {
                    input: { $literal: [{ parent: 'g1', children: ['u1', 'u2'] }, { parent: 'g2', children: ['u2'] }, { parent: 'g3', children: [] }] },
                    as: 'link',
                    cond: { $in: ['$_id', '$$link.children'] },
                  },
                },
                as: 'link',
                in: '$$link.parent',
              },
            },
          },
        },
        { $unwind: '$__parent' },
        { $group: { _id: '$__parent', count: { $sum: 1 }, ageAvg: { $avg: '$age' }, ageSum: { $sum: '$age' }, __ageAvg: { $avg: '$age' } } },
      ],
    });
  });

  test('stored list to an interface: every implementing collection, unioned', () => {
    const { collection, pipeline } = relationAggregatePipeline(model, 'User', 'favourites', [{ _id: 'u1', favourites: ['b1', 'm1'] }], null, ['count']);
    expect(collection).toBe('Book');
    expect(pipeline.slice(0, 2)).toEqual([
      { $match: { _id: { $in: ['b1', 'm1'] } } },
      { $unionWith: { coll: 'Movie', pipeline: [{ $match: { _id: { $in: ['b1', 'm1'] } } }] } },
    ]);
  });

  test('a single relation has no aggregate', () => {
    expect(() => relationAggregatePipeline(model, 'Task', 'user', [{ _id: 't1' }], null, ['count'])).toThrow('Task.user is not a list, so it has no userAggregate');
  });

  test('readRelationAggregates: every parent gets a result, count 0 and nulls when nothing matched', () => {
    const rows = [{ _id: 'u1', count: 2, priorityMax: 5 }];
    expect(readRelationAggregates(rows, ['u1', 'u2'], ['count', 'priorityMax'])).toEqual(new Map([
      ['u1', { count: 2, priorityMax: 5 }],
      ['u2', { count: 0, priorityMax: null }],
    ]));
  });
});
