/**
 * The bench's scenarios as PostGraphile requests (bench/postgraphile-requests.ts): every translated request
 * is valid against the schema PostGraphile serves (bench/postgraphile/schema.graphql, which the bench writes
 * from the running PostGraphile), its variables coerce, and PostGraphile's answers come back in exactly the
 * shape and values of Autograph's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, getVariableValues, parse, validate, type OperationDefinitionNode } from 'graphql';
import { benchUsers, RARE_TERM } from '../../bench/api-data.js';
import { asAutographAnswer, autographDateTime, createTaskFieldsTranslation, NOT_TRANSLATED, POSTGRAPHILE_TRANSLATIONS } from '../../bench/postgraphile-requests.js';
import { SCENARIOS, type RequestBody } from '../../bench/scenarios.js';

const postgraphileSchema = buildSchema(fs.readFileSync(path.join(__dirname, '../../bench/postgraphile/schema.graphql'), 'utf8'));
const data = { userIds: ['659200800000000001000000'], taskIds: Array.from({ length: 300 }, (_, i) => `659200800000000002${i.toString(16).padStart(6, '0')}`) };
const translationOf = (name: string) => POSTGRAPHILE_TRANSLATIONS[name]!;
const firstBodyOf = (name: string): RequestBody => SCENARIOS.find((scenario) => scenario.name === name)!.bodies(data)[0]!;

test('every scenario is either translated or said not to be, never both', () => {
  for (const scenario of SCENARIOS) {
    expect([scenario.name, scenario.name in POSTGRAPHILE_TRANSLATIONS !== scenario.name in NOT_TRANSLATED]).toEqual([scenario.name, true]);
  }
  expect(Object.keys(POSTGRAPHILE_TRANSLATIONS).sort()).toEqual(['addTask', 'countCompleted', 'countOpenWithTerm', 'getTask', 'queryTask', 'queryUser']);
});

test.each(Object.keys(POSTGRAPHILE_TRANSLATIONS))('%s: each request is valid in PostGraphile\'s schema and its variables coerce', (name) => {
  const scenario = SCENARIOS.find((one) => one.name === name)!;
  for (const body of scenario.bodies(data).slice(0, 3)) {
    const request = translationOf(name).request(body);
    const document = parse(request.query);
    expect(validate(postgraphileSchema, document).map((error) => error.message)).toEqual([]);
    const operation = document.definitions[0] as OperationDefinitionNode;
    const coerced = getVariableValues(postgraphileSchema, operation.variableDefinitions ?? [], request.variables ?? {});
    expect(coerced.errors?.map((error) => error.message)).toBeUndefined();
  }
});

test('getTask asks for the same id', () => {
  expect(translationOf('getTask').request(firstBodyOf('getTask')).variables).toEqual({ id: data.taskIds[0] });
  expect(translationOf('getTask').request({ query: 'ignored', variables: { id: 'abc' } }).variables).toEqual({ id: 'abc' });
});

test('the term searches look for the bench\'s term among the open tasks', () => {
  for (const name of ['queryTask', 'countOpenWithTerm']) {
    const query = translationOf(name).request(firstBodyOf(name)).query;
    expect([name, query]).toEqual([name, expect.stringContaining(`tasksWithAnyTerm(terms: "${RARE_TERM}", condition: { completed: false }`)]);
  }
  expect(translationOf('queryTask').request(firstBodyOf('queryTask')).query).toContain('orderBy: [CREATED_AT_DESC], first: 20)');
});

test('addTask passes every task, its user named by username', () => {
  const body = firstBodyOf('addTask');
  const input = body.variables!.input as Array<{ title: string; priority: number; completed: boolean; createdAt: string; user: { username: string } }>;
  const tasks = translationOf('addTask').request(body).variables!.tasks as unknown[];
  expect(tasks).toHaveLength(100);
  expect(tasks).toEqual(input.map((task) => ({ title: task.title, priority: task.priority, completed: task.completed, createdAt: task.createdAt, username: task.user.username })));
  expect(tasks[0]).toEqual({ title: input[0]!.title, priority: 1, completed: true, createdAt: '2026-01-01T00:00:00.000Z', username: input[0]!.user.username });
});

test.each<[string, unknown, unknown]>([
  [
    'getTask',
    { task: { completed: false, title: 'urgent plan #1', id: 't1', user: { name: 'User 1', username: 'user0001' } } },
    { getTask: { id: 't1', title: 'urgent plan #1', completed: false, user: { username: 'user0001', name: 'User 1' } } },
  ],
  ['getTask', { task: null }, { getTask: null }],
  [
    'queryTask',
    { tasksWithAnyTerm: { nodes: [{ id: 't2', title: 'urgent a #2', priority: 3, completed: false, createdAt: '2024-01-02T07:06:00+00:00' }, { id: 't1', title: 'urgent b #1', priority: null, completed: false, createdAt: null }] } },
    { queryTask: [{ id: 't2', title: 'urgent a #2', priority: 3, completed: false, createdAt: '2024-01-02T07:06:00Z' }, { id: 't1', title: 'urgent b #1', priority: null, completed: false, createdAt: null }] },
  ],
  ['queryTask', { tasksWithAnyTerm: { nodes: [] } }, { queryTask: [] }],
  [
    'queryUser',
    { appUsers: { nodes: [{ username: 'user0000', tasksByUserId: { nodes: [{ title: 'a' }, { title: 'b' }] } }, { username: 'user0001', tasksByUserId: { nodes: [] } }] } },
    { queryUser: [{ username: 'user0000', tasks: [{ title: 'a' }, { title: 'b' }] }, { username: 'user0001', tasks: [] }] },
  ],
  ['countCompleted', { tasks: { totalCount: 50_123 } }, { aggregateTask: { count: 50_123 } }],
  ['countOpenWithTerm', { tasksWithAnyTerm: { totalCount: 0 } }, { aggregateTask: { count: 0 } }],
  ['addTask', { addTasks: { integer: 100 } }, { addTask: { numUids: 100 } }],
])('%s: PostGraphile\'s data in Autograph\'s shape', (name, postgraphileData, autographData) => {
  const translated = asAutographAnswer(translationOf(name), { data: postgraphileData });
  // As JSON: the services' answers are compared as JSON text, so the order of fields counts too.
  expect(JSON.stringify(translated)).toBe(JSON.stringify({ data: autographData }));
});

test.each<[string, unknown]>([
  ['queryTask', { somethingElse: [] }],
  ['countCompleted', { tasks: { nodes: [] } }],
  ['queryUser', { appUsers: { totalCount: 3 } }],
])('%s: an answer without the expected field is an error, not a wrong value', (name, postgraphileData) => {
  expect(() => asAutographAnswer(translationOf(name), { data: postgraphileData })).toThrow(/PostGraphile's answer has no|a connection without/);
});

test('an answer with errors stays as it is, so that the comparison shows them', () => {
  const failed = { errors: [{ message: 'null value in column "user_id"', errcode: '23502' }], data: { addTasks: null } };
  expect(asAutographAnswer(translationOf('addTask'), failed)).toBe(failed);
  expect(asAutographAnswer(translationOf('getTask'), { data: null })).toEqual({ data: null });
});

test.each<[string | null, string | null]>([
  ['2024-01-01T00:00:00+00:00', '2024-01-01T00:00:00Z'],
  ['2024-01-02T07:06:00.5+02:00', '2024-01-02T05:06:00Z'],
  ['2026-01-01T23:59:59.999999+00:00', '2026-01-01T23:59:59Z'],
  [null, null],
])('autographDateTime(%p) = %p: UTC, whole seconds, as Autograph answers', (postgres, autograph) => {
  expect(autographDateTime(postgres)).toBe(autograph);
});

describe('addTask through 100 createTask fields', () => {
  const users = new Map(benchUsers().map((user) => [user.username, user._id]));
  const translation = createTaskFieldsTranslation(users);

  test('one aliased createTask per task, valid in PostGraphile\'s schema, each user by its id', () => {
    const body = firstBodyOf('addTask');
    const input = body.variables!.input as Array<{ title: string; user: { username: string } }>;
    const request = translation.request(body);
    const document = parse(request.query);
    expect(validate(postgraphileSchema, document).map((error) => error.message)).toEqual([]);
    const operation = document.definitions[0] as OperationDefinitionNode;
    expect(operation.selectionSet.selections).toHaveLength(100);
    expect(getVariableValues(postgraphileSchema, operation.variableDefinitions ?? [], request.variables!).errors).toBeUndefined();
    expect(request.variables!.t7).toEqual({ title: input[7]!.title, priority: 3, completed: false, createdAt: '2026-01-01T00:00:00.000Z', userId: users.get(input[7]!.user.username) });
  });

  test('a user it does not know is an error, not a task without a user', () => {
    const body = { query: '', variables: { input: [{ title: 'a', priority: 1, completed: true, createdAt: '2026-01-01T00:00:00.000Z', user: { username: 'nobody' } }] } };
    expect(() => translation.request(body)).toThrow('no user "nobody" to give createTask the id of');
  });

  test.each<[string, unknown, number]>([
    ['every field added', { t0: { clientMutationId: null }, t1: { clientMutationId: null } }, 2],
    ['a field that failed is not counted', { t0: { clientMutationId: null }, t1: null }, 1],
  ])('the answer counts the added tasks: %s', (_, data, count) => {
    expect(asAutographAnswer(translation, { data })).toEqual({ data: { addTask: { numUids: count } } });
  });
});
