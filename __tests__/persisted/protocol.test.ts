/** The decision rules of spec 4.3 over HTTP, each over GET and over POST, against the test harness. */
import { sha256Hex } from '../../src/persisted/index.js';
import { SYSTEM_COLLECTIONS } from '../../src/store/port.js';
import { MemoryStore, type MemoryCollection } from './memory-store.js';
import { startHarness, type Harness } from './harness.js';
import { apq, getGraphQL, postGraphQL, type GraphQLParams, type HttpResult } from './http-client.js';

const HELLO = 'query Hello($name: String) { hello(name: $name) }';
const HELLO_HASH = sha256Hex(HELLO);

let store: MemoryStore;
let stored: MemoryCollection;
let harness: Harness;
const warnings: string[] = [];

beforeEach(async () => {
  store = new MemoryStore();
  stored = store.collection(SYSTEM_COLLECTIONS.persistedQueries);
  warnings.length = 0;
  harness = await startHarness({ store, logger: { warn: (message) => warnings.push(message) } });
});

afterEach(async () => {
  await harness.close();
});

function expectError(result: HttpResult, status: number, code: string, message: string | RegExp): void {
  expect(result.status).toBe(status);
  expect(result.body.data).toBeUndefined();
  expect(result.body.errors).toHaveLength(1);
  expect(result.body.errors![0]!.extensions?.code).toBe(code);
  if (typeof message === 'string') {
    expect(result.body.errors![0]!.message).toBe(message);
  } else {
    expect(result.body.errors![0]!.message).toMatch(message);
  }
}

