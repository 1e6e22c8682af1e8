/**
 * Issue 6 acceptance over HTTP: the spec's Task/User schema with its owner rule (plus add/update/delete
 * rules and a Report type for role and and/or/not rules), tokens signed in the test.
 */
import { activateSchema, gql, gqlGet, uploadSchema } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine, tokenFor, otherRsa } from './keys.js';

const OWNER = 'query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { __typename } } }';
const ADMIN = '{ rule: "{$ROLE: { eq: \\"ADMIN\\" } }" }';

export const AUTH_TASK_SCHEMA = `
type Task @key(fields: "id") @auth(
  query: { rule: """${OWNER}""" },
  add: { rule: """${OWNER}""" },
  update: { rule: """${OWNER}""" },
  delete: { or: [{ rule: """${OWNER}""" }, ${ADMIN}] }
) {
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

type Profile @auth(update: { rule: """query($USER: String!) { queryProfile(filter: { handle: { eq: $USER } }) { __typename } }""" }) {
  handle: String! @id @search(by: [hash])
  bio: String
}

type Report @auth(query: { or: [
  ${ADMIN},
  { and: [
    { rule: """query($USER: String!) { queryReport(filter: { author: { eq: $USER } }) { __typename } }""" },
    { not: { rule: """query { queryReport(filter: { archived: true }) { __typename } }""" } }
  ] }
] }) {
  id: ID!
  author: String! @search(by: [hash])
  archived: Boolean @search
  title: String!
}
`;

const HEADER = 'X-Auth-Token';
const as = (claims: Record<string, unknown>) => ({ [HEADER]: tokenFor(claims) });
const alice = as({ USER: 'alice' });
const bob = as({ USER: 'bob' });
const admin = as({ USER: 'root', ROLE: 'ADMIN' });

let server: TestServer;

async function data(query: string, headers: Record<string, string> = {}, variables?: Record<string, unknown>): Promise<Record<string, any>> {
  const { status, body } = await gql(server.url, query, variables, headers);
  if (status !== 200 || body.errors) throw new Error(`HTTP ${status}: ${JSON.stringify(body)}`);
  return body.data as Record<string, any>;
}

const titles = (tasks: Array<{ title: string }>) => tasks.map((task) => task.title).sort();

beforeAll(async () => {
  // The auth plugin is passed explicitly; registered twice (should the app add it too), it verifies once.
  server = await startTestServer();
  await activateSchema(server.url, `${AUTH_TASK_SCHEMA}\n${authorizationLine({ header: HEADER })}\n`);
  await data(`mutation { addUser(input: [{ username: "alice", name: "Alice" }, { username: "bob" }, { username: "carol" }]) { numUids } }`);
  await data(`mutation { addTask(input: [
    { title: "Alice one", completed: false, user: { username: "alice" } },
    { title: "Alice two", completed: true, user: { username: "alice" } }
  ]) { numUids } }`, alice);
  await data(`mutation { addTask(input: [{ title: "Bob one", completed: false, user: { username: "bob" } }]) { numUids } }`, bob);
  await data(`mutation { addReport(input: [
    { author: "alice", title: "Alice current", archived: false },
    { author: "alice", title: "Alice archived", archived: true },
    { author: "bob", title: "Bob current" }
  ]) { numUids } }`);
});

afterAll(async () => {
  await server?.close();
});

