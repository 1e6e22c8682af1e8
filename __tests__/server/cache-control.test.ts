import { activateSchema, gql, gqlGet } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASKS_SCHEMA } from './schemas';

/**
 * Every GraphQL answer tells caches not to store it (browsers cache GET answers without a header): data,
 * errors and refusals alike, over POST and GET; a header set earlier in the pipeline is kept.
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
