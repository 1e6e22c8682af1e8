import { aggregateOutputs } from '../../src/query/aggregate.js';
import {
  childIdsOf,
  cutToFirstChildren,
  derivedRelationPipeline,
  derivedRelationQuery,
  foldStoredAggregates,
  pageDerivedChildren,
  pagePerParent,
  readGroupedRelation,
  relationAggregatePipeline,
  storedAggregateQueries,
  storedRelationQueries,
  type DerivedRelationQuery,
} from '../../src/query/relations.js';
import type { StoredDocument } from '../../src/store/port.js';
import { validModel } from '../sdl/helpers.js';
import { expectArgumentError } from './argument-error.js';
import { model } from './fixtures.js';

/** The relation loaders the other suites leave out: derived relations by `find`, stored aggregates folded in JavaScript, unions. */

const zoo = validModel(`
type Person { id: ID!  name: String  passport: Passport  pets: [Pet]  residents: [Resident]  ghosts: [Ghost] }
type Passport { id: ID!  number: String  holder: Person @hasInverse(field: passport) }
interface Pet { id: ID!  owner: Person @hasInverse(field: pets) }
type Cat implements Pet { lives: Int }
interface Ghost { id: ID!  haunts: String }
type Human { id: ID!  name: String @search(by: [exact])  age: Int }
type Droid { id: ID!  model: String @search(by: [exact]) }
union Resident = Human | Droid
`);

const usersField = (name: string) => model.types.get('User')!.fieldsByName.get(name)!;
const idsOf = (pages: Map<string, StoredDocument[]>): Record<string, string[]> =>
  Object.fromEntries([...pages].map(([parent, items]) => [parent, items.map((item) => item._id)]));

describe('derivedRelationQuery: a derived relation read with one find', () => {
  test('a list: filter AND the inverse field in the parents, in the field order, paged per parent', () => {
    expect(derivedRelationQuery(model, 'User', 'tasks', ['u1', 'u2'], { filter: { completed: false }, order: { desc: 'priority' }, first: 2, offset: 1 })).toEqual({
      collection: 'Task',
      plan: { lookups: [], match: { user: { $in: ['u1', 'u2'] }, completed: { $eq: false } } },
      childPlan: { lookups: [], match: { completed: { $eq: false } } },
      sort: { priority: -1, _id: 1 },
      parentPath: 'user',
      page: { skip: 1, limit: 2 },
    });
  });

  test('a list inverse: the parents are found in the list field', () => {
    expect(derivedRelationQuery(model, 'User', 'groups', ['u1'])).toEqual({
      collection: 'Group',
      plan: { lookups: [], match: { members: { $in: ['u1'] } } },
      childPlan: { lookups: [], match: {} },
      sort: { _id: 1 },
      parentPath: 'members',
      page: { skip: 0, limit: 1000 },
    });
  });

  test('a single relation: the first child, whatever order and page are given', () => {
    expect(derivedRelationQuery(zoo, 'Person', 'passport', ['p1'], { order: { desc: 'number' }, first: 5, offset: 2 })).toEqual({
      collection: 'Passport',
      plan: { lookups: [], match: { holder: { $in: ['p1'] } } },
      childPlan: { lookups: [], match: {} },
      sort: { _id: 1 },
      parentPath: 'holder',
      page: { skip: 0, limit: 1 },
    });
  });

  test('the page limits given apply', () => {
    expect(derivedRelationQuery(model, 'User', 'tasks', ['u1'], {}, { defaultPageSize: 7 })?.page).toEqual({ skip: 0, limit: 7 });
    expectArgumentError(() => derivedRelationQuery(model, 'User', 'tasks', ['u1'], { first: 11 }, { maxPageSize: 10 }), 'first must be at most 10, got 11');
  });

  test.each<[string, () => DerivedRelationQuery | undefined]>([
    ['an interface target (several collections)', () => derivedRelationQuery(model, 'User', 'items', ['u1'])],
    ['an interface target with one implementing type (children need their __typename)', () => derivedRelationQuery(zoo, 'Person', 'pets', ['p1'])],
    ['a filter with lookups', () => derivedRelationQuery(model, 'User', 'mentees', ['u1'], { filter: { has: ['tasks'] } })],
    ['an interface target nobody implements', () => derivedRelationQuery(validModel(`
type Person { id: ID!  ghosts: [Ghost] }
interface Ghost { id: ID!  haunted: Person @hasInverse(field: ghosts) }
`), 'Person', 'ghosts', ['p1'])],
  ])('no query, the pipeline is needed: %s', (_name, query) => {
    expect(query()).toBeUndefined();
  });

  test('a stored relation is refused', () => {
    expectArgumentError(() => derivedRelationQuery(model, 'Group', 'members', ['g1']), 'Group.members is stored on Group, load it with storedRelationQueries');
  });
});

