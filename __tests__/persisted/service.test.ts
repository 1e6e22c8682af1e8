/**
 * End to end through the real service (createApp + startServer over the embedded store), wired the way
 * the CLI should wire it: the plugin first in `plugins`, Apollo's own APQ off (`persistedQueries: false`).
 */
import { ApolloClient, HttpLink, InMemoryCache, gql as gqlTag } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { rm } from 'node:fs/promises';
import { createPersistedQueryPlugin, sha256Hex, type PersistedQueries } from '../../src/persisted/index.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { gql, gqlGet } from '../helpers/gql.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server.js';

const SCHEMA = `type Task {
  id: ID!
  title: String! @search(by: [term])
  done: Boolean! @search
}
`;
const ADD = 'mutation Add($title: String!) { addTask(input: [{ title: $title, done: false }]) { task { title } } }';
const LIST = 'query List { queryTask(order: { asc: title }) { title done } }';
const apq = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256Hex(query) } });

let dataDir: string;
let service: TestServer | undefined;
let persisted: PersistedQueries;

async function start(options: { persistedOnly?: boolean } = {}): Promise<TestServer> {
  const store = await openEmbeddedStore(dataDir);
  persisted = createPersistedQueryPlugin({ store, persistedOnly: options.persistedOnly });
  service = await startTestServer({ dataDir, store, plugins: [persisted.plugin], persistedQueries: false, initialSchema: SCHEMA });
  return service;
}

beforeEach(async () => {
  dataDir = await makeTempDir('autograph-persisted-e2e-');
});

afterEach(async () => {
  await service?.close();
  service = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

test('the rules over the generated API: register and run by hash over GET, refuse what must be refused', async () => {
  const { url } = await start();
  const added = await gql(url, ADD, { title: 'write tests' });
  expect(added.body).toEqual({ data: { addTask: { task: [{ title: 'write tests' }] } } });

  const miss = await gqlGet(url, { extensions: apq(LIST) });
  expect(miss.status).toBe(200);
  expect(miss.body.errors?.[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });

  const register = await gqlGet(url, { query: LIST, extensions: apq(LIST) });
  expect(register.body).toEqual({ data: { queryTask: [{ title: 'write tests', done: false }] } });
  const byHash = await gqlGet(url, { extensions: apq(LIST) });
  expect(byHash.body).toEqual({ data: { queryTask: [{ title: 'write tests', done: false }] } });

  const mismatch = await gqlGet(url, { query: LIST, extensions: apq(ADD) });
  expect(mismatch.status).toBe(400);
  expect(mismatch.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');

  const mutationByGet = await gqlGet(url, { query: ADD, variables: { title: 'x' }, extensions: apq(ADD) });
  expect(mutationByGet.status).toBe(405);
  const listed = await gql(url, LIST);
  expect(listed.body.data).toEqual({ queryTask: [{ title: 'write tests', done: false }] });
});

test('Apollo Client 4 with GET for hashed queries: GET miss + POST, then one GET with data', async () => {
  const { url } = await start();
  const methods: string[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    methods.push(init?.method ?? 'GET');
    return fetch(input, init);
  };
  const client = new ApolloClient({
    cache: new InMemoryCache(),
    link: createPersistedQueryLink({ sha256: sha256Hex, useGETForHashedQueries: true }).concat(new HttpLink({ uri: `${url}/graphql`, fetch: countingFetch })),
  });
  const query = gqlTag(LIST);
  expect((await client.query({ query, fetchPolicy: 'network-only' })).data).toEqual({ queryTask: [] });
  expect(methods).toEqual(['GET', 'POST']);
  expect((await client.query({ query, fetchPolicy: 'network-only' })).data).toEqual({ queryTask: [] });
  expect(methods).toEqual(['GET', 'POST', 'GET']);
});

test('after a restart on the same data folder the hash is found', async () => {
  const first = await start();
  await gql(first.url, ADD, { title: 'survive' });
  const registered = await fetch(`${first.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: LIST, extensions: apq(LIST) }),
  });
  expect(registered.status).toBe(200);
  await first.close();
  service = undefined;

  const second = await start();
  const byHash = await gqlGet(second.url, { extensions: apq(LIST) });
  expect(byHash.body).toEqual({ data: { queryTask: [{ title: 'survive', done: false }] } });
  expect(persisted.cache.stats()).toMatchObject({ storeHits: 1 });
});

test('after a schema swap a stored query is validated again against the new schema', async () => {
  const { url, app } = await start();
  await gqlGet(url, { query: LIST, extensions: apq(LIST) });
  const swapped = await app.activateSchema(SCHEMA.replace('done: Boolean! @search', 'finished: Boolean! @search'));
  expect(swapped.ok).toBe(true);
  const byHash = await gqlGet(url, { extensions: apq(LIST) });
  expect(byHash.status).toBe(400);
  expect(byHash.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('Cannot query field "done"'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
});

test('safelist mode: unregistered operations are refused; a manifest enables its hashes', async () => {
  const { url } = await start({ persistedOnly: true });
  const refused = await gql(url, LIST);
  expect(refused.status).toBe(403);
  expect(refused.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');

  const result = await persisted.registerManifest({
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: [{ id: sha256Hex(LIST), name: 'List', type: 'query', body: LIST }],
  });
  expect(result).toEqual({ operations: 1, added: 1, alreadyRegistered: 0 });
  expect((await gqlGet(url, { extensions: apq(LIST) })).body).toEqual({ data: { queryTask: [] } });
  expect((await gql(url, ADD, { title: 'nope' })).status).toBe(403);
});
