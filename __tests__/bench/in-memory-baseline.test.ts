/**
 * The in-memory baseline of the benchmark (bench/in-memory-baseline.ts) answers every scenario's request
 * bodies over HTTP exactly as Autograph does over the same data, and those answers are the right ones
 * (computed here from the generated data by brute force). Speed is measured in bench/, never here.
 */
import { BENCH_SCHEMA, benchTaskBatches, benchUsers, fillInMemoryTables, loadData, RARE_TERM, type BenchTask, type LoadedData } from '../../bench/api-data.js';
import { startInMemoryBaseline, type InMemoryBaseline } from '../../bench/in-memory-baseline.js';
import { SCENARIOS } from '../../bench/scenarios.js';
import { gql, gqlData } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** More than 10 tasks per user, so that `tasks(first: 10)` cuts every list. */
const TASKS = 12_000;

let autograph: TestServer;
let inMemory: InMemoryBaseline;
let inMemoryOnApollo: InMemoryBaseline;
let data: LoadedData;
const tasks: BenchTask[] = [...benchTaskBatches(TASKS)].flat();

beforeAll(async () => {
  autograph = await startTestServer({ initialSchema: BENCH_SCHEMA });
  data = await loadData(autograph.store, TASKS);
  inMemory = await startInMemoryBaseline(fillInMemoryTables(TASKS));
  inMemoryOnApollo = await startInMemoryBaseline(fillInMemoryTables(TASKS), 'apollo');
}, 120_000);

afterAll(async () => {
  await inMemoryOnApollo?.close();
  await inMemory?.close();
  await autograph?.close();
});

const post = async (url: string, body: { query: string; variables?: Record<string, unknown> }) => (await gql(url, body.query, body.variables)).body;
const hasTerm = (task: BenchTask, term: string) => task.title.split(' ').includes(term);

describe('the in-memory baseline answers as Autograph does', () => {
  const compared = SCENARIOS.filter((scenario) => scenario.compareAnswers);

  test.each(compared.map((scenario) => [scenario.name, scenario] as const))('%s: every request body, the same JSON', async (_, scenario) => {
    for (const body of scenario.bodies(data)) {
      const [ours, theirs] = [await post(autograph.url, body), await post(inMemory.url, body)];
      expect(ours.errors).toBeUndefined();
      expect(theirs).toEqual(ours);
    }
  });

  test.each(compared.map((scenario) => [scenario.name, scenario] as const))('%s: served by Apollo Server, every request body, the same JSON', async (_, scenario) => {
    for (const body of scenario.bodies(data)) {
      const [ours, theirs] = [await post(autograph.url, body), await post(inMemoryOnApollo.url, body)];
      expect(ours.errors).toBeUndefined();
      expect(theirs).toEqual(ours);
    }
  });
});

describe('the answers are the right ones', () => {
  const single = (name: string) => SCENARIOS.find((scenario) => scenario.name === name)!.bodies(data)[0]!;

  test('the data set holds the rare term in about 1.7% of the open tasks', () => {
    const open = tasks.filter((task) => !task.completed);
    const share = open.filter((task) => hasTerm(task, RARE_TERM)).length / open.length;
    expect(share).toBeGreaterThan(0.012);
    expect(share).toBeLessThan(0.022);
  });

  test('countCompleted and countOpenWithTerm count what the data holds', async () => {
    const completed = tasks.filter((task) => task.completed).length;
    const openWithTerm = tasks.filter((task) => !task.completed && hasTerm(task, RARE_TERM)).length;
    expect(await post(inMemory.url, single('countCompleted'))).toEqual({ data: { aggregateTask: { count: completed } } });
    expect(await post(inMemory.url, single('countOpenWithTerm'))).toEqual({ data: { aggregateTask: { count: openWithTerm } } });
  });

  test('aggregateTask gives count, min, max and mean priority of the completed tasks', async () => {
    const priorities = tasks.filter((task) => task.completed).map((task) => task.priority);
    const mean = priorities.reduce((sum, value) => sum + value, 0) / priorities.length;
    expect(await post(inMemory.url, single('aggregateTask'))).toEqual({
      data: { aggregateTask: { count: priorities.length, priorityMin: Math.min(...priorities), priorityMax: Math.max(...priorities), priorityAvg: mean } },
    });
  });

  test('queryTask pages the newest 20 open tasks with the term', async () => {
    const expected = tasks
      .filter((task) => !task.completed && hasTerm(task, RARE_TERM))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .slice(0, 20)
      // Stored with milliseconds, answered as Dgraph answers (whole seconds).
      .map(({ _id, title, priority, completed, createdAt }) => ({ id: _id, title, priority, completed, createdAt: createdAt.replace('.000Z', 'Z') }));
    expect(expected).toHaveLength(20);
    expect(await post(inMemory.url, single('queryTask'))).toEqual({ data: { queryTask: expected } });
  });

  test('queryUser gives the first 100 users, each with its first 10 tasks in creation order', async () => {
    const users = benchUsers().slice(0, 100);
    const expected = users.map((user) => ({
      username: user.username,
      tasks: tasks.filter((task) => task.user === user._id).slice(0, 10).map((task) => ({ title: task.title })),
    }));
    expect(await post(inMemory.url, single('queryUser'))).toEqual({ data: { queryUser: expected } });
  });

  test('getTask gives the task with its user', async () => {
    const task = tasks[4321]!;
    const user = benchUsers().find((one) => one._id === task.user)!;
    const answer = await gqlData(inMemory.url, 'query($id: ID!) { getTask(id: $id) { id title completed user { username name } } }', { id: task._id });
    expect(answer).toEqual({ getTask: { id: task._id, title: task.title, completed: task.completed, user: { username: user.username, name: user.name } } });
  });
});