describe('pageDerivedChildren: the find results, in order, paged per parent', () => {
  const query = (parentPath: string, skip: number, limit: number): DerivedRelationQuery => ({
    collection: 'Task',
    plan: { lookups: [], match: {} },
    childPlan: { lookups: [], match: {} },
    sort: { _id: 1 },
    parentPath,
    page: { skip, limit },
  });
  const children: StoredDocument[] = [
    { _id: 't5', user: 'u2' },
    { _id: 't1', user: 'u1' },
    { _id: 't3', user: 'u1' },
    { _id: 't4', user: 'u9' },
    { _id: 't2', user: 'u1' },
    { _id: 't6' },
  ];

  test.each<[string, number, number, Record<string, string[]>]>([
    ['everything, in the given order', 0, 10, { u1: ['t1', 't3', 't2'], u2: ['t5'], u3: [] }],
    ['offset 1, first 1', 1, 1, { u1: ['t3'], u2: [], u3: [] }],
    ['first 2', 0, 2, { u1: ['t1', 't3'], u2: ['t5'], u3: [] }],
    ['first 0', 0, 0, { u1: [], u2: [], u3: [] }],
  ])('%s', (_name, skip, limit, expected) => {
    expect(idsOf(pageDerivedChildren(query('user', skip, limit), children, ['u1', 'u2', 'u3']))).toEqual(expected);
  });

  test('a list inverse: a child under each parent it names once, non-ids ignored', () => {
    const groups: StoredDocument[] = [
      { _id: 'g1', members: ['u1', 'u2', 'u1'] },
      { _id: 'g2', members: ['u2', 7, null] },
      { _id: 'g3', members: 'u1' },
    ];
    expect(idsOf(pageDerivedChildren(query('members', 0, 10), groups, ['u1', 'u2']))).toEqual({ u1: ['g1', 'g3'], u2: ['g1', 'g2'] });
  });
});

