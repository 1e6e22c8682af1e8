/**
 * Issue 15 end to end: `@withSubscription` over WebSocket (graphql-ws's client), fed by the store's
 * change feed: initial result, updates after add/update/delete, nothing after a failed mutation, results
 * that did not change not sent again, `@auth` per subscriber, token expiry, schema swap, limits.
 */
import { authorizationLine, hsSecret, NAMESPACE, AUDIENCE } from '../auth/keys.js';
import jwt from 'jsonwebtoken';
import { activateSchema, gql, gqlData } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { record, wsClient, type TestClient } from './ws-client.js';

const OWNER_RULE = 'query($USER: String!) { queryTask(filter: { owner: { eq: $USER } }) { __typename } }';

export const LIVE_SCHEMA = `
type Task @withSubscription @auth(query: { rule: """${OWNER_RULE}""" }) {
  id: ID!
  title: String! @search(by: [hash])
  owner: String! @search(by: [hash])
  done: Boolean
}

type Note @withSubscription {
  id: ID!
  text: String! @id
}

type Tag {
  id: ID!
  name: String
}
${authorizationLine({ algo: 'HS256', header: 'X-Auth-Token' })}
`;

function token(user: string, expiresInSeconds = 3600): string {
  return jwt.sign({ [NAMESPACE]: { USER: user } }, hsSecret, { algorithm: 'HS256', audience: AUDIENCE, expiresIn: expiresInSeconds });
}

const asUser = (user: string) => ({ 'X-Auth-Token': token(user) });

/** Adds a task as its owner (the payload shows it only to them) and answers its id. */
async function addTask(server: TestServer, title: string, owner: string): Promise<string> {
  const { body } = await gql(server.url, 'mutation($t: [AddTaskInput!]!) { addTask(input: $t) { task { id } } }', { t: [{ title, owner, done: false }] }, asUser(owner));
  expect(body.errors).toBeUndefined();
  return body.data!.addTask.task[0].id;
}

let server: TestServer;
const clients: TestClient[] = [];

function client(params?: Record<string, unknown>, headers?: Record<string, string>): TestClient {
  const opened = wsClient(server.url, params, headers);
  clients.push(opened);
  return opened;
}

beforeEach(async () => {
  server = await startTestServer({ subscriptions: { debounceMs: 5, maxPerConnection: 3, maxTotal: 5 } });
  await activateSchema(server.url, LIVE_SCHEMA);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((opened) => opened.dispose()));
  await server.close();
});

const TASKS = 'subscription { queryTask(order: { asc: title }) { title done } }';

test('sends the initial result, then the new result after each add, update and delete', async () => {
  const feed = record(client(asUser('ann')), { query: TASKS });
  expect(await feed.nextResult()).toEqual({ data: { queryTask: [] } });

  const id = await addTask(server, 'write', 'ann');
  expect(await feed.nextResult()).toEqual({ data: { queryTask: [{ title: 'write', done: false }] } });

  await gqlData(server.url, 'mutation($id: [ID!]) { updateTask(input: { filter: { id: $id }, set: { done: true } }) { numUids } }', { id: [id] });
  expect(await feed.nextResult()).toEqual({ data: { queryTask: [{ title: 'write', done: true }] } });

  await gqlData(server.url, 'mutation($id: [ID!]) { deleteTask(filter: { id: $id }) { numUids } }', { id: [id] });
  expect(await feed.nextResult()).toEqual({ data: { queryTask: [] } });
  expect(feed.error).toBeUndefined();
});

test('sends nothing for a failed mutation, nor for a write that leaves the result as it was', async () => {
  const feed = record(client(asUser('ann')), { query: 'subscription { queryNote(order: { asc: text }) { text } }' });
  expect(await feed.nextResult()).toEqual({ data: { queryNote: [] } });
  await gqlData(server.url, 'mutation { addNote(input: [{ text: "one" }]) { numUids } }');
  expect(await feed.nextResult()).toEqual({ data: { queryNote: [{ text: 'one' }] } });

  // A duplicate @id fails the whole mutation: nothing is written, nothing is sent.
  const failed = await gql(server.url, 'mutation { addNote(input: [{ text: "two" }, { text: "one" }]) { numUids } }');
  expect(failed.body.errors?.[0]?.extensions?.code).toBe('DUPLICATE_ID');
  // A write to a type the subscription does not read, and one that changes nothing it shows.
  await gqlData(server.url, 'mutation { addTag(input: [{ name: "x" }]) { numUids } }');
  await gqlData(server.url, 'mutation { updateNote(input: { filter: { text: { eq: "one" } }, set: { text: "one" } }) { numUids } }');
  // Then a write it does show: the next result must be this one, so nothing came in between.
  await gqlData(server.url, 'mutation { addNote(input: [{ text: "three" }]) { numUids } }');
  expect(await feed.nextResult()).toEqual({ data: { queryNote: [{ text: 'one' }, { text: 'three' }] } });
  expect(feed.results).toHaveLength(3);
});

