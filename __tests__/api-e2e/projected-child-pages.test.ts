import type { Collection, PerKeyPage, Store } from '../../src/store/port';
import { withCollections } from '../../src/store/with-collections';
import { gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 17, nested pages: a derived relation's children are read per parent (`findPerKey`) with only the
 * stored fields the selection under the relation reads. The answers must be what whole documents give:
 * stored names, fragments, relations stored on the child, their aggregates, aliases with different
 * selections; custom logic under the relation still gets whole documents (its script may read any field).
 */

const SCHEMA = `
type Task {
  id: ID!
  title: String! @search(by: [hash])
  priority: Int
  note: String @dgraph(pred: "Task.note")
  user: User!
  tags: [Tag]
  label: String @lambda
}

type User {
  username: String! @id
  tasks: [Task] @hasInverse(field: user)
}

type Tag {
  name: String! @id
}
`;

const SCRIPT = `
self.addGraphQLResolvers({
  'Task.label': ({ parent }) => parent.title + '/' + parent.priority + '/' + parent.note,
});
`;

interface SeedTask {
  title: string;
  priority: number;
  note: string;
  user: string;
  tags: string[];
}

const USERS = ['u0', 'u1', 'u2'];
/** 9 tasks, 3 per user, created in this order (the default order of a user's tasks). */
const TASKS: SeedTask[] = Array.from({ length: 9 }, (_, i) => ({
  title: `t${i}`,
  priority: i % 4,
  note: `n${i}`,
  user: USERS[i % 3]!,
  tags: i % 2 === 0 ? ['red', 'blue'] : ['red'],
}));

/** Each user's first two tasks, in creation order, shaped by `shape`. */
function expectedUsers(shape: (task: SeedTask) => Record<string, unknown>): Array<{ username: string; tasks: Array<Record<string, unknown>> }> {
  return USERS.map((username) => ({ username, tasks: TASKS.filter((task) => task.user === username).slice(0, 2).map(shape) }));
}

let server: TestServer;
/** The page of every findPerKey call on Task, in call order. */
const perKeyPages: PerKeyPage[] = [];

function recordingPerKeyPages(store: Store): Store {
  return withCollections(store, (name) => {
    const collection = store.collection(name);
    if (name !== 'Task') return collection;
    const recorded: Collection = {
      name,
      find: (filter, options, scope) => collection.find(filter, options, scope),
      count: (filter, scope) => collection.count(filter, scope),
      aggregate: (pipeline, scope) => collection.aggregate(pipeline, scope),
      findPerKey: (field, keys, filter, page, scope) => {
        perKeyPages.push(page);
        return collection.findPerKey(field, keys, filter, page, scope);
      },
      insertMany: (documents, scope) => collection.insertMany(documents, scope),
      updateMany: (filter, update, scope) => collection.updateMany(filter, update, scope),
      deleteMany: (filter, scope) => collection.deleteMany(filter, scope),
    };
    return recorded;
  });
}

async function data(query: string, variables?: Record<string, unknown>): Promise<any> {
  const { body } = await gql(server.url, query, variables);
  if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data;
}

beforeAll(async () => {
  server = await startTestServer({ initialSchema: SCHEMA, initialLambda: SCRIPT, wrapStore: recordingPerKeyPages });
  await data('mutation($input: [AddUserInput!]!) { addUser(input: $input) { numUids } }', { input: USERS.map((username) => ({ username })) });
  await data('mutation { addTag(input: [{ name: "red" }, { name: "blue" }]) { numUids } }');
  const input = TASKS.map((task) => ({ ...task, user: { username: task.user }, tags: task.tags.map((name) => ({ name })) }));
  await data('mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids } }', { input });
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  perKeyPages.length = 0;
});

const CASES: Array<[label: string, selection: string, projection: Record<string, 1> | undefined, shape: (task: SeedTask) => Record<string, unknown>]> = [
  ['a scalar field', '{ title }', { title: 1 }, (task) => ({ title: task.title })],
  // A dotted predicate is stored with its dot escaped (a dot would be a path).
  ['a field stored under another name, with __typename', '{ __typename note }', { 'Task%2Enote': 1 }, (task) => ({ __typename: 'Task', note: task.note })],
  ['fields through an inline fragment and a named one', '{ ... on Task { title } ...Rank }', { title: 1, priority: 1 }, (task) => ({ title: task.title, priority: task.priority })],
  ['a relation stored on the child', '{ title user { username } }', { title: 1, user: 1 }, (task) => ({ title: task.title, user: { username: task.user } })],
  [
    'a stored list relation and its aggregate',
    '{ tags(order: { asc: name }) { name } tagsAggregate { count } }',
    { tags: 1 },
    (task) => ({ tags: [...task.tags].sort().map((name) => ({ name })), tagsAggregate: { count: task.tags.length } }),
  ],
  ['custom logic (whole documents)', '{ label }', undefined, (task) => ({ label: `${task.title}/${task.priority}/${task.note}` })],
];

test.each(CASES)('User.tasks(first: 2) with %s reads the stored fields it needs and answers as whole documents would', async (_label, selection, projection, shape) => {
  const fragment = selection.includes('...Rank') ? ' fragment Rank on Task { priority }' : '';
  const result = await data(`{ queryUser(order: { asc: username }) { username tasks(first: 2) ${selection} } }${fragment}`);
  expect(result.queryUser).toEqual(expectedUsers(shape));
  expect(perKeyPages).toEqual([{ sort: { _id: 1 }, skip: 0, limit: 2, projection }]);
});

test('aliases of one relation with the same arguments and different selections each get their fields', async () => {
  const result = await data('{ queryUser(order: { asc: username }) { username a: tasks(first: 2) { title } b: tasks(first: 2) { priority } } }');
  expect(result.queryUser).toEqual(USERS.map((username) => {
    const tasks = TASKS.filter((task) => task.user === username).slice(0, 2);
    return { username, a: tasks.map((task) => ({ title: task.title })), b: tasks.map((task) => ({ priority: task.priority })) };
  }));
  expect(perKeyPages.map((page) => page.projection)).toEqual([{ title: 1 }, { priority: 1 }]);
});

test('a child page projected through a variable-driven selection (@include) still answers the included field', async () => {
  const query = 'query($withNote: Boolean!) { queryUser(order: { asc: username }) { username tasks(first: 2) { title note @include(if: $withNote) } } }';
  expect((await data(query, { withNote: true })).queryUser).toEqual(expectedUsers((task) => ({ title: task.title, note: task.note })));
  expect((await data(query, { withNote: false })).queryUser).toEqual(expectedUsers((task) => ({ title: task.title })));
});
