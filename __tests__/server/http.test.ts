import { activateSchema, gql, gqlGet, uploadSchema } from '../helpers/gql';
import { startTestServer, TEST_BACKEND_KIND, type TestServer } from '../helpers/server';
import { BROKEN_SCHEMA, TASKS_SCHEMA, TASKS_SCHEMA_V2 } from './schemas';

let server: TestServer;

afterEach(async () => {
  await server?.close();
});

describe('before any schema is uploaded', () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  it('answers POST and GET /graphql with the SCHEMA_NOT_LOADED error', async () => {
    const expected = {
      errors: [{ message: 'no schema loaded: POST your schema to /admin/schema', extensions: { code: 'SCHEMA_NOT_LOADED' } }],
    };
    const post = await gql(server.url, '{ __typename }');
    expect(post.status).toBe(503);
    expect(post.body).toEqual(expected);
    const get = await gqlGet(server.url, { query: '{ __typename }' });
    expect(get.status).toBe(503);
    expect(get.body).toEqual(expected);
  });

  it('answers GET /admin/schema with 404', async () => {
    const response = await fetch(`${server.url}/admin/schema`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      errors: [{ message: 'no schema loaded: POST your schema to /admin/schema', extensions: { code: 'SCHEMA_NOT_LOADED' } }],
    });
  });

  it('is alive on /health, and not ready on /health/ready until a schema is active', async () => {
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', schema: false, store: TEST_BACKEND_KIND });
    const notReady = await fetch(`${server.url}/health/ready`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ status: 'unavailable', schema: false, storeReady: true, store: TEST_BACKEND_KIND });

    await activateSchema(server.url, TASKS_SCHEMA);
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', schema: true, storeReady: true, store: TEST_BACKEND_KIND });
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('schema upload', () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  it('activates the schema, answers with its types, and serves the generated API', async () => {
    const upload = await uploadSchema(server.url, TASKS_SCHEMA);
    expect(upload.status).toBe(200);
    expect(upload.body).toEqual({
      data: {
        message: 'schema activated',
        types: ['Task', 'User'],
        revision: 1,
        report: expect.objectContaining({ types: { added: ['Task', 'User'], removed: [] }, breaksClients: false, needsForce: false }),
      },
    });

    const added = await gql(server.url, 'mutation { addUser(input: [{ username: "ada", name: "Ada" }]) { numUids } }');
    expect(added.body).toEqual({ data: { addUser: { numUids: 1 } } });
    const read = await gqlGet(server.url, { query: '{ queryUser { username name } }' });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: { queryUser: [{ username: 'ada', name: 'Ada' }] } });

    const health = await (await fetch(`${server.url}/health`)).json();
    expect(health).toEqual({ status: 'ok', schema: true, store: TEST_BACKEND_KIND });
  });

  it('rejects a schema with errors with 400 and line:column, and the previous schema keeps serving', async () => {
    await activateSchema(server.url, TASKS_SCHEMA);
    await gql(server.url, 'mutation { addUser(input: [{ username: "ada" }]) { numUids } }');

    const upload = await uploadSchema(server.url, BROKEN_SCHEMA);
    expect(upload.status).toBe(400);
    expect(upload.body.data).toBeUndefined();
    expect(upload.body.errors).toEqual([
      { message: 'Type Task; field owner: unknown type Person', locations: [{ line: 4, column: 10 }], extensions: { code: 'BAD_SCHEMA' } },
      {
        message: 'Type Task; field done: @search(by: [fulltext]) does not apply to Boolean (allowed: bool)',
        locations: [{ line: 5, column: 30 }],
        extensions: { code: 'BAD_SCHEMA' },
      },
    ]);

    const text = await (await fetch(`${server.url}/admin/schema`)).text();
    expect(text).toBe(TASKS_SCHEMA);
    const read = await gql(server.url, '{ queryUser { username } }');
    expect(read.body).toEqual({ data: { queryUser: [{ username: 'ada' }] } });
  });

  it('replaces the schema on re-upload; data written before stays readable', async () => {
    await activateSchema(server.url, TASKS_SCHEMA);
    await gql(server.url, 'mutation { addUser(input: [{ username: "ada", name: "Ada" }]) { numUids } }');

    const upload = await uploadSchema(server.url, TASKS_SCHEMA_V2);
    expect(upload.status).toBe(200);
    expect(upload.body.data?.types).toEqual(['Task', 'User', 'Project']);
    expect(await (await fetch(`${server.url}/admin/schema`)).text()).toBe(TASKS_SCHEMA_V2);

    const read = await gql(server.url, '{ queryUser { username name email } queryProject { name } }');
    expect(read.body).toEqual({ data: { queryUser: [{ username: 'ada', name: 'Ada', email: null }], queryProject: [] } });
  });

  it('answers GET /admin/schema with the active schema text as uploaded', async () => {
    await activateSchema(server.url, TASKS_SCHEMA);
    const response = await fetch(`${server.url}/admin/schema`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe(TASKS_SCHEMA);
  });

  it('rejects an empty upload and one that is not UTF-8 text', async () => {
    const empty = await uploadSchema(server.url, '  \n');
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ errors: [{ message: 'the schema is empty: send the schema text as the request body', extensions: { code: 'BAD_SCHEMA' } }] });

    const binary = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: new Uint8Array([0x74, 0x79, 0xff, 0xfe]) });
    expect(binary.status).toBe(400);
    expect(await binary.json()).toEqual({ errors: [{ message: 'the schema is not valid UTF-8 text', extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('creates the indexes the schema needs, and drops those a new schema no longer wants', async () => {
    await activateSchema(server.url, TASKS_SCHEMA_V2);
    const names = async (collection: string) => (await server.store.listIndexes(collection)).map((index) => index.name).sort();
    expect(await server.store.listIndexes('User')).toEqual(
      expect.arrayContaining([{ name: 'ag_unique_username', keys: { username: 1 }, unique: true, partialFilterExpression: { username: { $type: 'string' } } }]),
    );
    expect(await names('User')).toEqual(expect.arrayContaining(['ag_unique_username', 'ag_search_email']));
    expect(await names('Task')).toEqual(expect.arrayContaining(['ag_fulltext_title', 'ag_search_completed', 'ag_rel_user']));
    expect(await names('Project')).toEqual(expect.arrayContaining(['ag_search_name']));

    await activateSchema(server.url, TASKS_SCHEMA);
    expect((await names('User')).filter((name) => name.startsWith('ag_'))).toEqual(['ag_unique_username']);
    expect((await names('Project')).filter((name) => name.startsWith('ag_'))).toEqual([]);
  });

  it('refuses to make a field @id when stored values repeat, keeping the previous schema and its indexes', async () => {
    const people = 'type Person {\n  id: ID!\n  name: String\n}\n';
    await activateSchema(server.url, people);
    await gql(server.url, 'mutation { addPerson(input: [{ name: "Sam" }, { name: "Sam" }]) { numUids } }');
    const indexesBefore = await server.store.listIndexes('Person');

    const upload = await uploadSchema(server.url, people.replace('name: String', 'name: String @id'));
    expect(upload.status).toBe(400);
    expect(upload.body.errors?.[0]?.message).toMatch(/duplicate values of name/);
    expect(upload.body.errors?.[0]?.extensions).toEqual({ code: 'BAD_SCHEMA' });

    expect(await server.store.listIndexes('Person')).toEqual(indexesBefore);
    expect(await (await fetch(`${server.url}/admin/schema`)).text()).toBe(people);
    const read = await gql(server.url, '{ queryPerson { name } }');
    expect(read.body).toEqual({ data: { queryPerson: [{ name: 'Sam' }, { name: 'Sam' }] } });
  });
});

describe('HTTP routing', () => {
  beforeEach(async () => {
    server = await startTestServer({ maxBodyBytes: 2048 });
    await activateSchema(server.url, TASKS_SCHEMA);
  });

  it('answers unknown routes with a 404 JSON error', async () => {
    const response = await fetch(`${server.url}/nothing/here`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'no route for GET /nothing/here: the service answers /, /graphql, /ui/<file>, /admin/ui, /admin/schema, /admin/lambda, /admin/persisted-queries, /admin/export, /admin/import, /admin/backup, /metrics, /health and /health/ready',
          extensions: { code: 'NOT_FOUND' },
        },
      ],
    });
  });

  it.each([
    ['PUT', '/graphql', 'GET, POST'],
    ['DELETE', '/admin/schema', 'GET, POST'],
    ['POST', '/health', 'GET'],
    ['PATCH', '/health/ready', 'GET'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const response = await fetch(`${server.url}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors[0].extensions.code).toBe('METHOD_NOT_ALLOWED');
    expect(body.errors[0].message).toBe(`method ${method} is not allowed here; use ${allow.replace(', ', ' or ')}`);
  });

  it('answers a JSON body that does not parse with 400 and the parser message', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": "{ queryUser { username } }"',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
    expect(body.errors[0].message).toMatch(/^the request body is not valid JSON: /);
  });

  it('answers a body over the size limit with 413', async () => {
    const response = await gql(server.url, `{ queryUser { username } } # ${'x'.repeat(4096)}`);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      errors: [
        { message: "request body is larger than the limit of 2048 bytes (the service's --max-body-bytes)", extensions: { code: 'PAYLOAD_TOO_LARGE' } },
      ],
    });
  });

  it('serves GET /graphql with variables from the query string', async () => {
    await gql(server.url, 'mutation { addUser(input: [{ username: "ada" }, { username: "bob" }]) { numUids } }');
    const response = await gqlGet(server.url, {
      query: 'query ($name: String!) { getUser(username: $name) { username } }',
      variables: { name: 'bob' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { getUser: { username: 'bob' } } });
  });

  it('answers a simple GET (no header beyond the URL, as the spec shows it) and refuses mutations over GET', async () => {
    await gql(server.url, 'mutation { addUser(input: [{ username: "ada" }]) { numUids } }');
    const simple = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ queryUser { username } }')}`);
    expect(simple.status).toBe(200);
    expect(await simple.json()).toEqual({ data: { queryUser: [{ username: 'ada' }] } });
    const mutation = await fetch(`${server.url}/graphql?query=${encodeURIComponent('mutation { deleteUser(filter: {}) { numUids } }')}`);
    expect(mutation.status).toBe(405);
    expect((await gql(server.url, '{ queryUser { username } }')).body).toEqual({ data: { queryUser: [{ username: 'ada' }] } });
  });

  it('with csrfPrevention (--csrf-prevention), refuses a simple GET as Apollo does, and mutations over GET still with 405', async () => {
    server = await server.restart({ csrfPrevention: true });
    const simple = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ queryUser { username } }')}`);
    expect(simple.status).toBe(400);
    expect(await simple.text()).toMatch(/blocked as a potential Cross-Site Request Forgery \(CSRF\)/);
    expect((await gqlGet(server.url, { query: '{ queryUser { username } }' })).status).toBe(200);
    const mutation = await gqlGet(server.url, { query: 'mutation { deleteUser(filter: {}) { numUids } }' });
    expect(mutation.status).toBe(405);
  });
});
