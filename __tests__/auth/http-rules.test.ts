/**
 * Issue 6 acceptance over HTTP: the spec's Task/User schema with its owner rule (plus add/update/delete
 * rules and a Report type for role and and/or/not rules), tokens signed in the test. Board/Card and
 * Badge/Locker have update rules only, so their objects are visible but not always updatable (references
 * from mutations); Memo is readable by ADMIN only while anyone may write it (mutation payloads).
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

type Board {
  name: String! @id @search(by: [hash])
  cards: [Card] @hasInverse(field: board)
}

type Card @auth(update: { rule: """query($USER: String!) { queryCard(filter: { author: { eq: $USER } }) { __typename } }""" }) {
  id: ID!
  author: String! @search(by: [hash])
  title: String! @search(by: [hash])
  board: Board
}

type Badge @auth(update: { rule: """query($USER: String!) { queryBadge(filter: { holder: { eq: $USER } }) { __typename } }""" }) {
  code: String! @id @search(by: [hash])
  holder: String! @search(by: [hash])
  locker: Locker @hasInverse(field: badge)
}

type Locker {
  number: String! @id @search(by: [hash])
  badge: Badge
}

type Pal @auth(update: { rule: """query($USER: String!) { queryPal(filter: { owner: { eq: $USER } }) { __typename } }""" }) {
  handle: String! @id @search(by: [hash])
  owner: String! @search(by: [hash])
  friends: [Pal] @hasInverse(field: friends)
}

type Memo @auth(query: ${ADMIN}) {
  id: ID!
  text: String! @search(by: [hash])
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
  // The real wiring: the app registers the auth plugin itself, as `npm start` runs it.
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

  test('a has filter on a relation counts only the related objects the caller may see', async () => {
    const withTasks = '{ queryUser(filter: { has: tasks }, order: { asc: username }) { username } aggregateUser(filter: { has: tasks }) { count } }';
    expect(await data(withTasks)).toEqual({ queryUser: [], aggregateUser: { count: 0 } });
    expect(await data(withTasks, alice)).toEqual({ queryUser: [{ username: 'alice' }], aggregateUser: { count: 1 } });
    expect(await data(withTasks, bob)).toEqual({ queryUser: [{ username: 'bob' }], aggregateUser: { count: 1 } });
    const withoutTasks = '{ queryUser(filter: { not: { has: tasks } }, order: { asc: username }) { username } }';
    expect((await data(withoutTasks, alice)).queryUser).toEqual([{ username: 'bob' }, { username: 'carol' }]);
  });

  test('a has filter in an update\'s filter counts only visible related objects', async () => {
    // User has no rules, so anyone may update users; but an anonymous caller sees no task, so no user has tasks.
    const update = 'mutation { updateUser(input: { filter: { has: tasks }, set: { name: "Busy" } }) { numUids } }';
    expect((await data(update)).updateUser.numUids).toBe(0);
    expect((await data('{ getUser(username: "alice") { name } }')).getUser).toEqual({ name: 'Alice' });
  });

  test('a has filter in a delete\'s filter counts only visible related objects', async () => {
    // An anonymous caller sees no task, so no user has tasks: nothing is deleted.
    expect((await data('mutation { deleteUser(filter: { has: tasks }) { numUids } }')).deleteUser.numUids).toBe(0);
    expect((await data('{ queryUser(order: { asc: username }) { username } }')).queryUser).toEqual([{ username: 'alice' }, { username: 'bob' }, { username: 'carol' }]);
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
    expect(body.errors).toEqual([
      {
        message: '@auth query rule of Task: the @auth rule for Task: UserFilter: type User has no field "nickname"',
        locations: [{ line: 2, column: 6 }],
        extensions: { code: 'BAD_SCHEMA' },
      },
    ]);
    expect(titles((await data('{ queryTask { title } }', alice)).queryTask)).toEqual(before);
  });
});

describe('existing objects named in a mutation\'s input', () => {
  let bobsTask: string;
  let alicesTask: string;
  /** Whose task it is, asked as each of `users` (only the owner may read a task). */
  const ownerOf = async (id: string, ...users: string[]) => {
    for (const user of users) {
      const task = (await data(`{ getTask(id: "${id}") { user { username } } }`, as({ USER: user }))).getTask;
      if (task) return task.user.username as string;
    }
    return undefined;
  };

  beforeAll(async () => {
    bobsTask = (await data('mutation { addTask(input: [{ title: "Bob secret", completed: false, user: { username: "bob" } }]) { task { id } } }', bob)).addTask.task[0].id;
    alicesTask = (await data('mutation { addTask(input: [{ title: "Alice gift", completed: false, user: { username: "alice" } }]) { task { id } } }', alice)).addTask.task[0].id;
  });

  test('addUser cannot take another user\'s task by id: refused, nothing written', async () => {
    const { body } = await gql(server.url, `mutation { addUser(input: [{ username: "mallory", tasks: [{ id: "${bobsTask}" }] }]) { numUids } }`, undefined, alice);
    expect(body.errors?.[0].message).toBe(`couldn't rewrite mutation addUser because failed to rewrite mutation payload because TaskRef: no Task with id "${bobsTask}"`);
    expect(body.data?.addUser ?? null).toBeNull();
    expect((await data('{ getUser(username: "mallory") { username } }')).getUser).toBeNull();
    expect(await ownerOf(bobsTask, 'bob', 'alice', 'mallory')).toBe('bob');
  });

  test('updateUser cannot link another user\'s task to oneself: refused, nothing written', async () => {
    const mutation = `mutation { updateUser(input: { filter: { username: { eq: "alice" } }, set: { name: "Alice B", tasks: [{ id: "${bobsTask}" }] } }) { numUids } }`;
    const { body } = await gql(server.url, mutation, undefined, alice);
    expect(body.errors?.[0].message).toBe(`couldn't rewrite mutation updateUser because failed to rewrite mutation payload because TaskRef: no Task with id "${bobsTask}"`);
    expect(await ownerOf(bobsTask, 'bob', 'alice')).toBe('bob');
    expect((await data(`{ getTask(id: "${bobsTask}") { title } }`, alice)).getTask).toBeNull();
    expect((await data('{ getUser(username: "alice") { name } }')).getUser).toEqual({ name: 'Alice' });
  });

  test('a user may link their own task: updateUser hands it to carol', async () => {
    const mutation = `mutation { updateUser(input: { filter: { username: { eq: "carol" } }, set: { tasks: [{ id: "${alicesTask}" }] } }) { numUids } }`;
    expect((await data(mutation, alice)).updateUser.numUids).toBe(1);
    expect(await ownerOf(alicesTask, 'alice', 'carol')).toBe('carol');
  });

  describe('a referenced object that is visible but not updatable (Card: update rule only)', () => {
    let bobsCard: string;
    let alicesCard: string;
    const boardOf = async (id: string) => (await data(`{ getCard(id: "${id}") { board { name } } }`)).getCard.board?.name ?? null;

    beforeAll(async () => {
      await data('mutation { addBoard(input: [{ name: "alice-board" }, { name: "bob-board" }]) { numUids } }');
      const cards = await data(`mutation { addCard(input: [
        { author: "bob", title: "Bob card", board: { name: "bob-board" } },
        { author: "alice", title: "Alice card" }
      ]) { card { id title } } }`);
      bobsCard = cards.addCard.card.find((card: any) => card.title === 'Bob card').id;
      alicesCard = cards.addCard.card.find((card: any) => card.title === 'Alice card').id;
    });

    test.each<[string, () => string]>([
      ['updateBoard set', () => `mutation { updateBoard(input: { filter: { name: { eq: "alice-board" } }, set: { cards: [{ id: "${bobsCard}" }] } }) { numUids } }`],
      ['addBoard', () => `mutation { addBoard(input: [{ name: "mallory-board", cards: [{ id: "${bobsCard}" }] }]) { numUids } }`],
      ['updateBoard remove', () => `mutation { updateBoard(input: { filter: { name: { eq: "bob-board" } }, remove: { cards: [{ id: "${bobsCard}" }] } }) { numUids } }`],
    ])('%s: refused with FORBIDDEN naming the update rule, nothing written', async (_name, mutation) => {
      const { body } = await gql(server.url, mutation(), undefined, alice);
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect(body.errors?.[0].message).toMatch(new RegExp(`existing Card ${bobsCard}, which the update rule of Card does not allow`));
      expect(await boardOf(bobsCard)).toBe('bob-board');
      expect((await data('{ getBoard(name: "mallory-board") { name } }')).getBoard).toBeNull();
    });

    test('linking and unlinking one\'s own card is allowed', async () => {
      const link = `mutation { updateBoard(input: { filter: { name: { eq: "alice-board" } }, set: { cards: [{ id: "${alicesCard}" }] } }) { board { name cards { title } } } }`;
      expect((await data(link, alice)).updateBoard.board).toEqual([{ name: 'alice-board', cards: [{ title: 'Alice card' }] }]);
      const unlink = `mutation { updateBoard(input: { filter: { name: { eq: "alice-board" } }, remove: { cards: [{ id: "${alicesCard}" }] } }) { numUids } }`;
      expect((await data(unlink, alice)).updateBoard.numUids).toBe(1);
      expect(await boardOf(alicesCard)).toBeNull();
    });

    test('removing a card that is not linked changes nothing and is not refused', async () => {
      const mutation = `mutation { updateBoard(input: { filter: { name: { eq: "alice-board" } }, remove: { cards: [{ id: "${bobsCard}" }] } }) { numUids } }`;
      expect((await data(mutation, alice)).updateBoard.numUids).toBe(1);
      expect(await boardOf(bobsCard)).toBe('bob-board');
    });
  });

  describe('one-to-one edges: linking takes the target from its previous holder, whose update rule must allow it', () => {
    const lockerOf = async (code: string) => (await data(`{ getBadge(code: "${code}") { locker { number } } }`)).getBadge.locker?.number ?? null;

    beforeAll(async () => {
      await data(`mutation { addBadge(input: [
        { code: "bob-badge", holder: "bob", locker: { number: "L1" } },
        { code: "alice-badge", holder: "alice" }
      ]) { numUids } }`);
    });

    test.each<[string, string]>([
      ['from the stored side (updateBadge)', 'mutation { updateBadge(input: { filter: { code: { eq: "alice-badge" } }, set: { locker: { number: "L1" } } }) { numUids } }'],
      ['from the derived side (updateLocker)', 'mutation { updateLocker(input: { filter: { number: { eq: "L1" } }, set: { badge: { code: "alice-badge" } } }) { numUids } }'],
    ])('taking bob\'s locker %s is refused, nothing written', async (_name, mutation) => {
      const { body } = await gql(server.url, mutation, undefined, alice);
      expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect(body.errors?.[0].message).toMatch(/from the existing Badge .*, which the update rule of Badge does not allow/);
      expect(await lockerOf('bob-badge')).toBe('L1');
      expect(await lockerOf('alice-badge')).toBeNull();
    });

    test('a free locker may be linked to one\'s own badge, but not pushed onto someone else\'s', async () => {
      await data('mutation { updateBadge(input: { filter: { code: { eq: "alice-badge" } }, set: { locker: { number: "L2" } } }) { numUids } }', alice);
      expect(await lockerOf('alice-badge')).toBe('L2');
      // bob may change his own badge, but the link writes alice's badge too (it holds the edge).
      const swap = 'mutation { updateLocker(input: { filter: { number: { eq: "L1" } }, set: { badge: { code: "alice-badge" } } }) { numUids } }';
      const refused = await gql(server.url, swap, undefined, bob);
      expect(refused.body.errors?.[0].message).toMatch(/existing Badge .*, which the update rule of Badge does not allow/);
      expect(await lockerOf('bob-badge')).toBe('L1');
    });
  });

  describe('a field that is its own inverse writes both ends, so both owners\' update rules apply (Pal.friends)', () => {
    const friendsOf = async (handle: string) => ((await data(`{ getPal(handle: "${handle}") { friends { handle } } }`)).getPal.friends as { handle: string }[]).map((pal) => pal.handle).sort();

    beforeAll(async () => {
      await data('mutation { addPal(input: [{ handle: "alice-1", owner: "alice" }, { handle: "alice-2", owner: "alice" }, { handle: "bob-1", owner: "bob" }]) { numUids } }');
    });

    test.each<[string, string]>([
      ['updatePal set', 'mutation { updatePal(input: { filter: { handle: { eq: "alice-1" } }, set: { friends: [{ handle: "bob-1" }] } }) { numUids } }'],
      ['addPal', 'mutation { addPal(input: [{ handle: "alice-3", owner: "alice", friends: [{ handle: "bob-1" }] }]) { numUids } }'],
    ])('%s befriending bob\'s pal is refused: it would write bob-1 too; nothing written', async (_name, mutation) => {
      const { body } = await gql(server.url, mutation, undefined, alice);
      expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect(body.errors?.[0].message).toMatch(/existing Pal .*, which the update rule of Pal does not allow/);
      expect(await friendsOf('bob-1')).toEqual([]);
      expect(await friendsOf('alice-1')).toEqual([]);
      expect((await data('{ getPal(handle: "alice-3") { handle } }')).getPal).toBeNull();
    });

    test('befriending one\'s own pals is allowed and shows from both ends', async () => {
      await data('mutation { updatePal(input: { filter: { handle: { eq: "alice-1" } }, set: { friends: [{ handle: "alice-2" }] } }) { numUids } }', alice);
      expect(await friendsOf('alice-1')).toEqual(['alice-2']);
      expect(await friendsOf('alice-2')).toEqual(['alice-1']);
    });
  });
});

