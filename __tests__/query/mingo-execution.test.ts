import { aggregate, Query } from 'mingo';
import { forMingo } from '../helpers/mingo-lookup.js';
import { compileAggregate, readAggregateResult } from '../../src/query/aggregate.js';
import { compileFilter, planStages, stripTemporaryFields } from '../../src/query/filter.js';
import { compileOrder } from '../../src/query/order.js';
import { compilePage } from '../../src/query/pagination.js';
import {
  childIdsByParent,
  derivedRelationPipeline,
  pagePerParent,
  readGroupedRelation,
  readRelationAggregates,
  relationAggregatePipeline,
  storedRelationQueries,
} from '../../src/query/relations.js';
import { searchFieldsFor } from '../../src/query/text-index.js';
import type { StoredDocument } from '../../src/store/port.js';
import { model } from './fixtures.js';

/**
 * The compiled documents run through mingo (what the embedded store executes) on small in-memory
 * collections, to prove they select the right documents, not just that they have the expected shape.
 */

const withSearchFields = (typeName: string, document: StoredDocument): StoredDocument => {
  const derived = searchFieldsFor(model.types.get(typeName)!, document);
  return { ...document, ...Object.fromEntries(Object.entries(derived).filter(([, tokens]) => tokens !== undefined)) };
};

const users: StoredDocument[] = [
  { _id: 'u1', username: 'ann', name: 'Ann', age: 31, friends: ['u2', 'u3', 'u4'] },
  { _id: 'u2', username: 'bob', name: 'Bob', age: 25, friends: ['u1'], mentor: 'u1' },
  { _id: 'u3', username: 'cy', name: 'Cy', age: 40, mentor: 'u1' },
  { _id: 'u4', username: 'di', age: 19, mentor: 'u2' },
];
const tasks: StoredDocument[] = [
  { _id: 't1', title: 'She runs every morning', description: 'Buy milk', completed: false, priority: 3, due: '2026-01-10T00:00:00.000Z', user: 'u1' },
  { _id: 't2', title: 'Connected components', description: 'buy EGGS', completed: true, priority: 1, due: '2026-02-10T00:00:00.000Z', user: 'u1' },
  { _id: 't3', title: 'A quiet evening', completed: false, priority: 2, user: 'u1' },
  { _id: 't4', title: 'Running shoes', description: 'sell bike', completed: false, priority: 5, user: 'u2' },
  { _id: 't5', title: 'Untitled', completed: true, user: 'u3' },
].map((task) => withSearchFields('Task', task));
const groups: StoredDocument[] = [
  { _id: 'g1', name: 'core', members: ['u1', 'u2'] },
  { _id: 'g2', name: 'docs', members: ['u2'] },
  { _id: 'g3', name: 'ops', members: ['u3', 'u1'] },
];
const books: StoredDocument[] = [{ _id: 'b1', label: 'Dune', owner: 'u1', pages: 600 }];
const movies: StoredDocument[] = [{ _id: 'm1', label: 'Alien', owner: 'u1' }, { _id: 'm2', label: 'Heat', owner: 'u3' }];

const collections: Record<string, StoredDocument[]> = { User: users, Task: tasks, Group: groups, Book: books, Movie: movies };
const options = { collectionResolver: (name: string) => collections[name] ?? [] };

/** What a resolver does with a FilterPlan: `find` for plain filters, an aggregation otherwise. */
function select(typeName: string, filter: Record<string, unknown>): string[] {
  const plan = compileFilter(model, typeName, filter);
  const source = collections[typeName];
  const found = plan.lookups.length === 0
    ? (new Query(plan.match).find(source).all() as StoredDocument[])
    : aggregate(source, forMingo([...planStages(plan)]), options).map((document) => stripTemporaryFields(document));
  return found.map((document) => String(document._id)).sort();
}

