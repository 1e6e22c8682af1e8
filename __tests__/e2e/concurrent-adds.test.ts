import { activateSchema, gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASK_USER_SCHEMA } from '../fixtures/schemas';

/**
 * Many adds at once over HTTP, as the bench's addTask sends them: 100 objects per mutation, each naming its
 * user by `@id`. On the embedded store the next mutation works while the one before is being made durable
 * (pipelined commits); a reader must still see each mutation whole or not at all, a refused mutation in
 * between must leave the others alone, and a restart must find every acknowledged one.
 */

let server: TestServer;
const USERS = 10;
const BATCH = 100;
const MUTATIONS = 8;

const ADD_TASKS = 'mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids } }';
const COUNT = '{ aggregateTask { count } }';

const inputOf = (mutation: number) =>
  Array.from({ length: BATCH }, (_, i) => ({ title: `batch ${mutation} task ${i}`, completed: i % 2 === 0, user: { username: `user${(mutation + i) % USERS}` } }));

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, TASK_USER_SCHEMA);
  await gqlData(server.url, 'mutation($input: [AddUserInput!]!) { addUser(input: $input) { numUids } }', {
    input: Array.from({ length: USERS }, (_, i) => ({ username: `user${i}` })),
  });
});

afterAll(async () => {
  await server.close();
});

test('concurrent adds of 100 objects each are all written, each seen whole or not at all; a refused one between them changes nothing', async () => {
  const counts: number[] = [];
  let adding = true;
  const reading = (async () => {
    while (adding) counts.push((await gqlData<{ aggregateTask: { count: number } }>(server.url, COUNT)).aggregateTask.count);
  })();
  const adds = Array.from({ length: MUTATIONS }, (_, mutation) => gql(server.url, ADD_TASKS, { input: inputOf(mutation) }));
  // A user that exists already: the whole mutation is refused, in the middle of the others.
  const refused = gql(server.url, 'mutation { addUser(input: [{ username: "new" }, { username: "user3" }]) { numUids } }');
  const answers = await Promise.all(adds);
  const refusal = await refused;
  adding = false;
  await reading;

  expect(answers.map((answer) => answer.body)).toEqual(Array.from({ length: MUTATIONS }, () => ({ data: { addTask: { numUids: BATCH } } })));
  expect(refusal.body.errors?.map((error) => [error.message, error.extensions?.code])).toEqual([
    ['couldn\'t rewrite mutation addUser because failed to rewrite mutation payload because id user3 already exists for field username inside type User', 'DUPLICATE_ID'],
  ]);
  expect(counts.length).toBeGreaterThan(0);
  expect(counts.filter((count) => count % BATCH !== 0)).toEqual([]);
  expect(await gqlData(server.url, COUNT)).toEqual({ aggregateTask: { count: MUTATIONS * BATCH } });
  expect(await gqlData(server.url, '{ aggregateUser { count } queryUser(filter: { username: { eq: "new" } }) { username } }')).toEqual({
    aggregateUser: { count: USERS },
    queryUser: [],
  });
  const user0 = await gqlData(server.url, '{ getUser(username: "user0") { tasksAggregate { count } } }');
  expect(user0).toEqual({ getUser: { tasksAggregate: { count: (MUTATIONS * BATCH) / USERS } } });
});

test('a restart finds every acknowledged add', async () => {
  server = await server.restart();
  expect(await gqlData(server.url, COUNT)).toEqual({ aggregateTask: { count: MUTATIONS * BATCH } });
  const task = await gqlData(server.url, '{ queryTask(filter: { title: { alloftext: "batch 7 task 99" } }) { title completed user { username } } }');
  expect(task).toEqual({ queryTask: [{ title: 'batch 7 task 99', completed: false, user: { username: 'user6' } }] });
});
