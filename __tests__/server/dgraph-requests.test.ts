import { gunzipSync, gzipSync } from 'node:zlib';
import { activateSchema, gql, gqlGet } from '../helpers/gql';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';
import { startTestServer, type TestServer } from '../helpers/server';
import { record, wsClient } from '../live/ws-client';
import { exportText, seed } from '../transfer/fixture';
import { TASKS_SCHEMA, TASKS_SCHEMA_V2 } from './schemas';

/**
 * Requests as Dgraph's clients send them (Dgraph's graphql/admin/http.go reads them so): an empty
 * `operationName`, `application/graphql` bodies, gzip-compressed bodies, and answers compressed for a
 * client that takes gzip.
 */
const LIMIT = 32 * 1024 * 1024;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: LIMIT });
  await activateSchema(server.url, TASKS_SCHEMA);
  await gql(server.url, 'mutation { addUser(input: [{ username: "ada" }, { username: "bob" }]) { numUids } }');
});

afterAll(async () => {
  await server.close();
});

const USERS = { data: { queryUser: [{ username: 'ada' }, { username: 'bob' }] } };

function post(body: Buffer | string, headers: Record<string, string>, path = '/graphql'): Promise<RawAnswer> {
  return rawRequest(`${server.url}${path}`, { method: 'POST', headers, body });
}

function json(answer: RawAnswer): any {
  const text = answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body;
  return JSON.parse(text.toString('utf8'));
}

describe('a POST of another Content-Type is refused naming the ones the endpoint takes, as Dgraph refuses it', () => {
  it.each([
    ['text/plain', { 'content-type': 'text/plain' }, 'not text/plain'],
    ['form-encoded (curl -d)', { 'content-type': 'application/x-www-form-urlencoded' }, 'not application/x-www-form-urlencoded'],
    ['text/xml with a charset', { 'content-type': 'Text/XML; charset=utf-8' }, 'not text/xml'],
    ['no Content-Type', {}, 'and this one has no Content-Type'],
  ])('%s', async (_name, headers: Record<string, string>, ending) => {
    const answer = await post('{"query":"{ queryUser { username } }"}', headers);
    expect(answer.status).toBe(415);
    expect(json(answer)).toEqual({
      errors: [
        {
          message: `a POST to the GraphQL endpoint takes Content-Type application/json (a JSON request object) or application/graphql (the query text), ${ending}`,
          extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' },
        },
      ],
    });
  });
});

