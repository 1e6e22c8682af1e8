import {
  compileFilter,
  dropTemporaryFields,
  planStages,
  QueryArgumentError,
  stripTemporaryFields,
  temporaryFieldsOf,
  type FilterPlan,
  type RelatedScope,
} from '../../src/query/filter.js';
import { f, model, pair, schemaModel } from './fixtures.js';

/** Edges of `compileFilter` and the plan helpers, each with the exact MongoDB document or message. */

function thrownBy(run: () => unknown): QueryArgumentError {
  try {
    run();
  } catch (error) {
    return error as QueryArgumentError;
  }
  throw new Error('expected an error');
}

describe('filter values the GraphQL layer may pass', () => {
  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a single id (list coercion)', { id: 't1' }, { _id: { $in: ['t1'] } }],
    ['a null among the ids is left out', { id: ['t1', null] }, { _id: { $in: ['t1'] } }],
    ['a null and list item in and is left out', { and: [null, { priority: { eq: 1 } }] }, { priority: { $eq: 1 } }],
    ['an or of nulls only is not given', { completed: true, or: [null] }, { completed: { $eq: true } }],
    ['an or with a null item keeps the others', { completed: true, or: [null, { priority: { eq: 2 } }] }, { $or: [{ completed: { $eq: true } }, { priority: { $eq: 2 } }] }],
    ['an or alone, of several', { or: [{ priority: { eq: 1 } }, { priority: { eq: 2 } }] }, { $or: [{ priority: { $eq: 1 } }, { priority: { $eq: 2 } }] }],
    ['not given null is not given', { not: null, completed: false }, { completed: { $eq: false } }],
    ['has given null is not given', { has: null }, {}],
    ['eq: null on a field whose indexes have no eq is ignored, as any other null operand', { title: { eq: null } }, {}],
    ['an undefined operand is ignored', { priority: { gt: undefined, lt: 4 } }, { priority: { $lt: 4 } }],
    ['an undefined value is not given', { priority: undefined, not: undefined, completed: true }, { completed: { $eq: true } }],
    ['an undefined item in and is left out', { and: [undefined, { priority: { eq: 1 } }] }, { priority: { $eq: 1 } }],
    ['an empty or alone matches everything', { or: [] }, {}],
    ['an or of nulls alone matches everything', { or: [null] }, {}],
  ])('%s', (_name, filter, expected) => {
    expect(compileFilter(model, 'Task', filter)).toEqual({ lookups: [], match: expected });
  });
});

describe('refusals name the type, field and operator (exact messages, BAD_USER_INPUT)', () => {
  test.each<[string, string, unknown, string]>([
    ['a filter that is not an object', 'Task', ['x'], 'TaskFilter: expected an object, got ["x"]'],
    ['a filter that is a string', 'Task', 'x', 'TaskFilter: expected an object, got "x"'],
    ['an and item that is not an object', 'Task', { and: ['x'] }, 'TaskFilter.and: expected filter objects, got "x"'],
    ['an and item that is a list', 'Task', { and: [[{ completed: true }]] }, 'TaskFilter.and: expected filter objects, got [{"completed":true}]'],
    ['an or item that is not an object', 'Task', { or: [2] }, 'TaskFilter.or: expected filter objects, got 2'],
    ['not given a string', 'Task', { not: 'x' }, 'TaskFilter.not: expected one filter object, got "x"'],
    ['not given a list', 'Task', { not: [{ completed: true }] }, 'TaskFilter.not: expected one filter object, got [{"completed":true}]'],
    ['an id that is not a string', 'Task', { id: ['a', 1] }, 'TaskFilter.id: expected a list of IDs, got ["a",1]'],
    ['a single id that is not a string', 'Task', { id: 1 }, 'TaskFilter.id: expected a list of IDs, got 1'],
    ['an unknown field', 'Task', { nope: { eq: 1 } }, 'TaskFilter: type Task has no field "nope"'],
    ['a field without @search', 'Task', { notes: { eq: 'x' } }, 'Task.notes cannot be filtered: it has no @search index (filter given: {"eq":"x"})'],
    ['a relation', 'Task', { user: { id: ['u1'] } }, 'Task.user cannot be filtered: it has no @search index (filter given: {"id":["u1"]})'],
    ['a Boolean given a string', 'Task', { completed: 'true' }, 'Task.completed: the filter value must be true or false, got "true"'],
    ['a Boolean given an operator object', 'Task', { completed: { eq: true } }, 'Task.completed: the filter value must be true or false, got {"eq":true}'],
    ['operators given a list', 'Task', { priority: [1] }, 'Task.priority: expected an object of filter operators, got [1]'],
    ['operators given a number', 'Task', { priority: 1 }, 'Task.priority: expected an object of filter operators, got 1'],
    ['an operator of another index', 'Task', { priority: { regexp: '/1/' } }, 'Task.priority does not support the filter operator "regexp" (its @search indexes allow: eq, in, le, lt, ge, gt, between)'],
    ['an unknown operator', 'Task', { title: { like: 'x' } }, 'Task.title does not support the filter operator "like" (its @search indexes allow: alloftext, anyoftext, allofterms, anyofterms)'],
    ['a known operator the indexes lack', 'Group', { name: { gt: 'a' } }, 'Group.name does not support the filter operator "gt" (its @search indexes allow: eq, in, regexp)'],
    ['has given a number', 'Task', { has: [3] }, 'TaskFilter.has: expected field names, got 3'],
    ['has of the ID', 'Task', { has: 'id' }, 'TaskFilter.has: field "id" cannot be tested with has (it is the ID)'],
    ['has of a lambda field', 'User', { has: ['nickname'] }, 'UserFilter.has: field "nickname" cannot be tested with has (it is not stored by this service)'],
    ['has of an unknown field', 'User', { has: ['nope'] }, 'UserFilter: type User has no field "nope"'],
  ])('%s', (_name, typeName, filter, message) => {
    const error = thrownBy(() => compileFilter(model, typeName, filter as Record<string, unknown>));
    expect(error).toBeInstanceOf(QueryArgumentError);
    expect(error.message).toBe(message);
    expect(error.code).toBe('BAD_USER_INPUT');
  });
});