describe('storedAggregateQueries and foldStoredAggregates: <relation>Aggregate of a stored list without a pipeline', () => {
  const members = model.types.get('Group')!.fieldsByName.get('members')!;

  test('one find per target collection, projected to the aggregated fields', () => {
    const parents = [{ _id: 'g1', members: ['u1', 'u2'] }, { _id: 'g2', members: ['u2', 'u3'] }];
    expect(storedAggregateQueries(model, 'Group', 'members', parents, { age: { ge: 18 } }, ['count', 'ageMax', 'ageSum'])).toEqual({
      queries: [{ collection: 'User', plan: { lookups: [], match: { _id: { $in: ['u1', 'u2', 'u3'] }, age: { $gte: 18 } } }, sort: { _id: 1 } }],
      projection: { age: 1 },
      outputs: [
        { name: 'count', operation: 'count' },
        { name: 'ageMax', operation: 'max', path: 'age' },
        { name: 'ageSum', operation: 'sum', path: 'age' },
        { name: '__ageAvg', operation: 'avg', path: 'age' },
      ],
    });
  });

  test('a single relation has no aggregate', () => {
    expectArgumentError(() => storedAggregateQueries(model, 'Task', 'user', [{ _id: 't1', user: 'u1' }], null, ['count']), 'Task.user is not a list, so it has no userAggregate');
  });

  test('an unknown aggregate field is refused', () => {
    expectArgumentError(() => storedAggregateQueries(model, 'Group', 'members', [], null, ['heightMax']), 'UserAggregateResult has no field "heightMax"');
  });

  test('folded per parent: a child held twice counts once, a child held by two parents counts for both', () => {
    const parents = [
      { _id: 'g1', members: ['u1', 'u2', 'u1'] },
      { _id: 'g2', members: ['u2', 'u3'] },
      { _id: 'g3', members: ['u9'] },
      { _id: 'g4' },
    ];
    const children: StoredDocument[] = [{ _id: 'u2', age: 40 }, { _id: 'u1', age: 20 }, { _id: 'u3' }];
    const outputs = aggregateOutputs(model, 'User', ['count', 'ageMin', 'ageSum', 'ageAvg']);
    expect(foldStoredAggregates(members, parents, children, outputs)).toEqual([
      { _id: 'g1', count: 2, ageMin: 20, ageSum: 60, __ageAvg: 30, ageAvg: 30 },
      { _id: 'g2', count: 2, ageMin: 40, ageSum: 40, __ageAvg: 40, ageAvg: 40 },
    ]);
  });

  test('a child no parent holds is left out', () => {
    const children: StoredDocument[] = [{ _id: 'u7', age: 70 }, { _id: 'u1', age: 20 }];
    expect(foldStoredAggregates(members, [{ _id: 'g1', members: ['u1'] }], children, aggregateOutputs(model, 'User', ['count', 'ageMax']))).toEqual([
      { _id: 'g1', count: 1, ageMax: 20 },
    ]);
  });

  test('no children read: no rows', () => {
    expect(foldStoredAggregates(members, [{ _id: 'g1', members: ['u1'] }], [], aggregateOutputs(model, 'User', ['count']))).toEqual([]);
  });
});

describe('stored relations to a union', () => {
  const parents = [{ _id: 'p1', residents: ['h1', 'd1'] }, { _id: 'p2', residents: ['h2'] }];

  test('one query per member, in creation order (a union has no order)', () => {
    expect(storedRelationQueries(zoo, 'Person', 'residents', parents, { filter: { humanFilter: { name: { eq: 'Leia' } } } })).toEqual([
      { collection: 'Human', plan: { lookups: [], match: { _id: { $in: ['h1', 'd1', 'h2'] }, name: { $eq: 'Leia' } } }, sort: { _id: 1 } },
      { collection: 'Droid', plan: { lookups: [], match: { _id: { $in: ['h1', 'd1', 'h2'] } } }, sort: { _id: 1 } },
    ]);
  });

  test('memberTypes leaves the other members unread', () => {
    expect(storedRelationQueries(zoo, 'Person', 'residents', parents, { filter: { memberTypes: ['Droid'] } }).map((query) => query.collection)).toEqual(['Droid']);
  });
});

describe('a relation to an interface nobody implements', () => {
  test('stored: no query at all', () => {
    expect(storedRelationQueries(zoo, 'Person', 'ghosts', [{ _id: 'p1', ghosts: ['x1'] }])).toEqual([]);
  });

  test('its aggregate: a pipeline on the interface\'s name that matches nothing', () => {
    expect(relationAggregatePipeline(zoo, 'Person', 'ghosts', [{ _id: 'p1', ghosts: ['x1'] }], null, ['count'])).toEqual({
      collection: 'Ghost',
      pipeline: [{ $match: { _id: { $in: [] } } }],
    });
  });
});