test('applies each subscriber’s @auth rules: a subscriber sees only its own tasks', async () => {
  const ann = record(client(asUser('ann')), { query: TASKS });
  const bob = record(client({ headers: asUser('bob') }), { query: TASKS });
  const anonymous = record(client(), { query: TASKS });
  for (const feed of [ann, bob, anonymous]) expect(await feed.nextResult()).toEqual({ data: { queryTask: [] } });
  // Different callers: three executions, none shared.
  expect(server.app.liveRegistry.executions).toBe(3);

  await addTask(server, 'ann’s', 'ann');
  expect(await ann.nextResult()).toEqual({ data: { queryTask: [{ title: 'ann’s', done: false }] } });
  await addTask(server, 'bob’s', 'bob');
  expect(await bob.nextResult()).toEqual({ data: { queryTask: [{ title: 'bob’s', done: false }] } });
  await addTask(server, 'ann’s second', 'ann');
  // Bob's task changed nothing Ann may see: her next result is the one after her own second task.
  expect(await ann.nextResult()).toEqual({ data: { queryTask: [{ title: 'ann’s', done: false }, { title: 'ann’s second', done: false }] } });
  expect(bob.results).toHaveLength(2);
  expect(anonymous.results).toEqual([{ data: { queryTask: [] } }]);
});

test('ends the subscription with UNAUTHENTICATED when the token expires, and refuses an invalid token at connect', async () => {
  const feed = record(client({ 'X-Auth-Token': token('ann', 2) }), { query: TASKS });
  expect(await feed.nextResult()).toEqual({ data: { queryTask: [] } });
  await feed.ended();
  expect(feed.completed).toBe(true);
  expect(feed.results).toHaveLength(2);
  const [expired] = feed.results[1]!.errors!;
  expect(expired!.message).toMatch(/^the token in X-Auth-Token expired at \d{4}-\d\d-\d\dT[\d:.]+Z, so the subscription ended; reconnect with a fresh token$/);
  expect(expired!.extensions).toEqual({ code: 'UNAUTHENTICATED' });

  const forged = client({ 'X-Auth-Token': jwt.sign({ [NAMESPACE]: { USER: 'ann' } }, 'not the secret', { algorithm: 'HS256', audience: AUDIENCE }) });
  const refused = record(forged, { query: TASKS });
  await refused.ended();
  expect(forged.closes[0]).toEqual({ code: 4403, reason: 'invalid token in header X-Auth-Token: invalid signature' });
  expect(refused.results).toEqual([]);
});

test('a token in the upgrade request’s headers works as in connection_init', async () => {
  const feed = record(client(undefined, asUser('ann')), { query: TASKS });
  expect(await feed.nextResult()).toEqual({ data: { queryTask: [] } });
  await addTask(server, 'mine', 'ann');
  expect(await feed.nextResult()).toEqual({ data: { queryTask: [{ title: 'mine', done: false }] } });
});

test('a schema upload ends running subscriptions with SCHEMA_CHANGED; new ones follow the new schema', async () => {
  const feed = record(client(asUser('ann')), { query: TASKS });
  await feed.nextResult();
  await activateSchema(server.url, LIVE_SCHEMA.replace('done: Boolean', 'done: Boolean\n  rank: Int'));
  await feed.ended();
  expect(feed.completed).toBe(true);
  expect(feed.results[1]).toEqual({
    errors: [{ message: 'the schema was replaced, so this subscription ended; subscribe again to follow the new schema', extensions: { code: 'SCHEMA_CHANGED' } }],
  });
  const again = record(client(asUser('ann')), { query: 'subscription { queryTask { title rank } }' });
  expect(await again.nextResult()).toEqual({ data: { queryTask: [] } });
});

