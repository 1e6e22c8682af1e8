/**
 * The decision rules of spec 4.3, each over GET and over POST, through the real service: createApp with
 * its default options (the persisted query plugin over the service's store, Apollo's own APQ off), as
 * the CLI serves it.
 */
import { sha256Hex } from '../../src/persisted/index.js';
import type { TestServer } from '../helpers/server.js';
import { apq, getGraphQL, postGraphQL, type GraphQLParams, type HttpResult } from './http-client.js';
import { newPipelineCounts, pipelineSpy, type PipelineCounts } from './pipeline-spy.js';
import { ADD, COUNT, LIST, startService, storedQueries, TASK_SCHEMA } from './service-fixture.js';

const LIST_HASH = sha256Hex(LIST);
const ADD_HASH = sha256Hex(ADD);

let service: TestServer;
let pipeline: PipelineCounts;

beforeEach(async () => {
  pipeline = newPipelineCounts();
  // A caller's plugin: it runs after the persisted query plugin, so it sees what the plugin made of the request.
  service = await startService({ plugins: [pipelineSpy(pipeline)] });
  const added = await postGraphQL(service.url, { query: ADD, variables: { title: 'write tests' } });
  expect(added.body).toEqual({ data: { addTask: { numUids: 1 } } });
  pipeline.executions = 0;
});

afterEach(async () => {
  await service.close();
});

function expectError(result: HttpResult, status: number, code: string, message: RegExp): void {
  expect(result.status).toBe(status);
  expect(result.body.data).toBeUndefined();
  expect(result.body.errors).toHaveLength(1);
  expect(result.body.errors![0]).toMatchObject({ message: expect.stringMatching(message), extensions: { code } });
}

const LISTED = { data: { queryTask: [{ title: 'write tests', done: false }] } };

async function taskCount(): Promise<number> {
  const result = await postGraphQL(service.url, { query: COUNT });
  return (result.body.data as { aggregateTask: { count: number } }).aggregateTask.count;
}

