/**
 * End to end through the real service, wired as the CLI wires it (createApp's defaults, embedded store):
 * Apollo Client's persisted query link, hashes surviving a restart, and the LRU in front of the store.
 */
import { ApolloClient, HttpLink, InMemoryCache, gql as gqlTag } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { sha256Hex } from '../../src/persisted/index.js';
import { makeTempDir, type TestServer } from '../helpers/server.js';
import { apq, getGraphQL, postGraphQL } from './http-client.js';
import { ADD, COUNT, LIST, startService, storedQueries } from './service-fixture.js';

let dataDir: string;
let service: TestServer | undefined;

beforeEach(async () => {
  dataDir = await makeTempDir('autograph-persisted-e2e-');
});

afterEach(async () => {
  await service?.close();
  service = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

async function start(options: { lruMaxEntries?: number } = {}): Promise<TestServer> {
  service = await startService({ dataDir, persistedQueries: options });
  return service;
}

interface SentRequest {
  method: string;
  /** The query text sent, if any. */
  query: string | null;
  hash: string | undefined;
  errorCode: string | undefined;
}

function clientRecording(url: string, sent: SentRequest[]): ApolloClient {
  const recordingFetch: typeof fetch = async (input, init) => {
    const method = init?.method ?? 'GET';
    const searchParams = new URL(String(input)).searchParams;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { query?: string; extensions?: unknown }) : undefined;
    const extensions = (method === 'GET' ? JSON.parse(searchParams.get('extensions') ?? 'null') : body?.extensions) as
      | { persistedQuery?: { sha256Hash?: string } }
      | null;
    const response = await fetch(input, init);
    const answer = (await response.clone().json()) as { errors?: { extensions?: { code?: string } }[] };
    sent.push({
      method,
      query: method === 'GET' ? searchParams.get('query') : (body?.query ?? null),
      hash: extensions?.persistedQuery?.sha256Hash,
      errorCode: answer.errors?.[0]?.extensions?.code,
    });
    return response;
  };
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  return new ApolloClient({
    cache: new InMemoryCache(),
    link: createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(new HttpLink({ uri: `${url}/graphql`, fetch: recordingFetch })),
  });
}

test('Apollo Client with GET for hashed queries: GET miss then POST registers; next time one GET by hash returns data', async () => {
  const { url, store } = await start();
  await postGraphQL(url, { query: ADD, variables: { title: 'from the client' } });
  const sent: SentRequest[] = [];
  const query = gqlTag`
    query ByTitle($words: String!) {
      queryTask(filter: { title: { anyofterms: $words } }) { title }
    }
  `;

  const first = await clientRecording(url, sent).query({ query, variables: { words: 'client' }, fetchPolicy: 'network-only' });
  expect(first.data).toEqual({ queryTask: [{ __typename: 'Task', title: 'from the client' }] });
  const hash = sent[0]?.hash;
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  expect(sent).toEqual([
    { method: 'GET', query: null, hash, errorCode: 'PERSISTED_QUERY_NOT_FOUND' },
    { method: 'POST', query: expect.stringContaining('query ByTitle'), hash, errorCode: undefined },
  ]);
  expect((await storedQueries(store)).get(hash!)?.query).toBe(sent[1]!.query);

  // A new client (another page load) has nothing cached: one GET with the hash alone.
  const again: SentRequest[] = [];
  const second = await clientRecording(url, again).query({ query, variables: { words: 'from' }, fetchPolicy: 'network-only' });
  expect(second.data).toEqual({ queryTask: [{ __typename: 'Task', title: 'from the client' }] });
  expect(again).toEqual([{ method: 'GET', query: null, hash, errorCode: undefined }]);
});

test('after a restart on the same data folder the hash is found, read from the store', async () => {
  const first = await start();
  await postGraphQL(first.url, { query: ADD, variables: { title: 'survive' } });
  expect((await postGraphQL(first.url, { query: LIST, extensions: apq(sha256Hex(LIST)) })).status).toBe(200);
  await first.close();
  service = undefined;

  const second = await start();
  const byHash = await getGraphQL(second.url, { extensions: apq(sha256Hex(LIST)) });
  expect(byHash.body).toEqual({ data: { queryTask: [{ title: 'survive', done: false }] } });
  expect(second.app.persistedQueries.cache.stats()).toMatchObject({ storeHits: 1, misses: 0 });
});

test('a hash evicted from the LRU is found in the store', async () => {
  const { url, app } = await start({ lruMaxEntries: 1 });
  await postGraphQL(url, { query: LIST, extensions: apq(sha256Hex(LIST)) });
  await postGraphQL(url, { query: COUNT, extensions: apq(sha256Hex(COUNT)) });
  expect(app.persistedQueries.cache.isRemembered(sha256Hex(LIST))).toBe(false);
  expect(app.persistedQueries.cache.stats()).toMatchObject({ storeHits: 0, entries: 1 });

  const byHash = await getGraphQL(url, { extensions: apq(sha256Hex(LIST)) });
  expect(byHash.body).toEqual({ data: { queryTask: [] } });
  expect(app.persistedQueries.cache.stats()).toMatchObject({ storeHits: 1, misses: 0, entries: 1 });
  expect(app.persistedQueries.cache.isRemembered(sha256Hex(LIST))).toBe(true);
});