describe('an empty operationName means none, as in Dgraph', () => {
  it.each([
    ['an anonymous operation', '{ queryUser { username } }'],
    ['one named operation', 'query Users { queryUser { username } }'],
  ])('in a POST body, for %s', async (_name, query) => {
    const answer = await post(JSON.stringify({ query, operationName: '', variables: {} }), { 'content-type': 'application/json' });
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual(USERS);
  });

  it('in a GET query string', async () => {
    const answer = await gqlGet(server.url, { query: 'query Users { queryUser { username } }', operationName: '' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(USERS);
  });

  it('in a subscription over WebSocket', async () => {
    const live = await startTestServer();
    const client = wsClient(live.url);
    try {
      await activateSchema(live.url, 'type Note @withSubscription {\n  id: ID!\n  text: String\n}\n');
      await gql(live.url, 'mutation { addNote(input: [{ text: "hi" }]) { numUids } }');
      const feed = record(client, { query: 'subscription Notes { queryNote { text } }', operationName: '' });
      expect(await feed.nextResult()).toEqual({ data: { queryNote: [{ text: 'hi' }] } });
      feed.stop();
    } finally {
      await client.dispose();
      await live.close();
    }
  });

  it('still asks for a name when the document has several operations', async () => {
    const query = 'query A { queryUser { username } } query B { queryTask { title } }';
    const answer = await post(JSON.stringify({ query, operationName: '' }), { 'content-type': 'application/json' });
    expect(answer.status).toBe(400);
    expect(json(answer).errors[0].message).toBe('Must provide operation name if query contains multiple operations.');
  });
});

describe('Content-Type: application/graphql, the query text as the body', () => {
  it.each([['application/graphql'], ['application/graphql; charset=utf-8'], ['Application/GraphQL;charset="UTF-8"']])(
    'runs a query sent as %s',
    async (contentType) => {
      const answer = await post('{ queryUser { username } }', { 'content-type': contentType });
      expect(answer.status).toBe(200);
      expect(json(answer)).toEqual(USERS);
    },
  );

  it('runs a mutation', async () => {
    const answer = await post('mutation { addTask(input: [{ title: "tea", completed: false, user: { username: "ada" } }]) { numUids } }', {
      'content-type': 'application/graphql',
    });
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ data: { addTask: { numUids: 1 } } });
    await gql(server.url, 'mutation { deleteTask(filter: {}) { numUids } }');
  });

  it('refuses a charset other than UTF-8 with 415, and bytes that are not UTF-8 with 400', async () => {
    const latin = await post(Buffer.from('{ queryUser { username } }', 'latin1'), { 'content-type': 'application/graphql; charset=iso-8859-1' });
    expect(latin.status).toBe(415);
    expect(json(latin).errors).toEqual([
      { message: 'an application/graphql body must be UTF-8 text; the request says charset=iso-8859-1', extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
    ]);
    const notText = await post(Buffer.from([0x7b, 0xff, 0x7d]), { 'content-type': 'application/graphql' });
    expect(notText.status).toBe(400);
    expect(json(notText).errors).toEqual([
      { message: 'the application/graphql request body is not valid UTF-8 text', extensions: { code: 'BAD_REQUEST' } },
    ]);
  });
});

describe('gzip-compressed request bodies (Content-Encoding: gzip)', () => {
  it.each([
    ['application/json', JSON.stringify({ query: '{ queryUser { username } }', operationName: '' })],
    ['application/graphql', '{ queryUser { username } }'],
  ])('are decompressed, %s', async (contentType, body) => {
    const answer = await post(gzipSync(body), { 'content-type': contentType, 'content-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual(USERS);
  });

  it('are bounded by --max-body-bytes once decompressed: a zip bomb is a 413, answered without inflating it whole', async () => {
    // 256 gzip members of 64 MiB of zeros each: 16 GiB inflated, about 16 MiB on the wire (under the limit).
    const member = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const bomb = Buffer.concat(Array.from({ length: 256 }, () => member));
    expect(bomb.length).toBeLessThan(LIMIT);
    const answer = await post(bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(answer.status).toBe(413);
    expect(json(answer).errors).toEqual([
      {
        message: `request body is larger than the limit of ${LIMIT} bytes (the service's --max-body-bytes) once decompressed`,
        extensions: { code: 'PAYLOAD_TOO_LARGE' },
      },
    ]);
    const after = await gql(server.url, '{ queryUser { username } }');
    expect(after.body).toEqual(USERS);
  }, 20_000);

  it('answer 400 when the body is not gzip', async () => {
    const truncated = gzipSync(JSON.stringify({ query: '{ queryUser { username } }' })).subarray(0, 20);
    for (const body of [Buffer.from('{"query":"{ queryUser { username } }"}'), truncated]) {
      const answer = await post(body, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      expect(answer.status).toBe(400);
      const [error] = json(answer).errors;
      expect(error.extensions).toEqual({ code: 'BAD_REQUEST' });
      expect(error.message).toMatch(/^the request body is not valid gzip \(it came with Content-Encoding: gzip\): (incorrect header check|unexpected end of file)$/);
    }
  });

  it('refuse another Content-Encoding with 415', async () => {
    const answer = await post('{"query":"{ queryUser { username } }"}', { 'content-type': 'application/json', 'content-encoding': 'br' });
    expect(answer.status).toBe(415);
    expect(answer.headers['accept-encoding']).toBe('gzip, identity');
    expect(json(answer).errors).toEqual([
      {
        message: 'Content-Encoding "br" is not supported: send the request body as it is, or compressed with Content-Encoding: gzip',
        extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' },
      },
    ]);
  });

  it('are read by the admin endpoints too (a schema upload)', async () => {
    const answer = await post(gzipSync(TASKS_SCHEMA_V2), { 'content-encoding': 'gzip' }, '/admin/schema');
    expect(answer.status).toBe(200);
    expect(json(answer).data.types).toContain('Project');
    const bomb = gzipSync(Buffer.alloc(LIMIT + 1, 0x20));
    const refused = await post(bomb, { 'content-encoding': 'gzip' }, '/admin/schema');
    expect(refused.status).toBe(413);
    expect(json(refused).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('gzip-compressed answers (Accept-Encoding: gzip)', () => {
  const LARGE = '{ a: queryUser { username name } b: queryUser { username name } ' + 'c: __schema { types { name } } }';

  it('compress an answer of 1 KiB or more, and say the answer varies with Accept-Encoding', async () => {
    const plain = await post(JSON.stringify({ query: LARGE }), { 'content-type': 'application/json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const answer = await post(JSON.stringify({ query: LARGE }), { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers.vary).toMatch(/\bAccept-Encoding\b/);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(answer.body).equals(plain.body)).toBe(true);
  });

  it('compress a GET answer too', async () => {
    const answer = await rawRequest(`${server.url}/graphql?query=${encodeURIComponent(LARGE)}`, {
      headers: { 'accept-encoding': 'gzip', 'apollo-require-preflight': 'true' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(json(answer).data.a).toEqual(USERS.data.queryUser.map((user) => ({ ...user, name: null })));
  });

  it.each([
    ['a small answer', '{ queryUser { username } }', 'gzip'],
    ['gzip refused by weight', LARGE, 'gzip;q=0, identity'],
    ['another coding only', LARGE, 'br'],
  ])('leave %s uncompressed', async (_name, query, acceptEncoding) => {
    const answer = await post(JSON.stringify({ query }), { 'content-type': 'application/json', 'accept-encoding': acceptEncoding });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toMatch(/\bAccept-Encoding\b/);
    expect(json(answer).errors).toBeUndefined();
  });
});

describe('a gzip-compressed import file (POST /admin/import)', () => {
  let source: TestServer;
  let target: TestServer;

  beforeAll(async () => {
    source = await startTestServer();
    await seed(source.url);
    target = await startTestServer();
  });

  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  it('is refused when it is not gzip, and imports when it is', async () => {
    const { text } = await exportText(source.url);
    const corrupt = gzipSync(text).subarray(0, 200);
    const refused = await rawRequest(`${target.url}/admin/import`, { method: 'POST', headers: { 'content-encoding': 'gzip' }, body: corrupt });
    expect(refused.status).toBe(400);
    expect(json(refused).errors).toEqual([
      { message: 'the request body is not valid gzip (it came with Content-Encoding: gzip): unexpected end of file', extensions: { code: 'BAD_REQUEST' } },
    ]);
    const other = await rawRequest(`${target.url}/admin/import`, { method: 'POST', headers: { 'content-encoding': 'deflate' }, body: text });
    expect(other.status).toBe(415);
    const imported = await rawRequest(`${target.url}/admin/import`, { method: 'POST', headers: { 'content-encoding': 'gzip' }, body: gzipSync(text) });
    expect(imported.status).toBe(200);
    expect(json(imported).data.schemaActivated).toBe(true);
    const again = await exportText(target.url);
    expect(again.text.split('\n').slice(1)).toEqual(text.split('\n').slice(1));
  });
});
