/** CORS and the introspection switch, as a browser or a client sees them over HTTP. */
import { authorizationLine } from '../auth/keys';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASKS_SCHEMA } from './schemas';

const APP = 'https://app.example.com';
const SCHEMA_WITH_AUTH = `${TASKS_SCHEMA}\n${authorizationLine({ header: 'X-Auth-Token' })}\n`;

let server: TestServer;

afterEach(async () => {
  await server?.close();
});

function preflight(origin: string, requestHeaders = 'content-type'): Promise<Response> {
  return fetch(`${server.url}/graphql`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
  });
}

/** The CORS headers of an answer: `access-control-*`, and `Vary` less `Accept-Encoding` (which gzip answers add). */
function corsHeadersOf(response: { headers: Headers }): Record<string, string> {
  const vary = (response.headers.get('vary') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '' && name !== 'Accept-Encoding');
  return Object.fromEntries([
    ...[...response.headers].filter(([name]) => name.startsWith('access-control-')),
    ...(vary.length > 0 ? [['vary', vary.join(', ')]] : []),
  ]);
}

describe('CORS with --cors-origins set to a list', () => {
  beforeEach(async () => {
    server = await startTestServer({ corsOrigins: [APP, 'http://localhost:3000'] });
    await activateSchema(server.url, SCHEMA_WITH_AUTH);
  });

  it('answers a preflight from a listed origin with 204, the methods, the headers incl. the schema’s auth header, and max-age', async () => {
    const response = await preflight(APP, 'content-type, x-auth-token');
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(corsHeadersOf(response)).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'content-type, apollo-require-preflight, x-apollo-operation-name, apollographql-client-name, apollographql-client-version, x-request-id, x-auth-token',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
  });

  it('refuses a preflight from an origin not in the list with 403, naming the origin', async () => {
    const response = await preflight('https://evil.example');
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(await response.json()).toEqual({
      errors: [
        { message: "origin https://evil.example may not call /graphql: it is not in the service's --cors-origins", extensions: { code: 'FORBIDDEN' } },
      ],
    });
  });

  it('lets a listed origin read the answer of a POST, and of a GET with apollo-require-preflight', async () => {
    const posted = await gql(server.url, '{ queryTask { id } }', undefined, { origin: APP });
    expect(posted.status).toBe(200);
    expect(posted.body).toEqual({ data: { queryTask: [] } });
    expect(posted.headers.get('access-control-allow-origin')).toBe(APP);
    expect(posted.headers.get('vary')).toMatch(/\bOrigin\b/);

    const got = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ queryTask { id } }')}`, {
      headers: { origin: 'http://localhost:3000', 'apollo-require-preflight': 'true' },
    });
    expect(got.status).toBe(200);
    expect(got.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });

  it('sends the CORS headers with error answers too, so a browser can read them', async () => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { origin: APP, 'content-type': 'application/json' }, body: '{' });
    expect(response.status).toBe(400);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('does not allow an unlisted origin to read an answer', async () => {
    const response = await gql(server.url, '{ queryTask { id } }', undefined, { origin: 'https://evil.example' });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it('offers CORS on /graphql only: without an admin token the admin endpoints refuse even a listed origin’s page', async () => {
    const response = await fetch(`${server.url}/admin/schema`, { headers: { origin: APP } });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS with --cors-origins *', () => {
  it('allows any origin without Vary', async () => {
    server = await startTestServer({ corsOrigins: '*' });
    await activateSchema(server.url, TASKS_SCHEMA);
    const response = await preflight('https://anyone.example');
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'content-type, apollo-require-preflight, x-apollo-operation-name, apollographql-client-name, apollographql-client-version, x-request-id',
      'access-control-max-age': '600',
    });
  });
});

describe('CORS not configured', () => {
  beforeEach(async () => {
    server = await startTestServer();
    await activateSchema(server.url, TASKS_SCHEMA);
  });

  it('answers a preflight with 405 and no CORS header', async () => {
    const response = await preflight(APP);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(corsHeadersOf(response)).toEqual({});
  });

  it('sends no CORS header on a cross-origin POST', async () => {
    const response = await gql(server.url, '{ queryTask { id } }', undefined, { origin: APP });
    expect(response.status).toBe(200);
    expect(corsHeadersOf(response)).toEqual({});
  });
});

const INTROSPECTION_OFF = 'introspection is disabled on this service, so __schema cannot be queried (the service\'s --introspection switch)';

describe('introspection switched off', () => {
  beforeEach(async () => {
    server = await startTestServer({ introspection: false });
    await activateSchema(server.url, TASKS_SCHEMA);
  });

  it.each([
    ['__schema', '{ __schema { queryType { name } } }', INTROSPECTION_OFF, { line: 1, column: 3 }],
    ['__type', '{ __type(name: "Task") { name } }', INTROSPECTION_OFF.replace('__schema', '__type'), { line: 1, column: 3 }],
    ['__schema nested in a fragment', 'query { ...F } fragment F on Query { __schema { types { name } } }', INTROSPECTION_OFF, { line: 1, column: 38 }],
  ])('refuses %s with GRAPHQL_VALIDATION_FAILED (400)', async (_name, query, message, location) => {
    const response = await gql(server.url, query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: [{ message, locations: [location], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  });

  it('removes "Did you mean" suggestions from validation errors', async () => {
    const response = await gql(server.url, '{ queryTask { titel } }');
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { message: 'Cannot query field "titel" on type "Task".', locations: [{ line: 1, column: 15 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
    ]);
  });

  it('removes "Did you mean" suggestions from variable errors too', async () => {
    const response = await gql(server.url, 'query($f: TaskFilter) { queryTask(filter: $f) { title } }', { f: { titel: { alloftext: 'x' } } });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        message: 'Variable "$f" got invalid value { titel: { alloftext: "x" } }; Field "titel" is not defined by type "TaskFilter".',
        locations: [{ line: 1, column: 7 }],
        extensions: { code: 'BAD_USER_INPUT' },
      },
    ]);
  });

  it('still answers __typename and _service { sdl }, which gateways need', async () => {
    const response = await gql<{ __typename: string; _service: { sdl: string } }>(server.url, '{ __typename _service { sdl } }');
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.__typename).toBe('Query');
    expect(response.body.data?._service.sdl).toContain('type Task');
  });
});

describe('introspection on (the default outside production)', () => {
  it('answers __schema and suggests field names', async () => {
    server = await startTestServer();
    await activateSchema(server.url, TASKS_SCHEMA);
    const introspected = await gql(server.url, '{ __schema { queryType { name } } }');
    expect(introspected.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    const misspelt = await gql(server.url, '{ queryTask { titel } }');
    expect(misspelt.body.errors?.[0]?.message).toBe('Cannot query field "titel" on type "Task". Did you mean "title"?');
    const badVariable = await gql(server.url, 'query($f: TaskFilter) { queryTask(filter: $f) { title } }', { f: { titel: { alloftext: 'x' } } });
    expect(badVariable.body.errors?.[0]?.message).toMatch(/ Did you mean "title"\?$/);
  });
});