test('refuses what is not a valid subscription with client error codes', async () => {
  const ws = client(asUser('ann'));
  const cases: Array<[query: string, code: string, message: string | RegExp]> = [
    ['{ queryTask { title } }', 'BAD_REQUEST', 'only subscriptions are served over WebSocket; send this query over HTTP POST to /graphql'],
    ['subscription { queryTag { name } }', 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "queryTag" on type "Subscription"/],
    ['subscription { queryTask { title ', 'GRAPHQL_PARSE_FAILED', 'Syntax Error: Expected Name, found <EOF>.'],
    ['subscription($n: Int!) { queryTask(first: $n) { title } }', 'BAD_USER_INPUT', 'Variable "$n" of required type "Int!" was not provided.'],
  ];
  for (const [query, code, message] of cases) {
    const refused = record(ws, { query });
    await refused.ended();
    const [error] = refused.error as Array<{ message: string; extensions: { code: string } }>;
    expect(error!.extensions.code).toBe(code);
    if (typeof message === 'string') expect(error!.message).toBe(message);
    else expect(error!.message).toMatch(message);
  }
});

test('limits subscriptions per connection and in total; a completed one frees its place', async () => {
  const first = client(asUser('ann'));
  const feeds = [0, 1, 2].map(() => record(first, { query: TASKS }));
  for (const feed of feeds) await feed.nextResult();
  const fourth = record(first, { query: TASKS });
  await fourth.ended();
  expect(fourth.error).toEqual([
    { message: 'this connection already runs 3 subscriptions, the most allowed per connection; complete one first', extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 3 } },
  ]);

  const second = client(asUser('bob'));
  const more = [0, 1].map(() => record(second, { query: TASKS }));
  for (const feed of more) await feed.nextResult();
  const sixth = record(second, { query: TASKS });
  await sixth.ended();
  expect(sixth.error).toEqual([
    { message: 'the service runs 5 subscriptions, the most it allows; try again later', extensions: { code: 'SUBSCRIPTIONS_AT_CAPACITY', limit: 5 } },
  ]);

  feeds[0]!.stop();
  await until(() => server.app.liveRegistry.size === 4);
  const replacement = record(second, { query: TASKS });
  expect(await replacement.nextResult()).toEqual({ data: { queryTask: [] } });
});

test('subscribers of the same operation with the same rule variables share one execution per batch', async () => {
  const query = { query: 'subscription { aggregateNote { count } }' };
  const feeds = [client(asUser('ann')), client(asUser('ann')), client()].map((ws) => record(ws, query));
  for (const feed of feeds) expect(await feed.nextResult()).toEqual({ data: { aggregateNote: { count: 0 } } });
  expect(server.app.liveRegistry.size).toBe(3);
  // Ann's two connections share; the anonymous caller (other rule variables) has its own.
  expect(server.app.liveRegistry.executions).toBe(2);
  const before = server.app.liveRegistry.stats.invalidations;
  await gqlData(server.url, 'mutation { addNote(input: [{ text: "shared" }]) { numUids } }');
  for (const feed of feeds) expect(await feed.nextResult()).toEqual({ data: { aggregateNote: { count: 1 } } });
  expect(server.app.liveRegistry.stats.invalidations - before).toBe(2);
});

test('re-runs each subscription once per batch of writes, and only those whose types were written', async () => {
  const tasks = record(client(asUser('ann')), { query: TASKS });
  const notes = record(client(asUser('ann')), { query: 'subscription { aggregateNote { count } }' });
  await tasks.nextResult();
  expect(await notes.nextResult()).toEqual({ data: { aggregateNote: { count: 0 } } });
  const before = { ...server.app.liveRegistry.stats };
  // Ten notes in one mutation are one commit; the task subscription reads no Note.
  await gqlData(server.url, `mutation { addNote(input: [${Array.from({ length: 10 }, (_, i) => `{ text: "n${i}" }`).join(', ')}]) { numUids } }`);
  expect(await notes.nextResult()).toEqual({ data: { aggregateNote: { count: 10 } } });
  expect(server.app.liveRegistry.stats.invalidations - before.invalidations).toBe(1);
  expect(tasks.results).toHaveLength(1);
});
