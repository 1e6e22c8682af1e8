import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { activateSchema, gql, uploadSchema } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/** Issue 7: `@custom(http:)` fields against a local HTTP server on 127.0.0.1, through the real service. */

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

let remote: Server;
let remoteBase: string;
const received: Received[] = [];

function answer(res: ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

/** The remote service the schema's @custom fields call. */
function route(request: Received, res: ServerResponse): void {
  const url = new URL(request.path, 'http://remote');
  const bio = /^\/bios\/([^/]+)$/.exec(url.pathname);
  if (request.method === 'GET' && bio) {
    const lang = url.searchParams.get('lang');
    return answer(res, 200, JSON.stringify(`${decodeURIComponent(bio[1]!)} writes${lang ? ` in ${lang}` : ''}`));
  }
  if (request.method === 'POST' && url.pathname === '/score') {
    const { author, bonus } = request.body as { author: { name: string; id: string }; bonus?: number };
    return answer(res, 200, JSON.stringify(author.name.length + (bonus ?? 0)));
  }
  if (request.method === 'POST' && url.pathname === '/ranks') {
    const entries = request.body as Array<{ id: string; name: string }>;
    const ordered = [...entries].sort((a, b) => a.name.localeCompare(b.name));
    return answer(res, 200, JSON.stringify(entries.map((entry) => ordered.indexOf(entry) + 1)));
  }
  if (request.method === 'GET' && url.pathname === '/whoami') {
    const h = request.headers;
    return answer(res, 200, JSON.stringify(`user=${h['x-user'] ?? '-'} trace=${h['x-trace'] ?? '-'} key=${h['x-api-key'] ?? '-'} cookie=${h.cookie ?? '-'}`));
  }
  if (request.method === 'POST' && url.pathname === '/notify') {
    return answer(res, 200, JSON.stringify(typeof (request.body as { text?: unknown }).text === 'string'));
  }
  if (url.pathname === '/broken') return answer(res, 500, 'database exploded', 'text/plain');
  if (url.pathname === '/text') return answer(res, 200, 'this is not json', 'text/plain');
  if (url.pathname === '/slow') return; // never answers; the server closes the connection at the end
  answer(res, 404, 'no such route', 'text/plain');
}

beforeAll(async () => {
  remote = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: text ? JSON.parse(text) : undefined };
      received.push(request);
      route(request, res);
    });
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteBase = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterAll(async () => {
  remote.closeAllConnections();
  await new Promise((resolve) => remote.close(resolve));
});

function schema(base: string): string {
  const localhostBase = base.replace('127.0.0.1', 'localhost');
  return `
type Author {
  id: ID!
  name: String! @search(by: [hash])
  handle: String!
  bio(lang: String): String @custom(http: { url: "${base}/bios/$handle?lang=$lang", method: GET })
  score(bonus: Int): Int @custom(http: { url: "${base}/score", method: POST, body: "{ author: { name: $name, id: $id }, bonus: $bonus }" })
  rank: Int @custom(http: { url: "${base}/ranks", method: POST, body: "{ id: $id, name: $name }", mode: BATCH })
}

type Query {
  whoAmI: String @custom(http: { url: "${base}/whoami", method: GET, forwardHeaders: ["X-User", "X-Trace:X-Request-Id"], secretHeaders: ["X-Api-Key:API_KEY"] })
  whoViaLambda: String @lambda
  broken: String @custom(http: { url: "${base}/broken", method: GET })
  notJson: String @custom(http: { url: "${base}/text", method: GET })
  slow: String @custom(http: { url: "${base}/slow", method: GET })
  elsewhere: String @custom(http: { url: "${localhostBase}/whoami", method: GET })
}

type Mutation {
  notify(message: String!): Boolean @custom(http: { url: "${base}/notify", method: POST, body: "{ text: $message }" })
}
`;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ customAllow: ['127.0.0.1'], customSecrets: { API_KEY: 's3cret' }, customTimeoutMs: 500 });
  await activateSchema(server.url, schema(remoteBase));
  await loadLambda(server.url, `self.addGraphQLResolvers({
    'Query.whoViaLambda': async ({ graphql }) => (await graphql('{ whoAmI }')).data.whoAmI,
  });`);
  const { body } = await gql(server.url, `mutation {
    addAuthor(input: [{ name: "Ada", handle: "ada lovelace" }, { name: "Grace", handle: "grace" }, { name: "Edsger", handle: "ewd" }]) { numUids }
  }`);
  expect(body.errors).toBeUndefined();
});

afterAll(() => server.close());

beforeEach(() => {
  received.length = 0;
});

const pathsOf = (method: string, prefix: string) => received.filter((r) => r.method === method && r.path.startsWith(prefix)).map((r) => r.path);

test('GET with url placeholders from the parent and the arguments, one request per parent (SINGLE)', async () => {
  const { body } = await gql(server.url, `{ queryAuthor(order: { asc: name }) { name bio(lang: "en") plain: bio } }`);
  expect(body.errors).toBeUndefined();
  expect(body.data!.queryAuthor).toEqual([
    { name: 'Ada', bio: 'ada lovelace writes in en', plain: 'ada lovelace writes' },
    { name: 'Edsger', bio: 'ewd writes in en', plain: 'ewd writes' },
    { name: 'Grace', bio: 'grace writes in en', plain: 'grace writes' },
  ]);
  expect(pathsOf('GET', '/bios/').sort()).toEqual([
    '/bios/ada%20lovelace', '/bios/ada%20lovelace?lang=en', '/bios/ewd', '/bios/ewd?lang=en', '/bios/grace', '/bios/grace?lang=en',
  ]);
});

