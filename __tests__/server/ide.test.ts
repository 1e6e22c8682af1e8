/**
 * Issue 35: the GraphQL IDE and the schema page over HTTP: which requests get the pages, the files they load
 * (from installed packages, cached, with ETags and gzip), path traversal, the `ide` switch and the admin
 * rules of the schema page. The pages at work in a browser: __tests__/browser/pages.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { activateSchema, gql } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine } from '../auth/keys.js';
import { ownFilesFolder } from '../../src/server/ui-files.js';

const SCHEMA = `type Task { id: ID! title: String! @search(by: [term]) }\n${authorizationLine({ header: 'X-My-Token' })}\n`;

/** A GET sent with node:http, so the test sets every header (fetch adds Accept-Encoding and decodes gzip itself). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The JSON the IDE page hands its script. */
function pageConfig(html: string): { endpoint: string; headers?: string } {
  const match = /<script id="autograph-ide-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error(`no IDE config in the page:\n${html}`);
  return JSON.parse(match[1]!) as { endpoint: string; headers?: string };
}

function packageFile(pkg: string, file: string): Buffer {
  return readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file));
}

describe('the GraphQL IDE (ide on, the default outside production)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await activateSchema(server.url, SCHEMA);
  });

  afterAll(async () => {
    await server.close();
  });

  it.each(['/graphql', '/'])('answers a browser opening %s with the IDE page under a strict CSP', async (path) => {
    const response = await get(`${server.url}${path}`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(response.headers['cache-control']).toBe('no-store');
    const html = response.body.toString('utf8');
    expect(html).toContain('<title>Autograph GraphQL IDE</title>');
    // Every script and style is the service's own: no CDN.
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]).filter((source) => source !== 'data:,');
    expect(sources).toEqual(['/ui/vendor/graphiql.min.css', '/ui/ide.css', '/ui/vendor/react.production.min.js', '/ui/vendor/react-dom.production.min.js', '/ui/vendor/graphiql.min.js', '/ui/ide.js']);
    expect(html).not.toMatch(/<script>(?!<)/);
    // The headers editor starts with the schema's auth header.
    expect(pageConfig(html)).toMatchObject({ endpoint: '/graphql', headers: '{\n  "X-My-Token": ""\n}\n' });
  });

  it('leaves every other /graphql request to the GraphQL endpoint', async () => {
    const query = `${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`;
    const withQuery = await get(query, { accept: 'text/html', 'apollo-require-preflight': 'true' });
    expect(withQuery.body.toString('utf8')).not.toContain('Autograph GraphQL IDE');
    const json = await get(query, { accept: 'application/json', 'apollo-require-preflight': 'true' });
    expect(JSON.parse(json.body.toString('utf8'))).toEqual({ data: { __typename: 'Query' } });
    const { body } = await gql(server.url, '{ queryTask { title } }');
    expect(body).toEqual({ data: { queryTask: [] } });
  });

  it.each([
    ['vendor/graphiql.min.js', 'graphiql', 'graphiql.min.js', 'text/javascript; charset=utf-8'],
    ['vendor/graphiql.min.css', 'graphiql', 'graphiql.min.css', 'text/css; charset=utf-8'],
    ['vendor/react.production.min.js', 'react', 'umd/react.production.min.js', 'text/javascript; charset=utf-8'],
    ['vendor/react-dom.production.min.js', 'react-dom', 'umd/react-dom.production.min.js', 'text/javascript; charset=utf-8'],
  ])('serves /ui/%s from the installed package, gzipped, with an ETag', async (name, pkg, file, contentType) => {
    const plain = await get(`${server.url}/ui/${name}`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe(contentType);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(packageFile(pkg, file))).toBe(true);
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(plain.headers['cache-control']).toBe('no-cache');

    const gzipped = await get(`${server.url}/ui/${name}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.etag).toBe(etag);
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    expect(gzipped.body.length).toBeLessThan(plain.body.length * 0.7);

    const again = await get(`${server.url}/ui/${name}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it.each([
    '/ui/vendor/..%2F..%2Fpackage.json',
    '/ui/..%2f..%2f..%2fpackage.json',
    '/ui/%2e%2e/%2e%2e/package.json',
    '/ui/../../package.json',
    '/ui/vendor/graphiql/package.json',
    '/ui/schema.html',
    '/ui/ide.js/',
    '/ui/',
  ])('refuses %s with a 404 that names the files', async (path) => {
    const response = await get(`${server.url}${path}`);
    expect(response.status).toBe(404);
    const text = response.body.toString('utf8');
    expect(text).not.toContain('"dependencies"');
    expect(JSON.parse(text).errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('names the IDE files in the 404 under /ui/', async () => {
    const response = await get(`${server.url}/ui/nope.js`);
    expect(JSON.parse(response.body.toString('utf8')).errors[0].message).toBe(
      'no file /ui/nope.js: the files under /ui/ are ide.js, ide.css, schema.js, schema.css, vendor/react.production.min.js, vendor/react-dom.production.min.js, vendor/graphiql.min.js, vendor/graphiql.min.css',
    );
  });
});

describe('the IDE page without a schema, and with one that has no @auth', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('starts with an empty headers editor', async () => {
    const before = await get(`${server.url}/graphql`, { accept: 'text/html' });
    expect(before.status).toBe(200);
    expect(pageConfig(before.body.toString('utf8'))).toEqual({ endpoint: '/graphql', defaultQuery: expect.any(String) });
    await activateSchema(server.url, 'type Task { id: ID! title: String! }');
    const after = await get(`${server.url}/`, { accept: 'text/html' });
    expect(pageConfig(after.body.toString('utf8')).headers).toBeUndefined();
  });
});

describe('ide switched off (--ide=false)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ ide: false });
    await activateSchema(server.url, SCHEMA);
  });

  afterAll(async () => {
    await server.close();
  });

  it('serves neither the page nor GraphiQL, but still the schema page', async () => {
    expect((await get(`${server.url}/`, { accept: 'text/html' })).status).toBe(404);
    const page = await get(`${server.url}/graphql`, { accept: 'text/html' });
    expect(page.body.toString('utf8')).not.toContain('Autograph GraphQL IDE');
    expect((await get(`${server.url}/ui/vendor/graphiql.min.js`)).status).toBe(404);
    expect((await get(`${server.url}/ui/ide.js`)).status).toBe(200);
    expect((await get(`${server.url}/admin/ui`)).status).toBe(200);
  });
});