describe('filters select the right documents', () => {
  test.each<[string, string, Record<string, unknown>, string[]]>([
    ['fulltext: "running" finds "runs" and "Running" (stemming)', 'Task', { title: { anyoftext: 'running' } }, ['t1', 't4']],
    ['fulltext: alloftext needs every stem', 'Task', { title: { alloftext: 'running mornings' } }, ['t1']],
    ['fulltext: "connecting" finds "Connected"', 'Task', { title: { alloftext: 'connecting component' } }, ['t2']],
    ['term: whole words only, any case', 'Task', { title: { anyofterms: 'RUNNING evening' } }, ['t3', 't4']],
    ['term: "runs" is not the term "running"', 'Task', { title: { allofterms: 'running' } }, ['t4']],
    ['regexp is case-sensitive without flags', 'Task', { description: { regexp: '/^buy/' } }, ['t2']],
    ['regexp with the i flag', 'Task', { description: { regexp: '/^buy/i' } }, ['t1', 't2']],
    ['Boolean', 'Task', { completed: true }, ['t2', 't5']],
    ['DateTime range with a time zone offset', 'Task', { due: { between: { min: '2026-01-01T01:00:00+01:00', max: '2026-01-31' } } }, ['t1']],
    ['int range with not', 'Task', { priority: { ge: 2 }, not: { priority: { eq: 5 } } }, ['t1', 't3']],
    ['a, or: b is a OR b', 'Task', { completed: true, or: { priority: { gt: 4 } } }, ['t2', 't4', 't5']],
    ['id list', 'Task', { id: ['t1', 't9', 't3'] }, ['t1', 't3']],
    ['has scalar', 'Task', { has: ['due'] }, ['t1', 't2']],
    ['not has scalar', 'Task', { not: { has: ['description'] } }, ['t3', 't5']],
    ['has stored list relation', 'User', { has: ['friends'] }, ['u1', 'u2']],
    ['has derived relation via $lookup (inverse holds one id)', 'User', { has: ['tasks'] }, ['u1', 'u2', 'u3']],
    ['not has derived relation', 'User', { not: { has: ['mentees'] } }, ['u3', 'u4']],
    ['has derived relation whose inverse is a list', 'User', { has: ['groups'], age: { lt: 40 } }, ['u1', 'u2']],
    ['has derived relation to an interface', 'User', { has: ['items'] }, ['u1', 'u3']],
    ['empty in matches nothing', 'User', { username: { in: [] } }, []],
  ])('%s', (_name, typeName, filter, expected) => {
    expect(select(typeName, filter)).toEqual(expected);
  });
});

test('order and page: missing values first, then-chain, _id tie-breaker', () => {
  const sort = compileOrder(model, 'Task', { asc: 'priority', then: { asc: 'title' } });
  const { skip, limit } = compilePage({ first: 3, offset: 1 });
  const page = new Query({}).find(tasks).sort(sort).skip(skip).limit(limit).all() as StoredDocument[];
  expect(page.map((task) => task._id)).toEqual(['t2', 't3', 't1']);
});

describe('aggregates', () => {
  test('aggregateT over the filtered documents', () => {
    const requested = ['count', 'priorityMin', 'priorityMax', 'prioritySum', 'priorityAvg', 'dueMax', 'titleMin'];
    const pipeline = compileAggregate(model, 'Task', compileFilter(model, 'Task', { completed: false }), requested);
    expect(readAggregateResult(aggregate(tasks, pipeline, options), requested)).toEqual({
      count: 3, priorityMin: 2, priorityMax: 5, prioritySum: 10, priorityAvg: 10 / 3, dueMax: '2026-01-10T00:00:00.000Z', titleMin: 'A quiet evening',
    });
  });

  test('nothing matched: count 0 and nulls; matched without values: Sum null', () => {
    const requested = ['count', 'prioritySum'];
    const none = compileAggregate(model, 'Task', compileFilter(model, 'Task', { id: [] }), requested);
    expect(readAggregateResult(aggregate(tasks, none, options), requested)).toEqual({ count: 0, prioritySum: null });
    const noValues = compileAggregate(model, 'Task', compileFilter(model, 'Task', { id: ['t5'] }), requested);
    expect(readAggregateResult(aggregate(tasks, noValues, options), requested)).toEqual({ count: 1, prioritySum: null });
  });
});