describe.each(['GET', 'POST'] as const)('over %s', (method) => {
  const send = (params: GraphQLParams): Promise<HttpResult> =>
    method === 'GET' ? getGraphQL(service.url, params) : postGraphQL(service.url, params);

  test('rule 1: without extensions the query runs as an ordinary query and nothing is stored', async () => {
    expect((await send({ query: LIST })).body).toEqual(LISTED);
    expect((await storedQueries(service.store)).size).toBe(0);
  });

  test('rule 2: persistedQuery without sha256Hash runs the query and persists nothing', async () => {
    for (const persistedQuery of [{ version: 1 }, {}]) {
      const result = await send({ query: LIST, extensions: { persistedQuery } });
      expect(result.body).toEqual(LISTED);
    }
    expect((await storedQueries(service.store)).size).toBe(0);
  });

  test('section 2.3: the request object without version (version 1) registers, then finds, the query', async () => {
    const spec = { persistedQuery: { sha256Hash: LIST_HASH } };
    expectError(await send({ extensions: spec }), 200, 'PERSISTED_QUERY_NOT_FOUND', /^PersistedQueryNotFound$/);
    expect((await send({ query: LIST, extensions: spec })).body).toEqual(LISTED);
    expect([...(await storedQueries(service.store)).keys()]).toEqual([LIST_HASH]);
    expect((await send({ extensions: spec })).body).toEqual(LISTED);
    // A null version is no version either.
    expect((await send({ extensions: { persistedQuery: { version: null, sha256Hash: LIST_HASH } } })).body).toEqual(LISTED);
  });

  test('rule 3: hash and query run the query and store it under the hash, in the store', async () => {
    const result = await send({ query: LIST, extensions: apq(LIST_HASH) });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(LISTED);
    const stored = await storedQueries(service.store);
    expect([...stored.values()]).toEqual([
      { _id: LIST_HASH, query: LIST, createdAt: expect.any(String), source: 'client', bytes: 62, lastUsedAt: expect.any(Number) },
    ]);
  });

  test('rule 3: a hash that is not the SHA-256 of the query is refused with 400; nothing is stored or run', async () => {
    const result = await send({ query: LIST, extensions: apq(ADD_HASH) });
    expectError(result, 400, 'PERSISTED_QUERY_HASH_MISMATCH', /^provided sha does not match query/);
    expect(result.body.errors![0]!.message).toContain(LIST_HASH);
    expect((await storedQueries(service.store)).size).toBe(0);
    expect(pipeline.executions).toBe(0);
    expectError(await send({ extensions: apq(ADD_HASH) }), 200, 'PERSISTED_QUERY_NOT_FOUND', /^PersistedQueryNotFound$/);
  });

  test('rule 3: a query that does not validate against the schema is not stored', async () => {
    const invalid = '{ queryTask { nope } }';
    const result = await send({ query: invalid, extensions: apq(sha256Hex(invalid)) });
    expectError(result, 400, 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "nope"/);
    expect((await storedQueries(service.store)).size).toBe(0);
  });

  test('rule 4: a hash alone runs the stored query, with its variables, skipping parsing and validation', async () => {
    const byTitle = 'query ByTitle($words: String!) { queryTask(filter: { title: { anyofterms: $words } }) { title } }';
    await postGraphQL(service.url, { query: byTitle, variables: { words: 'tests' }, extensions: apq(sha256Hex(byTitle)) });
    const parsedBefore = pipeline.parses;
    const validatedBefore = pipeline.validations;
    const result = await send({ variables: { words: 'write' }, extensions: apq(sha256Hex(byTitle)) });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: { queryTask: [{ title: 'write tests' }] } });
    expect(pipeline.parses).toBe(parsedBefore);
    expect(pipeline.validations).toBe(validatedBefore);
    expect(pipeline.persistedQueryHits).toBe(1);
  });

  test('rule 5: an unknown hash alone answers PersistedQueryNotFound with 200, uncached, running nothing', async () => {
    const result = await send({ extensions: apq(LIST_HASH) });
    expectError(result, 200, 'PERSISTED_QUERY_NOT_FOUND', /^PersistedQueryNotFound$/);
    expect(result.headers.get('cache-control')).toBe('private, no-cache, must-revalidate');
    expect(pipeline.executions).toBe(0);
  });

  test('a version other than 1 is refused with 400, with or without a hash, and nothing is stored', async () => {
    for (const persistedQuery of [{ version: 2, sha256Hash: LIST_HASH }, { version: '1', sha256Hash: LIST_HASH }, { version: 0, sha256Hash: LIST_HASH }, { version: 2 }]) {
      const result = await send({ query: LIST, extensions: { persistedQuery } });
      expectError(result, 400, 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED', /^Unsupported persisted query version: .*supports version 1/);
    }
    expect(pipeline.executions).toBe(0);
    expect((await storedQueries(service.store)).size).toBe(0);
  });
});

