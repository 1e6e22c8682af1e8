/** Safelist mode (`persistedOnly`): only registered operations run; an admin registers them by manifest. */
import { sha256Hex } from '../../src/persisted/index.js';
import { SYSTEM_COLLECTIONS } from '../../src/store/port.js';
import { MemoryStore, type MemoryCollection } from './memory-store.js';
import { startHarness, type Harness } from './harness.js';
import { apq, getGraphQL, postGraphQL, uploadManifest as uploadManifestTo, type AdminResult, type HttpResult } from './http-client.js';

const HELLO = 'query Hello($name: String) { hello(name: $name) }';
const INCREMENT = 'mutation Increment { increment }';
const COUNTER = 'query Counter { counter }';
const MANIFEST = {
  format: 'apollo-persisted-query-manifest',
  version: 1,
  operations: [
    { id: sha256Hex(HELLO), name: 'Hello', type: 'query', body: HELLO },
    { id: sha256Hex(INCREMENT), name: 'Increment', type: 'mutation', body: INCREMENT },
  ],
};

let store: MemoryStore;
let stored: MemoryCollection;
let harness: Harness;

beforeEach(async () => {
  store = new MemoryStore();
  stored = store.collection(SYSTEM_COLLECTIONS.persistedQueries);
  harness = await startHarness({ store, persistedOnly: true });
});

afterEach(async () => {
  await harness.close();
});

function registered(operations: number, added: number, alreadyRegistered: number) {
  return { data: { message: 'persisted query manifest registered', operations, added, alreadyRegistered } };
}

function uploadManifest(body: unknown): Promise<AdminResult> {
  return uploadManifestTo(harness.url, body);
}

function expectNotInList(result: HttpResult, status: number, message: RegExp): void {
  expect(result.status).toBe(status);
  expect(result.body.data).toBeUndefined();
  expect(result.body.errors).toEqual([{ message: expect.stringMatching(message), extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }]);
}