describe('has on derived relations to interfaces', () => {
  const owns = pair(['Thing', 'owner'], ['Person', 'things']);
  const ownsNothing = pair(['Ghost', 'owner'], ['Person', 'ghosts']);
  const single = schemaModel([
    { name: 'Person', fields: [f('id', 'ID!'), f('things', '[Thing]', owns.derived), f('ghosts', '[Ghost]', ownsNothing.derived)] },
    { name: 'Thing', kind: 'interface', fields: [f('id', 'ID!'), f('owner', 'Person', owns.stored)] },
    { name: 'Tool', implements: ['Thing'], fields: [f('id', 'ID!', { inheritedFrom: 'Thing' }), f('owner', 'Person', { ...owns.stored, inheritedFrom: 'Thing' })] },
    { name: 'Ghost', kind: 'interface', fields: [f('id', 'ID!'), f('owner', 'Person', ownsNothing.stored)] },
  ]);

  test('an interface with one implementing type: its lookup is named after that type', () => {
    expect(compileFilter(single, 'Person', { has: ['things'] })).toEqual<FilterPlan>({
      lookups: [
        { $lookup: { from: 'Tool', localField: '_id', foreignField: 'owner', pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }], as: '__has_things_Tool' } },
      ],
      match: { '__has_things_Tool.0': { $exists: true } },
    });
  });

  test('an interface nobody implements: nothing can be related', () => {
    expect(compileFilter(single, 'Person', { has: ['ghosts'] })).toEqual<FilterPlan>({ lookups: [], match: { _id: { $in: [] } } });
  });
});