describe('child ids and pages of stored lists', () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    ['a list', { friends: ['u2', 'u3'] }, ['u2', 'u3']],
    ['duplicates kept, in stored order', { friends: ['u3', 'u2', 'u3'] }, ['u3', 'u2', 'u3']],
    ['values that are not ids dropped', { friends: ['u2', null, 7, { _id: 'u4' }] }, ['u2']],
    ['a single id', { friends: 'u5' }, ['u5']],
    ['missing', {}, []],
    ['null', { friends: null }, []],
  ])('childIdsOf: %s', (_name, parent, expected) => {
    expect(childIdsOf(usersField('friends'), parent)).toEqual(expected);
  });

  test('pagePerParent ranks positions as numbers (position 10 after 9) and counts a child listed twice once', () => {
    const children: StoredDocument[] = Array.from({ length: 12 }, (_, index) => ({ _id: `c${String(index).padStart(2, '0')}`, rank: index }));
    const childIds = new Map([['p', ['c10', 'c09', 'c02', 'c09', 'c11']]]);
    const pages = pagePerParent(childIds, children, { rank: 1, _id: 1 }, { skip: 1, limit: 3 });
    expect(idsOf(pages)).toEqual({ p: ['c09', 'c10', 'c11'] });
  });

  test('cutToFirstChildren: distinct ids in id order, cut to skip + limit, other fields kept', () => {
    const parents = [{ _id: 'u1', name: 'Ann', friends: ['u9', 'u3', 'u3', 'u7', 'u1'] }, { _id: 'u2', friends: 'u4' }];
    expect(cutToFirstChildren(usersField('friends'), parents, { skip: 2, limit: 1 })).toEqual([
      { _id: 'u1', name: 'Ann', friends: ['u1', 'u3', 'u7'] },
      { _id: 'u2', friends: ['u4'] },
    ]);
  });
});

describe('readGroupedRelation', () => {
  test('a row id is read as text; a row without an items list gives no children', () => {
    const rows = [{ _id: 7, items: [{ _id: 't1', __null_priority: 0, __typename: 'Task' }] }, { _id: 'u2', items: 'broken' }];
    expect(readGroupedRelation(rows, ['u1', '7'])).toEqual(new Map<string, unknown[]>([
      ['u1', []],
      ['7', [{ _id: 't1', __typename: 'Task' }]],
      ['u2', []],
    ]));
  });
});

describe('derivedRelationPipeline with an order on a single relation', () => {
  test('a single derived relation ignores order and page: the first child by id', () => {
    expect(derivedRelationPipeline(zoo, 'Person', 'passport', ['p1'], { order: { desc: 'number' }, first: 3 }).pipeline.slice(2)).toEqual([
      { $sort: { _id: 1 } },
      { $group: { _id: '$holder', items: { $push: '$$ROOT' } } },
      { $project: { items: { $slice: ['$items', 0, 1] } } },
    ]);
  });

  test('a derived relation to an interface nobody implements matches nothing', () => {
    const ghostly = validModel(`
type Person { id: ID!  ghosts: [Ghost] }
interface Ghost { id: ID!  haunted: Person @hasInverse(field: ghosts) }
`);
    expect(derivedRelationPipeline(ghostly, 'Person', 'ghosts', ['p1'])).toEqual({ collection: 'Ghost', pipeline: [{ $match: { _id: { $in: [] } } }] });
  });
});

describe('refusals are client errors with exact messages', () => {
  test.each<[string, () => unknown, string]>([
    ['a field that is not a relation', () => storedRelationQueries(model, 'User', 'name', []), 'User.name is not a relation field'],
    ['a field the type lacks', () => derivedRelationPipeline(model, 'User', 'nope', ['u1']), 'User.nope is not a relation field'],
    ['a derived relation read as stored', () => storedRelationQueries(model, 'User', 'tasks', []), 'User.tasks is derived, load it with derivedRelationPipeline'],
    ['a stored relation read as derived', () => derivedRelationPipeline(model, 'Group', 'members', ['g1']), 'Group.members is stored on Group, load it with storedRelationQueries'],
    ['an aggregate of a single relation', () => relationAggregatePipeline(model, 'Task', 'user', [{ _id: 't1' }], null, ['count']), 'Task.user is not a list, so it has no userAggregate'],
    ['an unknown parent type', () => storedRelationQueries(model, 'Nope', 'tasks', []), 'unknown type Nope'],
  ])('%s', (_name, compile, message) => {
    expectArgumentError(compile, message);
  });
});
