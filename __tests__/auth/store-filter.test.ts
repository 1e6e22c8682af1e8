/**
 * A rule over 10,000 objects is answered by the store's filter: one store round trip, and the store
 * returns only the objects the caller may see, never the whole collection for JavaScript to sift.
 */
import { rm } from 'node:fs/promises';
import { searchFieldsFor } from '../../src/query/text-index.js';
import { countRoundTrips, type RoundTripCounter } from '../../src/store/counting.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Collection, Store, StoredDocument } from '../../src/store/port.js';
import { activateSchema, gql } from '../helpers/gql.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine, tokenFor } from './keys.js';
import { modelOf } from './schema.js';

const SCHEMA = `
type Task @auth(query: { rule: """query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { __typename } } }""" }) {
  id: ID!
  title: String! @search(by: [fulltext])
  completed: Boolean! @search
  user: User!
}

type User {
  username: String! @id @search(by: [hash])
  name: String
  tasks: [Task] @hasInverse(field: user)
}

${authorizationLine()}
`;

const USERS = 10;
const TASKS = 10_000;

/** Counts the rows the store hands back from reads (documents of `find`, rows of `aggregate`). */
function countReturnedRows(store: Store): { store: Store; rows: { count: number } } {
  const rows = { count: 0 };
  const wrap = (inner: Collection): Collection => Object.assign(Object.create(inner) as Collection, {
    find: async (...args: Parameters<Collection['find']>) => {
      const found = await inner.find(...args);
      rows.count += found.length;
      return found;
    },
    aggregate: async (...args: Parameters<Collection['aggregate']>) => {
      const found = await inner.aggregate(...args);
      rows.count += found.length;
      return found;
    },
  });
  return { store: Object.assign(Object.create(store) as Store, { collection: (name: string) => wrap(store.collection(name)) }), rows };
}

let server: TestServer;
let dataDir: string;
let counter: RoundTripCounter;
let returned: { count: number };

beforeAll(async () => {
  dataDir = await makeTempDir();
  const embedded = await openEmbeddedStore(dataDir);
  const counting = countRoundTrips(embedded);
  const rowCounting = countReturnedRows(counting.store);
  counter = counting.counter;
  returned = rowCounting.rows;
  server = await startTestServer({ dataDir, store: rowCounting.store });
  await activateSchema(server.url, SCHEMA);

  const taskType = modelOf(SCHEMA).types.get('Task')!;
  const users: StoredDocument[] = Array.from({ length: USERS }, (_, i) => ({ _id: `u${i}`, username: `user${i}` }));
  const tasks: StoredDocument[] = Array.from({ length: TASKS }, (_, i) => {
    const title = `task number ${i}`;
    return { _id: `t${String(i).padStart(5, '0')}`, title, completed: i % 2 === 0, user: `u${i % USERS}`, ...searchFieldsFor(taskType, { title }) } as StoredDocument;
  });
  await embedded.collection('User').insertMany(users);
  await embedded.collection('Task').insertMany(tasks);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function asUser(user: string, query: string): Promise<Record<string, any>> {
  counter.reset();
  returned.count = 0;
  const { status, body } = await gql(server.url, query, undefined, { 'X-Auth-Token': tokenFor({ USER: user }) });
  if (status !== 200 || body.errors) throw new Error(`HTTP ${status}: ${JSON.stringify(body)}`);
  return body.data as Record<string, any>;
}

test('queryTask over 10,000 tasks: one round trip, and the store returns only the caller\'s 1,000', async () => {
  const result = await asUser('user3', '{ queryTask(first: 10000) { id } }');
  expect(result.queryTask).toHaveLength(TASKS / USERS);
  expect(result.queryTask.every((task: { id: string }) => Number(task.id.slice(1)) % USERS === 3)).toBe(true);
  expect(counter.count).toBe(1);
  expect(returned.count).toBe(TASKS / USERS);
});

test('queryTask with a filter of its own: still one round trip, only the matching objects leave the store', async () => {
  const result = await asUser('user4', '{ queryTask(filter: { completed: true }, first: 10000) { id } }');
  expect(result.queryTask).toHaveLength(TASKS / USERS);
  expect(counter.count).toBe(1);
  expect(returned.count).toBe(TASKS / USERS);
});

test('aggregateTask over 10,000 tasks: one round trip returning one row', async () => {
  const result = await asUser('user7', '{ aggregateTask { count } }');
  expect(result.aggregateTask.count).toBe(TASKS / USERS);
  expect(counter.count).toBe(1);
  expect(returned.count).toBe(1);
});

test('a user unknown to the store: one round trip, nothing returned', async () => {
  const result = await asUser('nobody', '{ queryTask(first: 10000) { id } }');
  expect(result.queryTask).toEqual([]);
  expect(counter.count).toBe(1);
  expect(returned.count).toBe(0);
});

test('queryUser { tasks }: one round trip per level, the rule applied inside the relation pipeline', async () => {
  const result = await asUser('user5', '{ queryUser { username tasks(first: 10000) { id } } }');
  const counts = Object.fromEntries(result.queryUser.map((user: any) => [user.username, user.tasks.length]));
  expect(counts).toEqual(Object.fromEntries(Array.from({ length: USERS }, (_, i) => [`user${i}`, i === 5 ? TASKS / USERS : 0])));
  expect(counter.count).toBe(2);
  // 10 users, then user5's 1,000 tasks: the other 9,000 never leave the store.
  expect(returned.count).toBe(USERS + TASKS / USERS);
});

test('queryUser(filter: { has: tasks }): the rule narrows the related tasks inside the store, one round trip', async () => {
  const result = await asUser('user5', '{ queryUser(filter: { has: tasks }) { username } }');
  expect(result.queryUser).toEqual([{ username: 'user5' }]);
  expect(counter.count).toBe(1);
  expect(returned.count).toBe(1);
});

test('references in a mutation are checked against the rule in a fixed number of store calls, however many', async () => {
  const roundTrips = async (taskNumbers: number[]) => {
    const refs = taskNumbers.map((i) => `{ id: "t${String(i).padStart(5, '0')}" }`).join(', ');
    // user2 hands some of their tasks to user8: each must be visible to user2 before the mutation.
    const result = await asUser('user2', `mutation { updateUser(input: { filter: { username: { eq: "user8" } }, set: { tasks: [${refs}] } }) { numUids } }`);
    expect(result.updateUser.numUids).toBe(1);
    return counter.count;
  };
  const one = await roundTrips([2]);
  const ten = await roundTrips([12, 22, 32, 42, 52, 62, 72, 82, 92, 102]);
  // Each further reference costs one store call of its own (the mutation's writes are staged and replayed
  // after the rules pass); no rule check is per reference.
  expect(ten - one).toBe(9);
  const moved = await asUser('user8', '{ aggregateTask(filter: { id: ["t00002", "t00012", "t00102"] }) { count } }');
  expect(moved.aggregateTask.count).toBe(3);
});
