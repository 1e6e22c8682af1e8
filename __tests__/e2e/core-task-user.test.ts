import { activateSchema, gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASK_USER_SCHEMA } from '../fixtures/schemas';
import { activeSchemaText, expectRefusedUpload } from './schema-lifecycle';

/** Issue 2 acceptance on the spec's Task/User schema: every generated operation over real HTTP. */

let server: TestServer;

const data = <T = any>(query: string, variables?: Record<string, unknown>): Promise<T> => gqlData<T>(server.url, query, variables);

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, TASK_USER_SCHEMA);
});

afterAll(async () => {
  await server.close();
});

test('addUser creates a user with nested new tasks, in one mutation', async () => {
  const result = await data(`mutation {
    addUser(input: [{ username: "alice", name: "Alice", tasks: [
      { title: "Buy milk and bread", completed: false },
      { title: "Write the quarterly report", completed: true }
    ] }]) {
      numUids
      user { username name tasks(order: { asc: title }) { title completed user { username } } }
    }
  }`);
  expect(result.addUser.numUids).toBe(3);
  expect(result.addUser.user).toEqual([{
    username: 'alice',
    name: 'Alice',
    tasks: [
      { title: 'Buy milk and bread', completed: false, user: { username: 'alice' } },
      { title: 'Write the quarterly report', completed: true, user: { username: 'alice' } },
    ],
  }]);
});

test('addTask references an existing user by its @id', async () => {
  const result = await data(`mutation {
    addTask(input: [{ title: "Call the plumber", completed: false, user: { username: "alice" } },
                    { title: "Running shoes", completed: false, user: { username: "bob", name: "Bob" } }]) {
      numUids
      task(order: { asc: title }) { title user { username name } }
    }
  }`);
  // Two tasks and the new user bob.
  expect(result.addTask.numUids).toBe(3);
  expect(result.addTask.task).toEqual([
    { title: 'Call the plumber', user: { username: 'alice', name: 'Alice' } },
    { title: 'Running shoes', user: { username: 'bob', name: 'Bob' } },
  ]);
});

test('queryTask filters and orders; fulltext matches a stemmed word', async () => {
  const open = await data(`{ queryTask(filter: { completed: false }, order: { desc: title }) { title } }`);
  expect(open.queryTask.map((task: { title: string }) => task.title)).toEqual(['Running shoes', 'Call the plumber', 'Buy milk and bread']);

  const reports = await data(`{ queryTask(filter: { title: { alloftext: "reports" } }) { title } }`);
  expect(reports.queryTask).toEqual([{ title: 'Write the quarterly report' }]);

  const paged = await data(`{ queryTask(order: { asc: title }, first: 2, offset: 1) { title } }`);
  expect(paged.queryTask.map((task: { title: string }) => task.title)).toEqual(['Call the plumber', 'Running shoes']);
});

test('getTask by id and getUser by @id; unknown ids give null', async () => {
  const { queryTask } = await data(`{ queryTask(filter: { title: { anyoftext: "plumber" } }) { id } }`);
  const id = queryTask[0].id;
  const got = await data(`query($id: ID!) { getTask(id: $id) { id title user { username } } }`, { id });
  expect(got.getTask).toEqual({ id, title: 'Call the plumber', user: { username: 'alice' } });

  const user = await data(`{ getUser(username: "bob") { name tasks { title } } }`);
  expect(user.getUser).toEqual({ name: 'Bob', tasks: [{ title: 'Running shoes' }] });

  const missing = await data(`{ getTask(id: "000000000000000000000000") { id } getUser(username: "nobody") { name } }`);
  expect(missing).toEqual({ getTask: null, getUser: null });
});

test('aggregateTask counts with a filter', async () => {
  const all = await data(`{ aggregateTask { count titleMin titleMax } }`);
  expect(all.aggregateTask).toEqual({ count: 4, titleMin: 'Buy milk and bread', titleMax: 'Write the quarterly report' });
  const done = await data(`{ aggregateTask(filter: { completed: true }) { count } }`);
  expect(done.aggregateTask.count).toBe(1);
});