describe('relation levels: one store call for all parents', () => {
  const ids = (pages: Map<string, StoredDocument[]>) => Object.fromEntries([...pages].map(([parent, items]) => [parent, items.map((item) => item._id)]));

  test('derived list (inverse holds one id): filter, order and first per parent', () => {
    const parentIds = ['u1', 'u2', 'u4'];
    const { collection, pipeline } = derivedRelationPipeline(model, 'User', 'tasks', parentIds, { filter: { completed: false }, order: { desc: 'priority' }, first: 1 });
    const pages = readGroupedRelation(aggregate(collections[collection], pipeline, options), parentIds);
    expect(ids(pages)).toEqual({ u1: ['t1'], u2: ['t4'], u4: [] });
    expect(pages.get('u1')![0]).toEqual({ ...tasks[0], __typename: 'Task' });
  });

  test('derived list (inverse is a list): offset and first per parent, stored list left intact', () => {
    const parentIds = ['u1', 'u2', 'u3'];
    const { collection, pipeline } = derivedRelationPipeline(model, 'User', 'groups', parentIds, { order: { desc: 'name' }, first: 1, offset: 1 });
    const pages = readGroupedRelation(aggregate(collections[collection], pipeline, options), parentIds);
    expect(ids(pages)).toEqual({ u1: ['g1'], u2: ['g1'], u3: [] });
    expect(pages.get('u1')).toEqual([{ _id: 'g1', name: 'core', members: ['u1', 'u2'], __typename: 'Group' }]);
  });

  test('derived list to an interface: both collections, one order, each child with its concrete type', () => {
    const { collection, pipeline } = derivedRelationPipeline(model, 'User', 'items', ['u1'], { order: { asc: 'label' } });
    const pages = readGroupedRelation(aggregate(collections[collection], pipeline, options), ['u1']);
    expect(pages.get('u1')!.map((item) => [item._id, item.__typename])).toEqual([['m1', 'Movie'], ['b1', 'Book']]);
  });

  test('stored list: one find for all children, then a page per parent', () => {
    const parents = users.filter((user) => ['u1', 'u2'].includes(user._id));
    const args = { filter: { age: { lt: 35 } }, order: { asc: 'age' }, first: 2 };
    const found = storedRelationQueries(model, 'User', 'friends', parents, args)
      .flatMap(({ collection, plan, sort }) => new Query(plan.match).find(collections[collection]).sort(sort).all() as StoredDocument[]);
    const pages = pagePerParent(childIdsByParent(model.types.get('User')!.fieldsByName.get('friends')!, parents), found, compileOrder(model, 'User', args.order), compilePage(args));
    expect(ids(pages)).toEqual({ u1: ['u4', 'u2'], u2: ['u1'] });
  });

  test('relation aggregates, derived and stored, per parent', () => {
    const derived = relationAggregatePipeline(model, 'User', 'tasks', [{ _id: 'u1' }, { _id: 'u4' }], { completed: false }, ['count', 'priorityMax']);
    expect(readRelationAggregates(aggregate(collections[derived.collection], derived.pipeline, options), ['u1', 'u4'], ['count', 'priorityMax']))
      .toEqual(new Map([['u1', { count: 2, priorityMax: 3 }], ['u4', { count: 0, priorityMax: null }]]));

    const stored = relationAggregatePipeline(model, 'Group', 'members', groups, { age: { lt: 35 } }, ['count', 'ageSum', 'nameMin']);
    expect(readRelationAggregates(aggregate(collections[stored.collection], stored.pipeline, options), ['g1', 'g2', 'g3'], ['count', 'ageSum', 'nameMin']))
      .toEqual(new Map([
        ['g1', { count: 2, ageSum: 56, nameMin: 'Ann' }],
        ['g2', { count: 1, ageSum: 25, nameMin: 'Bob' }],
        ['g3', { count: 1, ageSum: 31, nameMin: 'Ann' }],
      ]));
  });

  test('relation aggregate to an interface counts every implementing collection', () => {
    const derived = relationAggregatePipeline(model, 'User', 'items', [{ _id: 'u1' }, { _id: 'u3' }], null, ['count', 'labelMax']);
    expect(readRelationAggregates(aggregate(collections[derived.collection], derived.pipeline, options), ['u1', 'u3'], ['count', 'labelMax']))
      .toEqual(new Map([['u1', { count: 2, labelMax: 'Dune' }], ['u3', { count: 1, labelMax: 'Heat' }]]));
    const stored = relationAggregatePipeline(model, 'User', 'favourites', [{ _id: 'u9', favourites: ['b1', 'm2', 'x'] }], { label: { lt: 'Z' } }, ['count', 'labelMin']);
    expect(readRelationAggregates(aggregate(collections[stored.collection], stored.pipeline, options), ['u9'], ['count', 'labelMin']))
      .toEqual(new Map([['u9', { count: 2, labelMin: 'Dune' }]]));
  });
});