describe('GET', () => {
  test('spec 4.1: a GET with no header beyond the URL answers, registering and then finding the query (no CSRF prevention by default)', async () => {
    const spec = { persistedQuery: { sha256Hash: LIST_HASH } };
    const registered = await getGraphQL(service.url, { query: LIST, extensions: spec }, {});
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual(LISTED);
    const found = await getGraphQL(service.url, { extensions: spec }, {});
    expect(found.status).toBe(200);
    expect(found.body).toEqual(LISTED);
    expect((await getGraphQL(service.url, { query: COUNT }, {})).body).toEqual({ data: { aggregateTask: { count: 1 } } });
  });

  test('with csrfPrevention (--csrf-prevention), a GET without a preflight-forcing header is refused before any lookup or execution', async () => {
    service = await service.restart({ csrfPrevention: true });
    await postGraphQL(service.url, { query: LIST, extensions: apq(LIST_HASH) });
    const executed = pipeline.executions;
    for (const params of [{ extensions: apq(LIST_HASH) }, { query: LIST }]) {
      const result = await getGraphQL(service.url, params, {});
      expectError(result, 400, 'BAD_REQUEST', /^This operation has been blocked as a potential Cross-Site Request Forgery \(CSRF\)\. /);
    }
    expect(pipeline.executions).toBe(executed);
  });

  test('with csrfPrevention, a GET passes with apollo-require-preflight, x-apollo-operation-name or a JSON content type', async () => {
    service = await service.restart({ csrfPrevention: true });
    await postGraphQL(service.url, { query: LIST, extensions: apq(LIST_HASH) });
    const variants: Record<string, string>[] = [{ 'apollo-require-preflight': 'true' }, { 'x-apollo-operation-name': 'List' }, { 'content-type': 'application/json' }];
    for (const headers of variants) {
      expect((await getGraphQL(service.url, { extensions: apq(LIST_HASH) }, headers)).body).toEqual(LISTED);
    }
  });

  test.each([
    ['without CSRF prevention, with no extra header', false, {}],
    ['with csrfPrevention, with the header it asks for', true, { 'apollo-require-preflight': 'true' }],
  ])('a mutation by GET is refused with 405 and not run: %s', async (_name, csrfPrevention, headers: Record<string, string>) => {
    if (csrfPrevention) service = await service.restart({ csrfPrevention: true });
    const result = await getGraphQL(service.url, { query: ADD, variables: { title: 'by GET' } }, headers);
    expectError(result, 405, 'BAD_REQUEST', /^GET requests only support query operations, not mutation operations$/);
    expect(result.headers.get('allow')).toBe('POST');
    expect(await taskCount()).toBe(1);
  });

  test('a mutation sent with its hash by GET is refused with 405, not run and not stored', async () => {
    const result = await getGraphQL(service.url, { query: ADD, variables: { title: 'by GET' }, extensions: apq(ADD_HASH) });
    expectError(result, 405, 'BAD_REQUEST', /^GET requests only support query operations, not mutation operations$/);
    expect(result.headers.get('allow')).toBe('POST');
    expect(await taskCount()).toBe(1);
    expect((await storedQueries(service.store)).size).toBe(0);
  });

  test('a stored mutation requested by hash alone is refused over GET and runs over POST', async () => {
    const registered = await postGraphQL(service.url, { query: ADD, variables: { title: 'first' }, extensions: apq(ADD_HASH) });
    expect(registered.body).toEqual({ data: { addTask: { numUids: 1 } } });
    expect((await getGraphQL(service.url, { variables: { title: 'by GET' }, extensions: apq(ADD_HASH) })).status).toBe(405);
    expect(await taskCount()).toBe(2);
    const byHash = await postGraphQL(service.url, { variables: { title: 'by hash' }, extensions: apq(ADD_HASH) });
    expect(byHash.body).toEqual({ data: { addTask: { numUids: 1 } } });
    expect(await taskCount()).toBe(3);
  });
});

test('after a schema swap a stored query is validated again against the new schema', async () => {
  await postGraphQL(service.url, { query: LIST, extensions: apq(LIST_HASH) });
  expect((await getGraphQL(service.url, { extensions: apq(LIST_HASH) })).body).toEqual(LISTED);

  // The stored task has a `done` and no `finished`: the rename makes it unreadable, so it needs `force`.
  const renamed = await service.app.activateSchema(TASK_SCHEMA.replace('done: Boolean! @search', 'finished: Boolean! @search'), { force: true });
  expect(renamed.ok).toBe(true);
  const underNewSchema = await getGraphQL(service.url, { extensions: apq(LIST_HASH) });
  expectError(underNewSchema, 400, 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "done" on type "Task"/);

  const restored = await service.app.activateSchema(TASK_SCHEMA);
  expect(restored.ok).toBe(true);
  expect((await getGraphQL(service.url, { extensions: apq(LIST_HASH) })).body).toEqual({ data: { queryTask: [{ title: 'write tests', done: false }] } });
});

test('a manifest uploaded outside safelist mode registers its hashes for every client', async () => {
  const upload = await fetch(`${service.url}/admin/persisted-queries`, {
    method: 'POST',
    body: JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: LIST_HASH, name: 'List', type: 'query', body: LIST }] }),
  });
  expect(upload.status).toBe(200);
  expect((await getGraphQL(service.url, { extensions: apq(LIST_HASH) })).body).toEqual(LISTED);
  // Clients still register their own.
  expect((await postGraphQL(service.url, { query: COUNT, extensions: apq(sha256Hex(COUNT)) })).body).toEqual({ data: { aggregateTask: { count: 1 } } });
  expect([...(await storedQueries(service.store)).keys()].sort()).toEqual([LIST_HASH, sha256Hex(COUNT)].sort());
});