describe('before any manifest', () => {
  test('a hash alone is refused with 404 PERSISTED_QUERY_NOT_IN_LIST, not PersistedQueryNotFound (no retry)', async () => {
    const result = await getGraphQL(harness.url, { extensions: apq(sha256Hex(HELLO)) });
    expectNotInList(result, 404, new RegExp(`^persisted query ${sha256Hex(HELLO)} is not in the persisted query list`));
  });

  test('a query with its hash is refused with 403 and not registered: clients cannot register', async () => {
    const result = await postGraphQL(harness.url, { query: HELLO, extensions: apq(sha256Hex(HELLO)) });
    expectNotInList(result, 403, /is not in the persisted query list: .*clients cannot register new ones/);
    expect(stored.documents.size).toBe(0);
    expect(harness.pipeline.executions).toBe(0);
  });

  test('a query without a hash is refused with 403, over POST and GET', async () => {
    expectNotInList(await postGraphQL(harness.url, { query: HELLO }), 403, new RegExp(`SHA-256 ${sha256Hex(HELLO)}`));
    expectNotInList(await getGraphQL(harness.url, { query: COUNTER }), 403, /not in the persisted query list/);
    expectNotInList(await postGraphQL(harness.url, { query: HELLO, extensions: { persistedQuery: { version: 1 } } }), 403, /not in the persisted query list/);
    expect(harness.pipeline.executions).toBe(0);
  });

  test('a query of whitespace only is checked against the list like any other text', async () => {
    for (const query of [' ', '\n\t ']) {
      expectNotInList(await postGraphQL(harness.url, { query }), 403, new RegExp(`SHA-256 ${sha256Hex(query)}`));
    }
    expect(harness.pipeline.executions).toBe(0);
  });

  test('the protocol errors still come first: a wrong hash is a hash mismatch', async () => {
    const result = await postGraphQL(harness.url, { query: HELLO, extensions: apq(sha256Hex(COUNTER)) });
    expect(result.status).toBe(400);
    expect(result.body.errors![0]!.extensions?.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
  });
});

describe('after a manifest upload', () => {
  beforeEach(async () => {
    const upload = await uploadManifest(MANIFEST);
    expect(upload).toEqual({ status: 200, body: registered(2, 2, 0) });
  });

  test('its hashes run alone, over GET and POST', async () => {
    const viaGet = await getGraphQL(harness.url, { variables: { name: 'ada' }, extensions: apq(sha256Hex(HELLO)) });
    expect(viaGet.body).toEqual({ data: { hello: 'hello ada' } });
    const viaPost = await postGraphQL(harness.url, { extensions: apq(sha256Hex(INCREMENT)) });
    expect(viaPost.body).toEqual({ data: { increment: 1 } });
  });

  test('its query texts run, with or without their hash', async () => {
    expect((await postGraphQL(harness.url, { query: HELLO })).body).toEqual({ data: { hello: 'hello world' } });
    expect((await postGraphQL(harness.url, { query: HELLO, extensions: apq(sha256Hex(HELLO)) })).body).toEqual({ data: { hello: 'hello world' } });
  });

  test('anything else is still refused', async () => {
    expectNotInList(await postGraphQL(harness.url, { query: COUNTER, extensions: apq(sha256Hex(COUNTER)) }), 403, /not in the persisted query list/);
    expectNotInList(await getGraphQL(harness.url, { extensions: apq(sha256Hex(COUNTER)) }), 404, /not in the persisted query list/);
  });

  test('a registered mutation still cannot run over GET', async () => {
    const result = await getGraphQL(harness.url, { extensions: apq(sha256Hex(INCREMENT)) });
    expect(result.status).toBe(405);
    expect(harness.counter).toBe(0);
  });

  test('uploading it again adds nothing; a larger manifest adds only the new operation', async () => {
    expect(await uploadManifest(MANIFEST)).toEqual({ status: 200, body: registered(2, 0, 2) });
    const larger = { ...MANIFEST, operations: [...MANIFEST.operations, { id: sha256Hex(COUNTER), name: 'Counter', type: 'query', body: COUNTER }] };
    expect(await uploadManifest(larger)).toEqual({ status: 200, body: registered(3, 1, 2) });
    expect((await getGraphQL(harness.url, { extensions: apq(sha256Hex(COUNTER)) })).body).toEqual({ data: { counter: 0 } });
  });

  test('another instance on the same store honours the same safelist', async () => {
    const other = await startHarness({ store, persistedOnly: true });
    try {
      expect((await getGraphQL(other.url, { extensions: apq(sha256Hex(HELLO)) })).body).toEqual({ data: { hello: 'hello world' } });
      expect((await postGraphQL(other.url, { query: COUNTER })).status).toBe(403);
    } finally {
      await other.close();
    }
  });
});

test('a bad manifest is refused with 400 naming the operation and why, and nothing is stored', async () => {
  const bad = {
    ...MANIFEST,
    operations: [...MANIFEST.operations, { id: sha256Hex(HELLO), name: 'Counter', type: 'query', body: COUNTER }],
  };
  const upload = await uploadManifest(bad);
  expect(upload.status).toBe(400);
  expect(upload.body).toEqual({
    errors: [
      {
        message: `persisted query manifest refused: operations[2] (Counter): id ${sha256Hex(HELLO)} is not the SHA-256 of body (which is ${sha256Hex(COUNTER)})`,
        extensions: { code: 'BAD_MANIFEST' },
      },
    ],
  });
  expect(stored.documents.size).toBe(0);
  expect(stored.insertCalls).toBe(0);
});

test('a body that is not JSON is refused with 400', async () => {
  const upload = await uploadManifest('{"format": ');
  expect(upload.status).toBe(400);
  expect(upload.body).toEqual({
    errors: [{ message: expect.stringMatching(/^persisted query manifest refused: the body is not valid JSON: /), extensions: { code: 'BAD_MANIFEST' } }],
  });
});

test('a manifest upload while the store is unavailable answers 503 and registers nothing', async () => {
  store.unavailable = true;
  const upload = await uploadManifest(MANIFEST);
  expect(upload.status).toBe(503);
  expect(upload.body).toEqual({ errors: [{ message: expect.stringMatching(/^data store unavailable/), extensions: { code: 'STORE_UNAVAILABLE' } }] });
  store.unavailable = false;
  expect(stored.documents.size).toBe(0);
});
