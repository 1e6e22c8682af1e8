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