describe.each(['GET', 'POST'] as const)('over %s', (method) => {
  const send = (params: GraphQLParams): Promise<HttpResult> =>
    method === 'GET' ? getGraphQL(harness.url, params) : postGraphQL(harness.url, params);

  test('rule 1: without extensions the query runs as an ordinary query and nothing is stored', async () => {
    const result = await send({ query: HELLO, variables: { name: 'ada' } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: { hello: 'hello ada' } });
    expect(stored.documents.size).toBe(0);
  });

  test('rule 2: persistedQuery without sha256Hash runs the query and persists nothing', async () => {
    const result = await send({ query: HELLO, extensions: { persistedQuery: { version: 1 } } });
    expect(result.body).toEqual({ data: { hello: 'hello world' } });
    expect(stored.documents.size).toBe(0);
    expect(stored.insertCalls).toBe(0);
  });

  test('rule 2: without sha256Hash, a version other than 1 is still refused with 400 and runs nothing', async () => {
    for (const persistedQuery of [{ version: 2 }, { version: '1' }]) {
      const result = await send({ query: HELLO, extensions: { persistedQuery } });
      expectError(result, 400, 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED', /^Unsupported persisted query version/);
    }
    expect(harness.pipeline.executions).toBe(0);
    expect(stored.insertCalls).toBe(0);
  });

  test('rule 3: hash and query run the query and store it under the hash', async () => {
    const result = await send({ query: HELLO, variables: { name: 'bo' }, extensions: apq(HELLO_HASH) });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: { hello: 'hello bo' } });
    const document = stored.documents.get(HELLO_HASH);
    expect(document).toEqual({
      _id: HELLO_HASH, query: HELLO, createdAt: expect.any(String), source: 'client', bytes: 49, lastUsedAt: expect.any(Number),
    });
    expect(new Date(document!.createdAt as string).toISOString()).toBe(document!.createdAt);
  });

  test('rule 3: registering a hash that is stored already runs the query and writes nothing new', async () => {
    await send({ query: HELLO, extensions: apq(HELLO_HASH) });
    const again = await send({ query: HELLO, extensions: apq(HELLO_HASH) });
    expect(again.body).toEqual({ data: { hello: 'hello world' } });
    expect(stored.insertCalls).toBe(1);
    expect(stored.documents.size).toBe(1);
  });

  test('rule 3: a hash that is not the SHA-256 of the query is refused with 400 and nothing is stored', async () => {
    const otherHash = sha256Hex('{ counter }');
    const result = await send({ query: HELLO, extensions: apq(otherHash) });
    expectError(result, 400, 'PERSISTED_QUERY_HASH_MISMATCH', /^provided sha does not match query/);
    expect(result.body.errors![0]!.message).toContain(otherHash);
    expect(result.body.errors![0]!.message).toContain(HELLO_HASH);
    expect(stored.documents.size).toBe(0);
    expect(harness.pipeline.executions).toBe(0);
  });

  test('rule 3: a query that does not parse is refused and not stored', async () => {
    const broken = '{ hello(';
    const result = await send({ query: broken, extensions: apq(sha256Hex(broken)) });
    expectError(result, 400, 'GRAPHQL_PARSE_FAILED', /Syntax Error/);
    expect(stored.documents.size).toBe(0);
    const lookup = await send({ extensions: apq(sha256Hex(broken)) });
    expect(lookup.body.errors![0]!.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  test('rule 3: a query that parses but does not validate is not stored', async () => {
    const invalid = '{ goodbye }';
    const result = await send({ query: invalid, extensions: apq(sha256Hex(invalid)) });
    expectError(result, 400, 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "goodbye"/);
    expect(stored.documents.size).toBe(0);
  });

  test('rule 4: a hash alone runs the stored query, with its variables and operation name', async () => {
    await postGraphQL(harness.url, { query: HELLO, extensions: apq(HELLO_HASH) });
    const result = await send({ operationName: 'Hello', variables: { name: 'cy' }, extensions: apq(HELLO_HASH) });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: { hello: 'hello cy' } });
  });

  test('rule 4: a hash in upper case finds the query stored under its lower-case form', async () => {
    await postGraphQL(harness.url, { query: HELLO, extensions: apq(HELLO_HASH) });
    const result = await send({ extensions: apq(HELLO_HASH.toUpperCase()) });
    expect(result.body).toEqual({ data: { hello: 'hello world' } });
  });

  test('rule 5: an unknown hash alone answers PersistedQueryNotFound with 200, uncached, running nothing', async () => {
    const result = await send({ extensions: apq(sha256Hex('{ counter }')) });
    expectError(result, 200, 'PERSISTED_QUERY_NOT_FOUND', 'PersistedQueryNotFound');
    expect(result.headers.get('cache-control')).toBe('private, no-cache, must-revalidate');
    expect(harness.pipeline.executions).toBe(0);
  });

  test('a version other than 1 is refused with 400', async () => {
    const versions = [{ version: 2 }, { version: '1' }, { version: 0 }];
    for (const version of versions) {
      const result = await send({ query: HELLO, extensions: { persistedQuery: { ...version, sha256Hash: HELLO_HASH } } });
      expectError(result, 400, 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED', /^Unsupported persisted query version/);
    }
    expect(stored.documents.size).toBe(0);
  });

  test('a sha256Hash that is not 64 hex digits is refused with 400, saying what was sent', async () => {
    const result = await send({ extensions: apq('abc123') });
    expectError(result, 400, 'PERSISTED_QUERY_INVALID_HASH', /64 hexadecimal digits.*"abc123"/);
  });

  test('a persistedQuery that is not an object is refused with 400', async () => {
    const result = await send({ query: HELLO, extensions: { persistedQuery: 'yes' } });
    expectError(result, 400, 'PERSISTED_QUERY_INVALID_EXTENSION', /must be an object/);
  });

  test('a hash alone for a stored query skips parsing and validation (Apollo document cache)', async () => {
    await send({ query: HELLO, extensions: apq(HELLO_HASH) });
    expect(harness.pipeline).toEqual({ parses: 1, validations: 1, executions: 1, persistedQueryHits: 0, persistedQueryRegistrations: 1 });
    for (const name of ['a', 'b']) {
      const result = await send({ variables: { name }, extensions: apq(HELLO_HASH) });
      expect(result.body).toEqual({ data: { hello: `hello ${name}` } });
    }
    expect(harness.pipeline).toEqual({ parses: 1, validations: 1, executions: 3, persistedQueryHits: 2, persistedQueryRegistrations: 1 });
  });

  test('a refused request is never parsed as itself nor executed', async () => {
    await send({ query: HELLO, extensions: apq(sha256Hex('x')) });
    await send({ extensions: apq(sha256Hex('unknown')) });
    expect(harness.pipeline.executions).toBe(0);
  });

  test('when the store is unavailable, a hash not in memory answers 503 STORE_UNAVAILABLE', async () => {
    store.unavailable = true;
    const result = await send({ extensions: apq(HELLO_HASH) });
    expectError(result, 503, 'STORE_UNAVAILABLE', 'persisted query lookup failed: data store unavailable: the test made the store unavailable');
    expect(warnings).toEqual([]); // an outage is the store's to report, not one warning per request
  });

  test('a lookup failing for another reason answers 500 without the reason, and logs the reason', async () => {
    jest.spyOn(stored, 'find').mockRejectedValueOnce(new Error('disk on fire'));
    const result = await send({ extensions: apq(HELLO_HASH) });
    expectError(result, 500, 'INTERNAL_SERVER_ERROR', 'persisted query lookup failed');
    expect(warnings).toEqual([`persisted query lookup of ${HELLO_HASH} failed: disk on fire`]);
  });

  test('when the store is unavailable, a query with its hash still runs; the failed write is logged', async () => {
    store.unavailable = true;
    const result = await send({ query: HELLO, extensions: apq(HELLO_HASH) });
    expect(result.body).toEqual({ data: { hello: 'hello world' } });
    expect(warnings).toEqual([expect.stringContaining(`persisted query ${HELLO_HASH} was not stored: data store unavailable`)]);
    store.unavailable = false;
    const lookup = await send({ extensions: apq(HELLO_HASH) });
    expect(lookup.body.errors![0]!.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  test('other extensions reach Apollo untouched', async () => {
    const result = await send({ query: HELLO, extensions: { ...apq(HELLO_HASH), clientLibrary: { name: 'test' } } });
    expect(result.body).toEqual({ data: { hello: 'hello world' } });
  });
});

describe('size limit', () => {
  test('a query larger than maxQueryBytes is refused with 400 and not stored', async () => {
    await harness.close();
    harness = await startHarness({ store, maxQueryBytes: 40 });
    const big = `{ hello(name: "${'x'.repeat(40)}") }`;
    const result = await postGraphQL(harness.url, { query: big, extensions: apq(sha256Hex(big)) });
    expectError(result, 400, 'PERSISTED_QUERY_TOO_LARGE', `the query text is ${Buffer.byteLength(big)} bytes; queries to persist may be at most 40 bytes`);
    expect(stored.documents.size).toBe(0);
    const small = '{ counter }';
    expect((await postGraphQL(harness.url, { query: small, extensions: apq(sha256Hex(small)) })).body).toEqual({ data: { counter: 0 } });
    expect(stored.documents.has(sha256Hex(small))).toBe(true);
  });
});

describe('GET', () => {
  const INCREMENT = 'mutation Increment { increment }';
  const INCREMENT_HASH = sha256Hex(INCREMENT);

  test('CSRF prevention refuses a GET without a preflight-forcing header, before any lookup', async () => {
    const result = await getGraphQL(harness.url, { extensions: apq(HELLO_HASH) }, {});
    expectError(result, 400, 'BAD_REQUEST', /^This operation has been blocked as a potential Cross-Site Request Forgery \(CSRF\)\. /);
    expect(stored.findCalls).toBe(0);
  });

  test('CSRF prevention lets a GET through with apollo-require-preflight or a JSON content type', async () => {
    await postGraphQL(harness.url, { query: HELLO, extensions: apq(HELLO_HASH) });
    const variants: Record<string, string>[] = [{ 'apollo-require-preflight': 'true' }, { 'x-apollo-operation-name': 'Hello' }, { 'content-type': 'application/json' }];
    for (const headers of variants) {
      const result = await getGraphQL(harness.url, { extensions: apq(HELLO_HASH) }, headers);
      expect(result.body).toEqual({ data: { hello: 'hello world' } });
    }
  });

  test('a mutation sent with its hash by GET is refused with 405, not run and not stored', async () => {
    const result = await getGraphQL(harness.url, { query: INCREMENT, extensions: apq(INCREMENT_HASH) });
    expectError(result, 405, 'BAD_REQUEST', 'GET requests only support query operations, not mutation operations');
    expect(result.headers.get('allow')).toBe('POST');
    expect(harness.counter).toBe(0);
    expect(stored.documents.size).toBe(0);
  });

  test('a stored mutation requested by hash over GET is refused with 405; over POST it runs', async () => {
    const registered = await postGraphQL(harness.url, { query: INCREMENT, extensions: apq(INCREMENT_HASH) });
    expect(registered.body).toEqual({ data: { increment: 1 } });
    const viaGet = await getGraphQL(harness.url, { extensions: apq(INCREMENT_HASH) });
    expect(viaGet.status).toBe(405);
    expect(harness.counter).toBe(1);
    const viaPost = await postGraphQL(harness.url, { extensions: apq(INCREMENT_HASH) });
    expect(viaPost.body).toEqual({ data: { increment: 2 } });
  });
});
