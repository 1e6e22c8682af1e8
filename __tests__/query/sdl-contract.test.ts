import { compileAggregate } from '../../src/query/aggregate.js';
import { compileFilter } from '../../src/query/filter.js';
import { compileOrder } from '../../src/query/order.js';
import { derivedRelationPipeline, relationAggregatePipeline, storedRelationQueries } from '../../src/query/relations.js';
import { buildSchemaModel } from '../../src/sdl/build.js';
import { model as handBuilt } from './fixtures.js';

/**
 * The hand-built fixture stands for what sdl/ builds; this checks that the real builder, given the
 * fixture's schema text, yields a model on which query/ compiles exactly the same documents.
 */
const SDL = `
enum Status { OPEN DONE }

type User {
  id: ID!
  username: String! @id @search(by: [hash])
  name: String @search(by: [exact])
  age: Int @search
  tasks: [Task] @hasInverse(field: user)
  groups: [Group]
  items: [Item]
  friends: [User]
  bestFriend: User
  favourites: [Item]
  mentor: User
  mentees: [User] @hasInverse(field: mentor)
  nickname: String @lambda
}

type Task {
  id: ID!
  title: String! @search(by: [fulltext, term])
  description: String @search(by: [regexp])
  completed: Boolean! @search
  priority: Int @search
  score: Float @search(by: [float])
  due: DateTime @search(by: [day])
  size: Int64 @search
  status: Status @search(by: [hash])
  level: Status @search(by: [exact])
  tags: [String] @search(by: [term, exact])
  notes: String
  user: User!
}

type Group {
  id: ID!
  name: String @search(by: [hash, trigram])
  members: [User] @hasInverse(field: groups)
}

interface Item {
  id: ID!
  label: String @search(by: [exact])
  owner: User @hasInverse(field: items)
}

type Book implements Item {
  pages: Int @search
}

type Movie implements Item {
  minutes: Int
}
`;

const built = buildSchemaModel(SDL);

test('the schema text builds', () => {
  expect(built.errors).toEqual([]);
});

const models = () => [handBuilt, built.model!] as const;

test.each<[string, Record<string, unknown>]>([
  ['Task', { title: { alloftext: 'running', anyofterms: 'milk' }, completed: true, due: { ge: '2026-01-01' }, or: { status: { in: ['OPEN'] } } }],
  ['Task', { level: { gt: 'DONE' }, tags: { eq: 'x', anyofterms: 'y' }, description: { regexp: '/a/i' }, has: ['user', 'tags'] }],
  ['User', { username: { eq: 'ann' }, age: { between: { min: 1, max: 2 } }, has: ['tasks', 'groups', 'items', 'friends', 'mentees'] }],
  ['Group', { name: { eq: 'a', regexp: '/^a/' }, not: { has: ['members'] } }],
  ['Item', { label: { le: 'x' }, has: ['owner'] }],
  ['Book', { pages: { gt: 1 }, label: { eq: 'Dune' } }],
])('%s filter %j compiles the same on the built model', (typeName, filter) => {
  const [hand, real] = models();
  expect(compileFilter(real, typeName, filter)).toEqual(compileFilter(hand, typeName, filter));
});

test('orders, aggregates and relation pipelines compile the same on the built model', () => {
  const [hand, real] = models();
  const both = <T>(compile: (model: typeof hand) => T) => expect(compile(real)).toEqual(compile(hand));
  both((model) => compileOrder(model, 'Task', { desc: 'due', then: { asc: 'title' } }));
  both((model) => compileAggregate(model, 'Task', { lookups: [], match: {} }, ['count', 'priorityAvg', 'sizeSum', 'dueMax']));
  both((model) => derivedRelationPipeline(model, 'User', 'tasks', ['u1'], { first: 2, order: { asc: 'priority' } }));
  both((model) => derivedRelationPipeline(model, 'User', 'groups', ['u1'], {}));
  both((model) => derivedRelationPipeline(model, 'User', 'items', ['u1'], {}));
  both((model) => derivedRelationPipeline(model, 'User', 'mentees', ['u1'], {}));
  both((model) => storedRelationQueries(model, 'User', 'favourites', [{ _id: 'u1', favourites: ['b1'] }], {}));
  both((model) => relationAggregatePipeline(model, 'Group', 'members', [{ _id: 'g1', members: ['u1'] }], null, ['count', 'ageMin']));
});