describe('has with a scope: only related objects in scope count', () => {
  const doneTasks: RelatedScope = (typeName) => (typeName === 'Task' ? { lookups: [], match: { completed: { $eq: true } } } : undefined);
  const booksOnly: RelatedScope = (typeName) => (typeName === 'Book' ? { lookups: [], match: { pages: { $gt: 10 } } } : undefined);
  const lookupName = (field: string) => expect.stringMatching(new RegExp(`^__has_${field}_[0-9a-f]{12}$`));

  test('a derived list relation in scope: a sub-pipeline filters the related objects', () => {
    const plan = compileFilter(model, 'User', { has: ['tasks'] }, doneTasks);
    expect(plan.lookups).toEqual([
      {
        $lookup: {
          from: 'Task',
          localField: '_id',
          foreignField: 'user',
          pipeline: [{ $match: { completed: { $eq: true } } }, { $limit: 1 }, { $project: { _id: 1 } }],
          as: lookupName('tasks'),
        },
      },
    ]);
    const as = (plan.lookups[0]!.$lookup as { as: string }).as;
    expect(plan.match).toEqual({ [`${as}.0`]: { $exists: true } });
    expect(dropTemporaryFields(plan)).toEqual([{ $unset: [as] }]);
  });

  test('a stored relation to an interface: types the scope leaves alone count whole', () => {
    const plan = compileFilter(model, 'User', { has: ['favourites'] }, booksOnly);
    expect(plan.lookups).toEqual([
      { $lookup: { from: 'Book', localField: 'favourites', foreignField: '_id', as: lookupName('favourites') } },
      { $lookup: { from: 'Movie', localField: 'favourites', foreignField: '_id', as: lookupName('favourites') } },
    ]);
    const [book, movie] = plan.lookups.map((stage) => (stage.$lookup as { as: string }).as) as [string, string];
    expect(book).not.toBe(movie);
    expect(plan.match).toEqual({ $or: [{ [book]: { $elemMatch: { pages: { $gt: 10 } } } }, { [`${movie}.0`]: { $exists: true } }] });
  });

  test('the same scoped relation tested twice is looked up once', () => {
    const plan = compileFilter(model, 'User', { has: ['tasks'], not: { has: 'tasks' } }, doneTasks);
    expect(plan.lookups).toHaveLength(1);
  });

  test.each<[string, string, Record<string, unknown>, FilterPlan]>([
    ['a relation whose targets the scope leaves alone', 'Task', { has: ['user'] }, { lookups: [], match: { user: { $exists: true, $ne: null } } }],
    ['a scalar field', 'Task', { has: ['description'] }, { lookups: [], match: { description: { $exists: true, $ne: null } } }],
    [
      'a derived relation the scope leaves alone',
      'User',
      { has: ['groups'] },
      {
        lookups: [{ $lookup: { from: 'Group', localField: '_id', foreignField: 'members', pipeline: [{ $limit: 1 }, { $project: { _id: 1 } }], as: '__has_groups' } }],
        match: { '__has_groups.0': { $exists: true } },
      },
    ],
  ])('no scope plan for %s: the plain has', (_name, typeName, filter, expected) => {
    expect(compileFilter(model, typeName, filter, doneTasks)).toEqual(expected);
  });
});

describe('plan helpers', () => {
  const plain: FilterPlan = { lookups: [], match: { completed: { $eq: true } } };
  const everything: FilterPlan = { lookups: [], match: {} };
  const withLookups: FilterPlan = {
    lookups: [
      { $lookup: { from: 'Task', localField: '_id', foreignField: 'user', as: '__has_tasks' } },
      { $lookup: { from: 'Group', localField: 'groups', foreignField: '_id', as: 'groups' } },
      { $addFields: { __other: 1 } },
      { $lookup: { from: 'Item', localField: '_id', foreignField: 'owner', as: '__has_items' } },
    ],
    match: { '__has_tasks.0': { $exists: true } },
  };

  test.each<[string, FilterPlan, string[]]>([
    ['no lookups', plain, []],
    ['only the lookups whose field starts with __', withLookups, ['__has_tasks', '__has_items']],
  ])('temporaryFieldsOf: %s', (_name, plan, fields) => {
    expect(temporaryFieldsOf(plan)).toEqual(fields);
  });

  test.each<[string, FilterPlan, unknown[]]>([
    ['no temporary fields: no stage', plain, []],
    ['a $unset of the temporary fields', withLookups, [{ $unset: ['__has_tasks', '__has_items'] }]],
  ])('dropTemporaryFields: %s', (_name, plan, stages) => {
    expect(dropTemporaryFields(plan)).toEqual(stages);
  });

  test.each<[string, FilterPlan, unknown[]]>([
    ['a plain filter: only $match', plain, [{ $match: { completed: { $eq: true } } }]],
    ['a filter matching everything: no stage', everything, []],
    ['lookups, then $match', withLookups, [...withLookups.lookups, { $match: { '__has_tasks.0': { $exists: true } } }]],
    ['lookups and a match-all filter: the lookups only', { lookups: withLookups.lookups, match: {} }, withLookups.lookups],
  ])('planStages: %s', (_name, plan, stages) => {
    expect(planStages(plan)).toEqual(stages);
  });

  test('stripTemporaryFields keeps __typename and every field not starting with __', () => {
    expect(stripTemporaryFields({ __typename: 'User', _id: 'u1', _term_name: ['ann'], name: 'Ann', __has_tasks: [], __x: 1 })).toEqual({
      __typename: 'User',
      _id: 'u1',
      _term_name: ['ann'],
      name: 'Ann',
    });
  });
});