test('POST with a body template filled from the parent (its id included) and the arguments', async () => {
  const { body } = await gql(server.url, `{ queryAuthor(filter: { name: { eq: "Grace" } }) { id score(bonus: 10) } }`);
  expect(body.errors).toBeUndefined();
  const [grace] = body.data!.queryAuthor;
  expect(grace.score).toBe(15);
  expect(received).toEqual([
    expect.objectContaining({ method: 'POST', path: '/score', body: { author: { name: 'Grace', id: grace.id }, bonus: 10 } }),
  ]);
  expect(received[0]!.headers['content-type']).toBe('application/json');
});

test('BATCH mode sends every parent of the level in one request and spreads the answer back', async () => {
  const { body } = await gql(server.url, `{ queryAuthor(order: { desc: name }) { name rank } }`);
  expect(body.errors).toBeUndefined();
  expect(body.data!.queryAuthor).toEqual([
    { name: 'Grace', rank: 3 },
    { name: 'Edsger', rank: 2 },
    { name: 'Ada', rank: 1 },
  ]);
  expect(received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /ranks']);
  expect(received[0]!.body).toEqual([
    { id: expect.any(String), name: 'Grace' },
    { id: expect.any(String), name: 'Edsger' },
    { id: expect.any(String), name: 'Ada' },
  ]);
});

test('forwarded headers copy (and rename) the caller\'s headers; secret headers come from configuration only', async () => {
  const { body } = await gql(server.url, `{ whoAmI }`, undefined, { 'x-user': 'ada', 'x-request-id': 't-42', cookie: 'session=private' });
  expect(body).toEqual({ data: { whoAmI: 'user=ada trace=t-42 key=s3cret cookie=-' } });
});

test('a lambda\'s graphql() runs as the caller: the caller\'s headers reach a @custom field it queries', async () => {
  const { body } = await gql(server.url, `{ whoViaLambda }`, undefined, { 'x-user': 'grace', 'x-request-id': 't-7' });
  expect(body).toEqual({ data: { whoViaLambda: 'user=grace trace=t-7 key=s3cret cookie=-' } });
});

test('a custom mutation posts its body template', async () => {
  const { body } = await gql(server.url, `mutation { notify(message: "deployed") }`);
  expect(body).toEqual({ data: { notify: true } });
  expect(received).toEqual([expect.objectContaining({ method: 'POST', path: '/notify', body: { text: 'deployed' } })]);
});

test('a 500 answer fails the field with the status and a short reason; other fields still answer', async () => {
  const { status, body } = await gql(server.url, `{ broken whoAmI }`);
  expect(status).toBe(200);
  expect(body.data).toEqual({ broken: null, whoAmI: 'user=- trace=- key=s3cret cookie=-' });
  expect(body.errors).toEqual([
    expect.objectContaining({
      message: `@custom field Query.broken: GET ${remoteBase}/broken answered 500 Internal Server Error: database exploded`,
      path: ['broken'],
      extensions: expect.objectContaining({ code: 'CUSTOM_HTTP_FAILED', status: 500 }),
    }),
  ]);
});

test('an answer that is not JSON fails the field', async () => {
  const { body } = await gql(server.url, `{ notJson }`);
  expect(body.data).toEqual({ notJson: null });
  expect(body.errors![0]!.message).toMatch(new RegExp(`^@custom field Query\\.notJson: GET ${remoteBase}/text answered 200 with invalid JSON .*: this is not json$`));
});

test('an endpoint that does not answer in time fails the field; the next request is served normally', async () => {
  const { body } = await gql(server.url, `{ slow queryAuthor(filter: { name: { eq: "Ada" } }) { name } }`);
  expect(body.data).toEqual({ slow: null, queryAuthor: [{ name: 'Ada' }] });
  expect(body.errors).toEqual([
    expect.objectContaining({ message: `@custom field Query.slow: GET ${remoteBase}/slow did not answer within 500 ms`, path: ['slow'] }),
  ]);
  expect((await gql(server.url, `{ whoAmI }`)).body).toEqual({ data: { whoAmI: 'user=- trace=- key=s3cret cookie=-' } });
});

test('a host outside the allow-list is never called', async () => {
  const { body } = await gql(server.url, `{ elsewhere }`);
  expect(body.data).toEqual({ elsewhere: null });
  expect(body.errors![0]!.message).toMatch(/^@custom field Query\.elsewhere: the host localhost:\d+ is not in the allowed hosts for @custom calls \(--custom-allow\)$/);
  expect(received).toEqual([]);
});

test('a schema that names a secret the service does not have is refused at upload', async () => {
  const { status, body } = await uploadSchema(server.url, `type Query {
  secretive: String @custom(http: { url: "${remoteBase}/whoami", method: GET, secretHeaders: ["Authorization:MISSING_TOKEN"] })
}`);
  expect(status).toBe(400);
  expect(body.errors).toEqual([
    {
      message: 'Query.secretive @custom(http:): the secret header Authorization:MISSING_TOKEN needs a configured secret named MISSING_TOKEN: set the environment variable CUSTOM_SECRET_MISSING_TOKEN for the service',
      locations: [{ line: 2, column: 3 }],
      extensions: { code: 'BAD_SCHEMA' },
    },
  ]);
});
