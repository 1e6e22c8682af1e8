/**
 * Apollo Client 4 with the persisted query link and GET for hashed queries, against the harness with
 * CSRF prevention on: the first call misses by GET and registers by POST, the next is one GET by hash.
 */
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { createHash } from 'node:crypto';
import { SYSTEM_COLLECTIONS } from '../../src/store/port.js';
import { MemoryStore } from './memory-store.js';
import { startHarness, type Harness } from './harness.js';

interface SentRequest {
  method: string;
  query: string | null;
  extensions: unknown;
  status: number;
  /** `extensions.code` of the response's first error, if any. */
  errorCode: string | undefined;
}

let harness: Harness;
let store: MemoryStore;

beforeEach(async () => {
  store = new MemoryStore();
  harness = await startHarness({ store });
});

afterEach(async () => {
  await harness.close();
});

function clientRecording(sent: SentRequest[]): ApolloClient {
  const recordingFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { query?: string; extensions?: unknown }) : undefined;
    const response = await fetch(input, init);
    const answer = (await response.clone().json()) as { errors?: { extensions?: { code?: string } }[] };
    sent.push({
      method,
      query: method === 'GET' ? url.searchParams.get('query') : (body?.query ?? null),
      extensions: method === 'GET' ? JSON.parse(url.searchParams.get('extensions') ?? 'null') : body?.extensions,
      status: response.status,
      errorCode: answer.errors?.[0]?.extensions?.code,
    });
    return response;
  };
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  return new ApolloClient({
    cache: new InMemoryCache(),
    link: createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
      new HttpLink({ uri: `${harness.url}/graphql`, fetch: recordingFetch }),
    ),
  });
}

const HELLO = gql`
  query Hello($name: String) {
    hello(name: $name)
  }
`;

test('first call: GET by hash misses, POST registers; second call: one GET by hash returns data', async () => {
  const sent: SentRequest[] = [];
  const client = clientRecording(sent);

  const first = await client.query({ query: HELLO, variables: { name: 'ada' }, fetchPolicy: 'network-only' });
  expect(first.data).toEqual({ hello: 'hello ada' });
  expect(sent).toHaveLength(2);
  const [miss, register] = sent as [SentRequest, SentRequest];
  expect(miss).toMatchObject({ method: 'GET', query: null, status: 200, errorCode: 'PERSISTED_QUERY_NOT_FOUND' });
  const hash = (miss.extensions as { persistedQuery: { sha256Hash: string } }).persistedQuery.sha256Hash;
  expect(miss.extensions).toMatchObject({ persistedQuery: { version: 1, sha256Hash: hash } });
  expect(register).toMatchObject({ method: 'POST', status: 200, errorCode: undefined, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
  expect(register.query).toContain('hello(name: $name)');
  expect(store.collection(SYSTEM_COLLECTIONS.persistedQueries).documents.get(hash)).toMatchObject({ query: register.query });

  const second = await client.query({ query: HELLO, variables: { name: 'bo' }, fetchPolicy: 'network-only' });
  expect(second.data).toEqual({ hello: 'hello bo' });
  expect(sent).toHaveLength(3);
  expect(sent[2]).toMatchObject({ method: 'GET', query: null, extensions: { persistedQuery: { version: 1, sha256Hash: hash } }, status: 200, errorCode: undefined });
});

test('a second client (new page load) runs the registered query with a single GET', async () => {
  await clientRecording([]).query({ query: HELLO, fetchPolicy: 'network-only' });
  const sent: SentRequest[] = [];
  const result = await clientRecording(sent).query({ query: HELLO, variables: { name: 'cy' }, fetchPolicy: 'network-only' });
  expect(result.data).toEqual({ hello: 'hello cy' });
  expect(sent.map((request) => [request.method, request.query])).toEqual([['GET', null]]);
});