describe('addTask on the in-memory baseline', () => {
  const mutation = 'mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids task { title priority completed createdAt user { username } } } }';
  const input = [
    { title: 'baseline added one', priority: 2, completed: false, createdAt: '2026-02-01T00:00:00.000Z', user: { username: 'user0007' } },
    { title: 'baseline added two', completed: true, user: { username: 'user0007' } },
  ];

  test('answers as Autograph does, apart from the new ids', async () => {
    const ours = await gqlData(autograph.url, mutation, { input });
    const theirs = await gqlData(inMemory.url, mutation, { input });
    expect(theirs).toEqual(ours);
    expect(theirs.addTask.numUids).toBe(2);
  });

  test('appends the new tasks to their user, after the loaded ones', async () => {
    const query = '{ queryUser(first: 1, offset: 7) { username tasks(offset: 12) { title priority createdAt } } }';
    const expected = {
      queryUser: [{ username: 'user0007', tasks: [
        { title: 'baseline added one', priority: 2, createdAt: '2026-02-01T00:00:00Z' },
        { title: 'baseline added two', priority: null, createdAt: null },
      ] }],
    };
    expect(await gqlData(inMemory.url, query)).toEqual(expected);
    expect(await gqlData(autograph.url, query)).toEqual(expected);
  });

  test('an unknown username is a client error naming the input', async () => {
    const { status, body } = await gql(inMemory.url, mutation, { input: [input[0], { ...input[1], user: { username: 'nobody' } }] });
    expect(status).toBe(200);
    expect(body.data).toEqual({ addTask: null });
    expect(body.errors).toEqual([
      { message: 'input[1].user: no User with username "nobody"', locations: [{ line: 1, column: 38 }], path: ['addTask'], extensions: { code: 'BAD_USER_INPUT' } },
    ]);
    expect(await gqlData(inMemory.url, '{ queryUser(first: 1, offset: 7) { tasks(offset: 12) { title } } }')).toEqual({
      queryUser: [{ tasks: [{ title: 'baseline added one' }, { title: 'baseline added two' }] }],
    });
  });
});

describe('requests the in-memory baseline rejects', () => {
  test.each([
    ['a syntax error', '{ queryTask(', undefined, 'GRAPHQL_PARSE_FAILED', 'Syntax Error: Expected Name, found <EOF>.'],
    ['an unknown field', '{ queryTask { nope } }', undefined, 'GRAPHQL_VALIDATION_FAILED', 'Cannot query field "nope" on type "Task".'],
    ['a variable of the wrong type', 'query($id: ID!) { getTask(id: $id) { id } }', { id: { not: 'an id' } }, 'BAD_USER_INPUT', 'Variable "$id" got invalid value { not: "an id" }; ID cannot represent value: { not: "an id" }'],
  ] as const)('%s: HTTP 400 with its code', async (_, query, variables, code, message) => {
    const { status, body } = await gql(inMemory.url, query, variables);
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({ message, extensions: { code } });
  });
});
