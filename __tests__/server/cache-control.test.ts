import { activateSchema, gql, gqlGet } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASKS_SCHEMA } from './schemas';

/**
 * Every GraphQL answer tells caches not to store it (browsers cache GET answers without a header): data,
 * errors and refusals alike, over POST and GET; a header set earlier in the pipeline is kept. A query
 * operation with Dgraph's `@cacheControl(maxAge: N)` is answered `public,max-age=N`, as Dgraph answers it
 * (graphql/e2e/common/query.go, cacheControlHeader), unless the answer has errors.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, TASKS_SCHEMA);
});

afterAll(async () => {
  await server.close();
});

describe('cache-control of GraphQL answers', () => {
  it.each([
    ['a POST query with data', () => gql(server.url, '{ queryTask { title } }'), 200, undefined],
    ['a GET query with data', () => gqlGet(server.url, { query: '{ queryUser { username } }' }), 200, undefined],
    ['a field error', () => gql(server.url, '{ getUser }'), 400, 'GRAPHQL_VALIDATION_FAILED'],
    ['a syntax error', () => gql(server.url, '{ queryTask { title }'), 400, 'GRAPHQL_PARSE_FAILED'],
    ['a mutation', () => gql(server.url, 'mutation { addUser(input: [{ username: "ann" }]) { numUids } }'), 200, undefined],
  ])('%s carries cache-control: no-store', async (_name, send, status, code) => {
    const result = await send();
    expect(result.status).toBe(status);
    expect(result.body.errors?.[0]?.extensions?.code).toBe(code);
    expect(result.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps the header a persisted query refusal sets', async () => {
    const hash = 'a'.repeat(64);
    const result = await gqlGet(server.url, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(result.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(result.headers.get('cache-control')).toBe('private, no-cache, must-revalidate');
  });
});

describe('@cacheControl(maxAge:) on a query operation, as in Dgraph', () => {
  it.each([
    ['a POST query', () => gql(server.url, 'query @cacheControl(maxAge: 5) { queryTask { title } }'), 'public,max-age=5'],
    ['a named GET query', () => gqlGet(server.url, { query: 'query Users @cacheControl(maxAge: 60) { queryUser { username } }' }), 'public,max-age=60'],
    ['maxAge 0', () => gql(server.url, 'query @cacheControl(maxAge: 0) { queryTask { title } }'), 'public,max-age=0'],
    [
      'maxAge from a variable',
      () => gql(server.url, 'query ($age: Int!) @cacheControl(maxAge: $age) { queryTask { title } }', { age: 30 }),
      'public,max-age=30',
    ],
  ])('%s carries cache-control: public,max-age=N and vary: Accept-Encoding', async (_name, send, header) => {
    const result = await send();
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
    expect(result.headers.get('cache-control')).toBe(header);
    expect(result.headers.get('vary')).toMatch(/\bAccept-Encoding\b/);
  });

  it('is refused on a mutation, by validation, and the answer is not cacheable', async () => {
    const result = await gql(server.url, 'mutation @cacheControl(maxAge: 5) { addUser(input: [{ username: "cy" }]) { numUids } }');
    expect(result.status).toBe(400);
    expect(result.body.errors).toEqual([
      expect.objectContaining({ message: 'Directive "@cacheControl" may not be used on MUTATION.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
    ]);
    expect(result.headers.get('cache-control')).toBe('no-store');
    const users = await gql(server.url, '{ queryUser(filter: { username: { eq: "cy" } }) { username } }');
    expect(users.body.data).toEqual({ queryUser: [] });
  });

  it('leaves an answer with errors uncacheable', async () => {
    const result = await gql(server.url, 'query @cacheControl(maxAge: 5) { queryTask(first: -1) { title } }');
    expect(result.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a negative maxAge', async () => {
    const result = await gql(server.url, 'query @cacheControl(maxAge: -1) { queryTask { title } }');
    expect(result.status).toBe(400);
    expect(result.body.errors).toEqual([
      {
        message: '@cacheControl(maxAge:) must be 0 or more seconds; the operation gives -1',
        locations: [{ line: 1, column: 7 }],
        extensions: { code: 'BAD_USER_INPUT' },
      },
    ]);
    expect(result.headers.get('cache-control')).toBe('no-store');
  });

  it('is not in the gateway\'s view of the API (_service), as @cascade is not', async () => {
    const result = await gql(server.url, '{ _service { sdl } }');
    expect(result.body.data?._service.sdl).not.toContain('cacheControl');
    const introspected = await gql(server.url, '{ __schema { directives { name args { name type { kind ofType { name } } } locations } } }');
    expect(introspected.body.data?.__schema.directives).toContainEqual({
      name: 'cacheControl',
      args: [{ name: 'maxAge', type: { kind: 'NON_NULL', ofType: { name: 'Int' } } }],
      locations: ['QUERY'],
    });
  });
});