describe('the schema page (/admin/ui)', () => {
  let server: TestServer;

  afterEach(async () => {
    await server.close();
  });

  it('without an admin token: served under the admin rules (the service\'s own origin, loopback)', async () => {
    server = await startTestServer();
    const page = await get(`${server.url}/admin/ui`, { accept: 'text/html', 'sec-fetch-site': 'none' });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body.toString('utf8')).toContain('<script defer src="/ui/schema.js"></script>');
    const crossSite = await get(`${server.url}/admin/ui`, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const foreignHost = await get(`${server.url}/admin/ui`, { host: 'attacker.example' });
    expect(foreignHost.status).toBe(403);
    expect((await get(`${server.url}/ui/schema.js`)).body.toString('utf8')).toContain("'/admin/schema/history'");
  });

  it('with an admin token: served without it (the page asks for it), the endpoints still need it', async () => {
    server = await startTestServer({ adminToken: 'page-token' });
    expect((await get(`${server.url}/admin/ui`)).status).toBe(200);
    expect((await get(`${server.url}/admin/schema/history`)).status).toBe(401);
  });
});

describe('ownFilesFolder', () => {
  it('finds src/server/ui of the package from src/ and from dist/', () => {
    const root = mkdtempSync(join(tmpdir(), 'autograph-ui-'));
    try {
      writeFileSync(join(root, 'package.json'), '{}');
      mkdirSync(join(root, 'dist', 'src', 'server'), { recursive: true });
      mkdirSync(join(root, 'src', 'server'), { recursive: true });
      expect(ownFilesFolder(join(root, 'dist', 'src', 'server'))).toBe(join(root, 'src', 'server', 'ui'));
      expect(ownFilesFolder(join(root, 'src', 'server'))).toBe(join(root, 'src', 'server', 'ui'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