describe('a user sees exactly their own tasks', () => {
  test('queryTask', async () => {
    expect(titles((await data('{ queryTask { title } }', alice)).queryTask)).toEqual(['Alice one', 'Alice two']);
    expect(titles((await data('{ queryTask { title } }', bob)).queryTask)).toEqual(['Bob one']);
    expect((await data('{ queryTask { title } }', as({ USER: 'carol' }))).queryTask).toEqual([]);
  });

  test('queryTask with the user\'s own filter on top of the rule', async () => {
    const result = await data('{ queryTask(filter: { completed: true }) { title } }', alice);
    expect(result.queryTask).toEqual([{ title: 'Alice two' }]);
  });

  test('getTask: another user\'s task is null', async () => {
    const { queryTask: [bobsTask] } = await data('{ queryTask { id } }', bob);
    expect((await data(`{ getTask(id: "${bobsTask.id}") { title } }`, bob)).getTask).toEqual({ title: 'Bob one' });
    expect((await data(`{ getTask(id: "${bobsTask.id}") { title } }`, alice)).getTask).toBeNull();
  });

  test('aggregateTask', async () => {
    expect((await data('{ aggregateTask { count titleMin } }', alice)).aggregateTask).toEqual({ count: 2, titleMin: 'Alice one' });
    expect((await data('{ aggregateTask { count } }', bob)).aggregateTask).toEqual({ count: 1 });
  });

  test('queryUser { tasks } and tasksAggregate: relation traversal applies the Task rule', async () => {
    const result = await data('{ queryUser(order: { asc: username }) { username tasks { title } tasksAggregate { count } } }', alice);
    expect(result.queryUser.map((user: any) => ({ ...user, tasks: titles(user.tasks) }))).toEqual([
      { username: 'alice', tasks: ['Alice one', 'Alice two'], tasksAggregate: { count: 2 } },
      { username: 'bob', tasks: [], tasksAggregate: { count: 0 } },
      { username: 'carol', tasks: [], tasksAggregate: { count: 0 } },
    ]);
  });

  test('_entities: a representation of another user\'s task resolves to null', async () => {
    const { queryTask: [bobsTask] } = await data('{ queryTask { id } }', bob);
    const query = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Task { title } } }`;
    const reps = [{ __typename: 'Task', id: bobsTask.id }];
    expect((await data(query, bob, { reps }))._entities).toEqual([{ title: 'Bob one' }]);
    expect((await data(query, alice, { reps }))._entities).toEqual([null]);
  });
});

describe('callers without a valid token', () => {
  test('no token: no tasks, count 0, users without tasks', async () => {
    const result = await data('{ queryTask { title } aggregateTask { count } queryUser { username tasks { title } } }');
    expect(result.queryTask).toEqual([]);
    expect(result.aggregateTask).toEqual({ count: 0 });
    expect(result.queryUser.every((user: any) => user.tasks.length === 0)).toBe(true);
    expect(result.queryUser).toHaveLength(3);
  });

  test('a token in another header than the configured one: anonymous', async () => {
    const result = await data('{ queryTask { title } }', { authorization: `Bearer ${tokenFor({ USER: 'alice' })}` });
    expect(result.queryTask).toEqual([]);
  });

  test('a claim whose name differs from the rule\'s variable matches nothing', async () => {
    expect((await data('{ queryTask { title } }', as({ user: 'alice' }))).queryTask).toEqual([]);
    expect((await data('{ queryTask { title } }', as({ USERNAME: 'alice' }))).queryTask).toEqual([]);
  });

  test('a Bearer prefix and any case of the header name are accepted', async () => {
    const token = tokenFor({ USER: 'bob' });
    expect(titles((await data('{ queryTask { title } }', { 'x-auth-token': `Bearer ${token}` })).queryTask)).toEqual(['Bob one']);
  });

  test.each<[string, () => string, RegExp]>([
    ['expired', () => tokenFor({ USER: 'alice' }, { expiresIn: -10 }), /the token expired at/],
    ['tampered', () => {
      const [header, payload, signature] = tokenFor({ USER: 'alice' }).split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      claims['https://autograph.example/claims'].USER = 'bob';
      return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    }, /invalid signature/],
    ['signed with another key', () => tokenFor({ USER: 'alice' }, { key: otherRsa.privateKey }), /invalid signature/],
    ['for another audience', () => tokenFor({ USER: 'alice' }, { audience: 'someone-else' }), /jwt audience invalid/],
    ['signed with another algorithm', () => tokenFor({ USER: 'alice' }, { algorithm: 'HS256', key: 'a-secret' }), /invalid algorithm/],
    ['not yet valid', () => tokenFor({ USER: 'alice' }, { notBefore: 3600 }), /not valid before/],
  ])('%s token: HTTP 401, UNAUTHENTICATED, and nothing runs', async (_name, token, reason) => {
    const mutation = 'mutation { addUser(input: [{ username: "intruder" }]) { numUids } }';
    const { status, body } = await gql(server.url, mutation, undefined, { [HEADER]: token() });
    expect(status).toBe(401);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(body.errors?.[0].message).toMatch(reason);
    expect((await data('{ getUser(username: "intruder") { username } }')).getUser).toBeNull();
  });

  test('an invalid token is refused on GET requests too', async () => {
    const { status, body } = await gqlGet(server.url, { query: '{ queryTask { title } }' }, { [HEADER]: tokenFor({ USER: 'alice' }, { expiresIn: -10 }) });
    expect(status).toBe(401);
    expect(body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('role rules and and/or/not', () => {
  const reportTitles = async (headers: Record<string, string>) => (await data('{ queryReport { title } }', headers)).queryReport.map((report: any) => report.title).sort();

  test('the ADMIN role sees every report', async () => {
    expect(await reportTitles(admin)).toEqual(['Alice archived', 'Alice current', 'Bob current']);
  });

  test('an author sees their own reports that are not archived', async () => {
    expect(await reportTitles(alice)).toEqual(['Alice current']);
    expect(await reportTitles(bob)).toEqual(['Bob current']);
  });

  test('another role, or no token, sees none', async () => {
    expect(await reportTitles(as({ ROLE: 'USER' }))).toEqual([]);
    expect(await reportTitles({})).toEqual([]);
  });
});

describe('mutation rules', () => {
  test('add: an object the rule refuses is not written', async () => {
    const { body } = await gql(server.url, 'mutation { addTask(input: [{ title: "Forged", completed: false, user: { username: "bob" } }]) { numUids } }', undefined, alice);
    expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(body.errors?.[0].message).toMatch(/Task/);
    expect((await data('{ queryTask(filter: { title: { anyoftext: "Forged" } }) { title } }', bob)).queryTask).toEqual([]);
  });

  test('add: a multi-object add with one refused object writes nothing', async () => {
    const { body } = await gql(server.url, `mutation { addTask(input: [
      { title: "Mine three", completed: false, user: { username: "alice" } },
      { title: "Planted", completed: false, user: { username: "bob" } }
    ]) { numUids } }`, undefined, alice);
    expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await data('{ aggregateTask { count } }', alice)).aggregateTask.count).toBe(2);
    expect((await data('{ aggregateTask { count } }', bob)).aggregateTask.count).toBe(1);
  });

  test('add: an anonymous caller cannot add under the owner rule', async () => {
    const { body } = await gql(server.url, 'mutation { addTask(input: [{ title: "Nobody", completed: false, user: { username: "carol" } }]) { numUids } }');
    expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await data('{ aggregateTask { count } }', as({ USER: 'carol' }))).aggregateTask.count).toBe(0);
  });

  test('add: the payload lists the added object', async () => {
    const result = await data('mutation { addTask(input: [{ title: "Carol one", completed: false, user: { username: "carol" } }]) { numUids task { title user { username } } } }', as({ USER: 'carol' }));
    expect(result.addTask).toEqual({ numUids: 1, task: [{ title: 'Carol one', user: { username: 'carol' } }] });
  });

  test('add: nested objects are checked against their own type\'s add rule', async () => {
    const mutation = 'mutation { addUser(input: [{ username: "dave", tasks: [{ title: "Dave one", completed: false }] }]) { numUids } }';
    const refused = await gql(server.url, mutation, undefined, alice);
    expect(refused.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(refused.body.errors?.[0].message).toMatch(/add rule of Task/);
    expect((await data('{ getUser(username: "dave") { username } }')).getUser).toBeNull();

    const accepted = await data(mutation, as({ USER: 'dave' }));
    expect(accepted.addUser.numUids).toBe(2);
    expect((await data('{ getUser(username: "dave") { tasks { title } } }', as({ USER: 'dave' }))).getUser).toEqual({ tasks: [{ title: 'Dave one' }] });
  });

  test('add with upsert: changing an existing object needs its update rule', async () => {
    await data('mutation { addProfile(input: [{ handle: "alice", bio: "Hello" }]) { numUids } }');
    const upsert = 'mutation { addProfile(input: [{ handle: "alice", bio: "Changed" }], upsert: true) { numUids } }';
    const refused = await gql(server.url, upsert, undefined, bob);
    expect(refused.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await data('{ getProfile(handle: "alice") { bio } }')).getProfile).toEqual({ bio: 'Hello' });

    await data(upsert, alice);
    expect((await data('{ getProfile(handle: "alice") { bio } }')).getProfile).toEqual({ bio: 'Changed' });
  });

  test('update: only the objects the rule allows are touched, and the payload shows them', async () => {
    const result = await data('mutation { updateTask(input: { filter: {}, set: { completed: true } }) { numUids task { title completed } } }', bob);
    expect(result.updateTask).toEqual({ numUids: 1, task: [{ title: 'Bob one', completed: true }] });
    const alices = await data('{ queryTask(filter: { title: { anyoftext: "one" } }) { title completed } }', alice);
    expect(alices.queryTask).toEqual([{ title: 'Alice one', completed: false }]);
  });

  test('update: an anonymous caller touches nothing', async () => {
    const result = await data('mutation { updateTask(input: { filter: {}, set: { title: "Defaced" } }) { numUids } }');
    expect(result.updateTask.numUids).toBe(0);
    expect((await data('{ queryTask(filter: { title: { anyoftext: "Defaced" } }) { title } }', admin)).queryTask).toEqual([]);
  });

  test('delete: only the objects the rule allows are deleted; the ADMIN role may delete any', async () => {
    const byAlice = await data('mutation { deleteTask(filter: { title: { anyoftext: "one" } }) { numUids task { title } } }', alice);
    expect(byAlice.deleteTask).toEqual({ numUids: 1, task: [{ title: 'Alice one' }] });
    expect(titles((await data('{ queryTask { title } }', bob)).queryTask)).toEqual(['Bob one']);
    expect(titles((await data('{ queryTask { title } }', as({ USER: 'carol' }))).queryTask)).toEqual(['Carol one']);

    const byAdmin = await data('mutation { deleteTask(filter: { title: { anyoftext: "one" } }) { numUids } }', admin);
    expect(byAdmin.deleteTask.numUids).toBe(3); // Bob one, Carol one, Dave one
    expect((await data('{ queryTask { title } }', bob)).queryTask).toEqual([]);
  });
});

describe('rules are checked at upload', () => {
  test('a rule naming a field the type lacks is refused with its location, and the previous schema keeps serving', async () => {
    const broken = AUTH_TASK_SCHEMA.replace(/username: \{ eq: \$USER \}/, 'nickname: { eq: $USER }');
    expect(broken).not.toBe(AUTH_TASK_SCHEMA);
    const before = titles((await data('{ queryTask { title } }', alice)).queryTask);
    const { status, body } = await uploadSchema(server.url, `${broken}\n${authorizationLine({ header: HEADER })}\n`);
    expect(status).toBe(400);
    expect(body.errors?.[0].message).toMatch(/nickname/);
    expect(body.errors?.[0].locations?.[0]).toEqual({ line: expect.any(Number), column: expect.any(Number) });
    expect(titles((await data('{ queryTask { title } }', alice)).queryTask)).toEqual(before);
  });
});