describe('the query rule hides objects in mutation payloads (Memo: ADMIN reads, anyone writes)', () => {
  test('add and update count the objects written but list only those the caller may see', async () => {
    const added = await data('mutation { addMemo(input: [{ text: "first" }]) { numUids memo { text } } }', alice);
    expect(added.addMemo).toEqual({ numUids: 1, memo: [] });
    const updated = await data('mutation { updateMemo(input: { filter: {}, set: { text: "second" } }) { numUids memo { text } } }', alice);
    expect(updated.updateMemo).toEqual({ numUids: 1, memo: [] });
    expect((await data('{ queryMemo { text } }', alice)).queryMemo).toEqual([]);
    expect((await data('{ queryMemo { text } }', admin)).queryMemo).toEqual([{ text: 'second' }]);
    const byAdmin = await data('mutation { addMemo(input: [{ text: "third" }]) { numUids memo { text } } }', admin);
    expect(byAdmin.addMemo).toEqual({ numUids: 1, memo: [{ text: 'third' }] });
  });
});

describe('the Authorization line over HTTP', () => {
  const withLine = (line: string) => `${AUTH_TASK_SCHEMA}\n${line}\n`;
  const config = (overrides: Record<string, unknown>) => {
    const base = JSON.parse(authorizationLine({ header: HEADER }).replace('# Autograph.Authorization ', ''));
    return JSON.stringify({ ...base, ...overrides });
  };

  test.each<[string, () => string, RegExp]>([
    ['a malformed line', () => '# Autograph.Authorization {"Header": "X-Auth-Token",}', /Authorization line: the JSON object is malformed/],
    ['an unknown key', () => `# Autograph.Authorization ${config({ Issuer: 'https://issuer.example' })}`, /Authorization line: unknown key "Issuer"/],
    ['an unsupported Algo', () => `# Autograph.Authorization ${config({ Algo: 'PS256' })}`, /Authorization line: "Algo" must be RS256, HS256, ES256 or EdDSA, found "PS256"/],
    ['a JWKUrl beside the VerificationKey', () => `# Autograph.Authorization ${config({ JWKUrl: 'https://keys.example/jwks.json', Algo: undefined })}`,
      /Authorization line: "VerificationKey" is not used with JWKUrl\/JWKUrls: the key set's keys name their algorithms/],
    ['a key that does not parse', () => `# Autograph.Authorization ${config({ VerificationKey: '-----BEGIN PUBLIC KEY-----\\nnot a key\\n-----END PUBLIC KEY-----' })}`,
      /Authorization line: "VerificationKey" is not an RSA public key in PEM form/],
  ])('%s: HTTP 400 naming it, and the previous schema keeps serving', async (_name, line, message) => {
    const before = await (await fetch(`${server.url}/admin/schema`)).text();
    const { status, body } = await uploadSchema(server.url, withLine(line()));
    expect(status).toBe(400);
    expect(body.errors?.map((error) => error.message)).toEqual([expect.stringMatching(message)]);
    expect(body.errors?.[0].locations?.[0]).toEqual({ line: AUTH_TASK_SCHEMA.split('\n').length + 1, column: expect.any(Number) });
    expect(await (await fetch(`${server.url}/admin/schema`)).text()).toBe(before);
    expect((await data('{ queryTask(filter: { title: { anyoftext: "Alice two" } }) { title } }', alice)).queryTask).toEqual([{ title: 'Alice two' }]);
  });

  test('# Dgraph.Authorization is accepted and configures the service like the Autograph marker', async () => {
    const line = `# Dgraph.Authorization ${config({ Header: 'X-Dgraph-Token' })}`;
    expect((await uploadSchema(server.url, withLine(line))).status).toBe(200);
    const query = '{ queryTask(filter: { title: { anyoftext: "Alice two" } }) { title } }';
    expect((await data(query, { 'X-Dgraph-Token': tokenFor({ USER: 'alice' }) })).queryTask).toEqual([{ title: 'Alice two' }]);
    expect((await data(query, alice)).queryTask).toEqual([]);
  });
});