test('updateTask sets a field on the filtered objects', async () => {
  const result = await data(`mutation {
    updateTask(input: { filter: { title: { anyoftext: "milk" } }, set: { completed: true } }) {
      numUids
      task { title completed }
    }
  }`);
  expect(result.updateTask).toEqual({ numUids: 1, task: [{ title: 'Buy milk and bread', completed: true }] });
});

test('updateTask moves a task to another user; both sides agree', async () => {
  await data(`mutation {
    updateTask(input: { filter: { title: { anyoftext: "plumber" } }, set: { user: { username: "bob" } } }) { numUids }
  }`);
  const users = await data(`{ queryUser(order: { asc: username }) { username tasks(order: { asc: title }) { title } } }`);
  expect(users.queryUser).toEqual([
    { username: 'alice', tasks: [{ title: 'Buy milk and bread' }, { title: 'Write the quarterly report' }] },
    { username: 'bob', tasks: [{ title: 'Call the plumber' }, { title: 'Running shoes' }] },
  ]);
});

test('an @id duplicate is refused, naming value, field and type, and writes nothing', async () => {
  const { body } = await gql(server.url, `mutation {
    addUser(input: [{ username: "carol" }, { username: "alice" }]) { numUids }
  }`);
  expect(body.errors?.[0].message).toBe('couldn\'t rewrite mutation addUser because failed to rewrite mutation payload because id alice already exists for field username inside type User');
  const carol = await data(`{ getUser(username: "carol") { username } }`);
  expect(carol.getUser).toBeNull();
});

test('deleteTask returns the deleted objects and removes them from their user', async () => {
  const result = await data(`mutation {
    deleteTask(filter: { title: { anyoftext: "shoes" } }) { msg numUids task { title } }
  }`);
  expect(result.deleteTask).toEqual({ msg: 'Deleted', numUids: 1, task: [{ title: 'Running shoes' }] });
  const bob = await data(`{ getUser(username: "bob") { tasks { title } } }`);
  expect(bob.getUser.tasks).toEqual([{ title: 'Call the plumber' }]);
});

test('a schema with errors is refused with line:column, and the previous schema keeps serving', async () => {
  const broken = `type Task {\n  id: ID!\n  title: String! @search(by: [int])\n  owner: Nobody\n}\n`;
  const errors = await expectRefusedUpload(server.url, broken);
  expect(errors).toEqual([
    { line: 3, column: 31, message: 'Type Task; field title: @search(by: [int]) does not apply to String (allowed: hash, exact, regexp, term, fulltext, ngram, trigram)' },
    { line: 4, column: 10, message: 'Type Task; field owner: unknown type Nobody' },
  ]);
  expect(await activeSchemaText(server.url)).toBe(TASK_USER_SCHEMA);
  const still = await data(`{ aggregateTask { count } }`);
  expect(still.aggregateTask.count).toBe(3);
});

test('a re-upload that adds a field keeps existing data readable', async () => {
  await activateSchema(server.url, TASK_USER_SCHEMA.replace('completed: Boolean! @search', 'completed: Boolean! @search\n  priority: Int @search'));
  await data(`mutation { updateTask(input: { filter: { title: { anyoftext: "plumber" } }, set: { priority: 2 } }) { numUids } }`);
  const tasks = await data(`{ queryTask(order: { asc: title }) { title priority } }`);
  expect(tasks.queryTask).toEqual([
    { title: 'Buy milk and bread', priority: null },
    { title: 'Call the plumber', priority: 2 },
    { title: 'Write the quarterly report', priority: null },
  ]);
});

test('a restart on the same data serves the same schema and data', async () => {
  server = await server.restart();
  const tasks = await data(`{ queryTask(filter: { priority: { ge: 1 } }) { title priority user { username } } }`);
  expect(tasks.queryTask).toEqual([{ title: 'Call the plumber', priority: 2, user: { username: 'bob' } }]);
});
