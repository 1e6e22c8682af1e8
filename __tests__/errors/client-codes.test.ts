import { activateSchema, gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { overriding } from '../helpers/store-wrap';
import { TASK_USER_SCHEMA } from '../fixtures/schemas';
import { authorizationLine, tokenFor } from '../auth/keys';
import { MASKED_INTERNAL_MESSAGE } from '../../src/server/format-error';

/** Issue 12, item 7: client mistakes answer client codes; faults answer INTERNAL_SERVER_ERROR without engine messages. */

const OWNER = 'query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { __typename } } }';
const SCHEMA = `${TASK_USER_SCHEMA.replace('type Task {', `type Task @auth(query: { rule: """${OWNER}""" }) {`)}
${authorizationLine()}
`;

/** The one error of a response, as a client reads it. */
function onlyError(body: { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }) {
  expect(body.errors).toHaveLength(1);
  const [error] = body.errors!;
  return { message: error!.message, code: error!.extensions?.code };
}

describe('client mistakes', () => {
  let server: TestServer;
  const alice = { 'X-Auth-Token': tokenFor({ USER: 'alice' }) };

  beforeAll(async () => {
    server = await startTestServer();
    await activateSchema(server.url, SCHEMA);
    await gqlData(server.url, 'mutation { addUser(input: [{ username: "alice" }]) { numUids } }');
  });

  afterAll(async () => {
    await server.close();
  });

  test.each<[string, string, string]>([
    ['first above the maximum page size', '{ queryUser(first: 20000) { username } }', 'first must be at most 10000, got 20000'],
    ['a negative offset', '{ queryUser(offset: -1) { username } }', 'offset must not be negative, got -1'],
    ['a negative first on a relation', '{ queryUser { tasks(first: -2) { title } } }', 'first must not be negative, got -2'],
    ['asc and desc in one order', '{ queryUser(order: { asc: username, desc: username }) { username } }', 'UserOrder: give either asc or desc in one order object, not both'],
    ['a TaskRef naming a missing id', 'mutation { addUser(input: [{ username: "bob", tasks: [{ id: "0x999" }] }]) { numUids } }', 'couldn\'t rewrite mutation addUser because failed to rewrite mutation payload because TaskRef: no Task with id "0x999"'],
  ])('%s: BAD_USER_INPUT', async (_name, query, message) => {
    const { status, body } = await gql(server.url, query, undefined, alice);
    expect(status).toBe(200);
    expect(onlyError(body)).toEqual({ message, code: 'BAD_USER_INPUT' });
  });

  test('a mutation refused for a missing Ref writes nothing', async () => {
    await gql(server.url, 'mutation { addUser(input: [{ username: "carol", tasks: [{ id: "0x999" }] }]) { numUids } }', undefined, alice);
    expect(await gqlData(server.url, '{ getUser(username: "carol") { username } }')).toEqual({ getUser: null });
  });

  test.each<[string, unknown, string]>([
    ['a number', 42, 'a number 42'],
    ['an object', { id: 'alice' }, 'an object {"id":"alice"}'],
    ['a list', ['alice'], 'a list ["alice"]'],
  ])('a valid token whose claim is %s where the rule declares String!: 401 UNAUTHENTICATED', async (_name, claim, described) => {
    const { status, body } = await gql(server.url, '{ queryTask { title } }', undefined, { 'X-Auth-Token': tokenFor({ USER: claim }) });
    expect(status).toBe(401);
    expect(onlyError(body)).toEqual({
      message: `invalid token in header X-Auth-Token: claim USER is ${described} where String! is declared by the @auth rule of Task`,
      code: 'UNAUTHENTICATED',
    });
  });

  test('a claim of the declared type is served', async () => {
    const { status, body } = await gql(server.url, '{ queryTask { title } }', undefined, alice);
    expect([status, body]).toEqual([200, { data: { queryTask: [] } }]);
  });
});

describe('faults of the service', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      wrapStore: (store) => overriding(store, {
        collection: (name) => {
          const collection = store.collection(name);
          if (name !== 'User') return collection;
          return { ...collection, find: async () => { throw new RangeError('Maximum call stack size exceeded'); } } as typeof collection;
        },
      }),
    });
    await activateSchema(server.url, TASK_USER_SCHEMA);
  });

  afterAll(async () => {
    await server.close();
  });

  test('INTERNAL_SERVER_ERROR with a fixed message: the engine message is not echoed', async () => {
    const { status, body } = await gql(server.url, '{ queryUser { username } }');
    expect(status).toBe(200);
    expect(onlyError(body)).toEqual({ message: MASKED_INTERNAL_MESSAGE, code: 'INTERNAL_SERVER_ERROR' });
    expect(JSON.stringify(body)).not.toContain('call stack');
  });
});
