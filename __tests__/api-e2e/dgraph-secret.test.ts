/**
 * `@secret` over HTTP, on both backends: the password is taken by add/update inputs, stored as a bcrypt
 * hash only, never answered, filtered or ordered; `checkUserPassword` answers the object or null, within
 * the type's query and password rules; and a request's bcrypt work is bounded.
 */
import { authorizationLine, tokenFor } from '../auth/keys.js';
import { activateSchema, gql } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const HEADER = 'X-Auth-Token';
const as = (claims: Record<string, unknown>) => ({ [HEADER]: tokenFor(claims) });
const alice = as({ USER: 'alice' });
const bob = as({ USER: 'bob' });
const carol = as({ USER: 'carol' });

const SELF = 'query($USER: String!) { queryUser(filter: { username: { eq: $USER } }) { username } }';
const SCHEMA = `
type User @secret(field: "password", pred: "User.password") @auth(
  query: { rule: "query { queryUser(filter: { active: true }) { username } }" },
  password: { rule: """${SELF}""" }
) {
  username: String! @id @search(by: [hash])
  name: String
  active: Boolean @search
}
${authorizationLine({ header: HEADER })}
`;

let server: TestServer;

async function data(query: string, headers: Record<string, string> = {}): Promise<Record<string, any>> {
  const { status, body } = await gql(server.url, query, undefined, headers);
  if (status !== 200 || body.errors) throw new Error(`HTTP ${status}: ${JSON.stringify(body)}`);
  return body.data as Record<string, any>;
}

const check = (username: string, password: string) => `{ checkUserPassword(username: ${JSON.stringify(username)}, password: ${JSON.stringify(password)}) { username name } }`;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await data(`mutation { addUser(input: [
    { username: "alice", name: "Alice", active: true, password: "alice-secret" },
    { username: "bob", name: "Bob", active: true, password: "bob-secret" },
    { username: "carol", name: "Carol", active: false, password: "carol-secret" }
  ]) { numUids } }`);
});

afterAll(() => server.close());

describe('checkUserPassword', () => {
  test('the right password answers the object', async () => {
    expect(await data(check('alice', 'alice-secret'), alice)).toEqual({ checkUserPassword: { username: 'alice', name: 'Alice' } });
  });

  test('a wrong password answers null, without an error (as Dgraph)', async () => {
    const { status, body } = await gql(server.url, check('alice', 'guess'), undefined, alice);
    expect(status).toBe(200);
    expect(body).toEqual({ data: { checkUserPassword: null } });
  });

  test('an unknown user answers null', async () => {
    expect(await data(check('nobody', 'x'), alice)).toEqual({ checkUserPassword: null });
  });

  test('the password rule: bob cannot check alice, even with her password', async () => {
    expect(await data(check('alice', 'alice-secret'), bob)).toEqual({ checkUserPassword: null });
    expect(await data(check('alice', 'alice-secret'))).toEqual({ checkUserPassword: null });
  });

  test('the query rule: an object the caller may not query answers null', async () => {
    expect(await data(check('carol', 'carol-secret'), carol)).toEqual({ checkUserPassword: null });
  });
});

