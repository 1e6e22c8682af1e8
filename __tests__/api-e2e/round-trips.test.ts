import { countRoundTrips, type RoundTripCounter } from '../../src/store/counting';
import { activateSchema, gql } from '../helpers/gql';
import { startCountingTestServer, type TestServer } from '../helpers/server';

/**
 * No N+1. The exact bound: a query costs 1 store round trip for its top-level list, plus 1 per relation
 * field and 1 per `<relation>Aggregate` field in its selection (per field, not per object), however many
 * objects each level holds. A chain of relations (one relation field per level) therefore costs its
 * relation nesting depth + 1.
 */

const SCHEMA = `
type User {
  username: String! @id
  tasks: [Task] @hasInverse(field: owner)
}

type Task {
  id: ID!
  title: String! @search(by: [term])
  rank: Int @search
  owner: User
  tags: [Tag]
}

type Tag {
  name: String! @id
  color: String
}
`;

const USERS = 100;
const TASKS_PER_USER = 4;
const TAGS = 12;

let server: TestServer;
let counter: RoundTripCounter;

beforeAll(async () => {
  ({ server, counter } = await startCountingTestServer());
  await activateSchema(server.url, SCHEMA);
  const tags = Array.from({ length: TAGS }, (_, i) => ({ name: `tag${i}`, color: i % 2 === 0 ? 'red' : 'blue' }));
  await request('mutation($input: [AddTagInput!]!) { addTag(input: $input) { numUids } }', { input: tags });
  const users = Array.from({ length: USERS }, (_, u) => ({
    username: `user${String(u).padStart(3, '0')}`,
    tasks: Array.from({ length: TASKS_PER_USER }, (_, t) => ({
      title: `task ${t} of user ${u}`,
      rank: t,
      tags: [{ name: `tag${(u + t) % TAGS}` }, { name: `tag${(u + t + 1) % TAGS}` }],
    })),
  }));
  await request('mutation($input: [AddUserInput!]!) { addUser(input: $input) { numUids } }', { input: users });
});

afterAll(() => server.close());

async function request(query: string, variables?: Record<string, unknown>): Promise<any> {
  const { body } = await gql(server.url, query, variables);
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** Runs the query and returns its data and the store calls it made. */
async function measured(query: string, variables: Record<string, unknown>): Promise<{ data: any; count: number; byOperation: Record<string, number> }> {
  counter.reset();
  const data = await request(query, variables);
  return { data, count: counter.count, byOperation: { ...counter.byOperation } };
}

const THREE_LEVELS = `query($first: Int) {
  queryUser(first: $first, order: { asc: username }) {
    username
    tasks(order: { asc: rank }) {
      title
      tags(order: { asc: name }) { name color }
    }
  }
}`;

test('a 3-level query over 100 parents costs 3 round trips (relation depth 2, + 1)', async () => {
  const { data, count, byOperation } = await measured(THREE_LEVELS, { first: 100 });
  expect(data.queryUser).toHaveLength(USERS);
  const tasks = data.queryUser.flatMap((user: any) => user.tasks);
  expect(tasks).toHaveLength(USERS * TASKS_PER_USER);
  expect(tasks.every((task: any) => task.tags.length === 2)).toBe(true);
  // One find for the users, one findPerKey for every user's tasks (derived side: each user's page of the
  // tasks whose owner is that user), one find for every task's tags (stored side: the ids the tasks hold).
  expect(byOperation).toEqual({ find: 2, findPerKey: 1 });
  expect(count).toBe(3);
});

test('the round trips do not grow from 10 to 100 parents', async () => {
  const ten = await measured(THREE_LEVELS, { first: 10 });
  const hundred = await measured(THREE_LEVELS, { first: 100 });
  expect(ten.data.queryUser).toHaveLength(10);
  expect(hundred.data.queryUser).toHaveLength(100);
  expect(ten.count).toBe(3);
  expect(hundred.count).toBe(ten.count);
});

test('four levels with a back edge, nested filters and pages, and a relation aggregate per level: depth + 1 + aggregates', async () => {
  const query = `query($first: Int) {
    queryUser(first: $first, order: { asc: username }) {
      username
      tasksAggregate { count rankMax }
      tasks(filter: { rank: { le: 2 } }, order: { desc: rank }, first: 2) {
        rank
        owner { username }
        tags(first: 1, order: { desc: name }) { name }
        tagsAggregate { count }
      }
    }
  }`;
  for (const first of [10, 100]) {
    const { data, count, byOperation } = await measured(query, { first });
    expect(data.queryUser).toHaveLength(first);
    expect(data.queryUser[0]).toEqual({
      username: 'user000',
      tasksAggregate: { count: 4, rankMax: 3 },
      tasks: [
        { rank: 2, owner: { username: 'user000' }, tags: [{ name: 'tag3' }], tagsAggregate: { count: 2 } },
        { rank: 1, owner: { username: 'user000' }, tags: [{ name: 'tag2' }], tagsAggregate: { count: 2 } },
      ],
    });
    // 1 for the users + 1 per relation field (tasks, owner, tags) + 1 per aggregate field (tasksAggregate,
    // a grouping pipeline; tagsAggregate, a projected find of the tags the tasks hold); owner and tags are
    // side by side at the third level, each one batch for all tasks.
    expect(byOperation).toEqual({ find: 4, findPerKey: 1, aggregate: 1 });
    expect(count).toBe(6);
  }
});

test('an add of many objects referencing others by @id: one read per @id field, one insert per collection', async () => {
  const addTasks = `mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids } }`;
  const inputs = (count: number, batch: string) => Array.from({ length: count }, (_, i) => ({
    title: `added ${batch} ${i}`,
    rank: i,
    owner: { username: `user${String(i % USERS).padStart(3, '0')}` },
    // One existing tag and one new tag per task.
    tags: [{ name: `tag${i % TAGS}` }, { name: `new ${batch} ${i}` }],
  }));
  for (const count of [10, 100]) {
    const { data, byOperation } = await measured(addTasks, { input: inputs(count, `batch${count}`) });
    expect(data.addTask.numUids).toBe(2 * count);
    // Reads: User.username and Tag.name, each one `$in` for the whole mutation; inserts: Tag and Task.
    expect(byOperation).toEqual({ find: 2, insertMany: 2 });
  }
  const check = await request(`{ queryTask(filter: { title: { allofterms: "batch100 99" } }) { owner { username } tags(order: { asc: name }) { name } } }`);
  expect(check.queryTask).toEqual([{ owner: { username: 'user099' }, tags: [{ name: 'new batch100 99' }, { name: 'tag3' }] }]);
});