describe('the stored password', () => {
  test('is a bcrypt hash under the stored name, never the password', async () => {
    const [stored] = await server.store.collection('User').find({ username: 'alice' });
    expect(stored!['User%2Epassword']).toMatch(/^\$2[aby]\$10\$.{53}$/);
    expect(JSON.stringify(stored)).not.toContain('alice-secret');
  });

  test('is no field of the type: asking, filtering or ordering by it is a validation error', async () => {
    for (const query of [
      '{ queryUser { username password } }',
      '{ queryUser(filter: { password: { eq: "x" } }) { username } }',
      '{ queryUser(order: { asc: password }) { username } }',
      '{ queryUser(filter: { has: password }) { username } }',
    ]) {
      const { body } = await gql(server.url, query, undefined, alice);
      expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });

  test('an update sets a new one: the new password works, the old one no longer does', async () => {
    await data('mutation { updateUser(input: { filter: { username: { eq: "bob" } }, set: { password: "bob-new" } }) { numUids } }', bob);
    expect(await data(check('bob', 'bob-new'), bob)).toEqual({ checkUserPassword: { username: 'bob', name: 'Bob' } });
    expect(await data(check('bob', 'bob-secret'), bob)).toEqual({ checkUserPassword: null });
  });
});

describe('bcrypt work per request is bounded (10 operations)', () => {
  test('eleven checks in one request: ten are answered, the eleventh fails with TOO_MANY_PASSWORD_OPERATIONS', async () => {
    const aliases = Array.from({ length: 11 }, (_, index) => `c${index}: checkUserPassword(username: "alice", password: "guess${index}") { username }`);
    const { status, body } = await gql(server.url, `{ ${aliases.join('\n')} }`, undefined, alice);
    expect(status).toBe(200);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!.extensions?.code).toBe('TOO_MANY_PASSWORD_OPERATIONS');
    expect(body.errors![0]!.message).toBe('checkUserPassword needs 1 password operation (bcrypt), and this request has 0 of 10 left; send fewer passwords per request (--max-password-operations)');
    expect(Object.values(body.data ?? {}).filter((value) => value === null)).toHaveLength(11);
  });

  test('an add of eleven passwords is refused before anything is hashed or stored', async () => {
    const inputs = Array.from({ length: 11 }, (_, index) => `{ username: "bulk${index}", password: "p${index}" }`);
    const { body } = await gql(server.url, `mutation { addUser(input: [${inputs.join(', ')}]) { numUids } }`);
    expect(body.errors?.[0]?.extensions?.code).toBe('TOO_MANY_PASSWORD_OPERATIONS');
    expect(body.errors?.[0]?.message).toBe('addUser needs 11 password operations (bcrypt), and this request has 10 of 10 left; send fewer passwords per request (--max-password-operations)');
    expect(await server.store.collection('User').count({ username: { $regex: '^bulk' } })).toBe(0);
  });
});

describe('a secret declared on an interface (Dgraph\'s interfaces-with-types-and-password)', () => {
  beforeAll(async () => {
    await activateSchema(server.url, [
      'interface Character @secret(field: "password") {\n  id: ID!\n  name: String! @search(by: [exact])\n}',
      'type Human implements Character {\n  credits: Int\n}',
      'type Droid implements Character {\n  primaryFunction: String\n}',
    ].join('\n'));
  });

  test('each type takes the password; checkCharacterPassword and checkHumanPassword find the object by id', async () => {
    const { addHuman } = await data('mutation { addHuman(input: [{ name: "Luke", credits: 3, password: "force" }]) { human { id } } }');
    const id = addHuman.human[0].id as string;
    expect(await data(`{ checkCharacterPassword(id: "${id}", password: "force") { name ... on Human { credits } } }`)).toEqual({
      checkCharacterPassword: { name: 'Luke', credits: 3 },
    });
    expect(await data(`{ checkHumanPassword(id: "${id}", password: "force") { name } }`)).toEqual({ checkHumanPassword: { name: 'Luke' } });
    expect(await data(`{ checkDroidPassword(id: "${id}", password: "force") { name } }`)).toEqual({ checkDroidPassword: null });
    expect(await data(`{ checkCharacterPassword(id: "${id}", password: "dark side") { name } }`)).toEqual({ checkCharacterPassword: null });
  });
});

describe('the allowance follows --max-password-operations', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ maxPasswordOperations: 2 });
    await activateSchema(small.url, 'type Account @secret(field: "password") {\n  login: String! @id\n}');
  });
  afterAll(() => small.close());

  test('two passwords in one request pass, three are refused', async () => {
    const add = (logins: string[]) => gql(small.url, `mutation { addAccount(input: [${logins.map((login) => `{ login: "${login}", password: "p" }`).join(', ')}]) { numUids } }`);
    expect((await add(['a', 'b'])).body).toEqual({ data: { addAccount: { numUids: 2 } } });
    const refused = await add(['c', 'd', 'e']);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('TOO_MANY_PASSWORD_OPERATIONS');
    expect(refused.body.errors?.[0]?.message).toBe('addAccount needs 3 password operations (bcrypt), and this request has 2 of 2 left; send fewer passwords per request (--max-password-operations)');
  });
});
