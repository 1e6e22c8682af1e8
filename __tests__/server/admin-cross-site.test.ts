/**
 * The trusted endpoints against a browser on the same machine (the issue "Any web page can replace the
 * schema"): a page's simple cross-site POST, a fetch whose Sec-Fetch-Site says so, DNS rebinding (a foreign
 * Host), with and without an admin token, and what stays allowed (curl, the service's own pages).
 * Requests go through node:http, which, unlike fetch, sends the Host and Sec-Fetch-Site it is given.
 */
import { request } from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASKS_SCHEMA } from './schemas';

const PWNED = 'type Pwned { id: ID! x: String }';
const LAMBDA = 'self.addGraphQLResolvers({})';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: TestServer;

afterEach(async () => {
  await server?.close();
});

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const port = () => new URL(server.url).port;
const own = () => `127.0.0.1:${port()}`;
const errorOf = (answer: Answer) => JSON.parse(answer.body).errors[0] as { message: string; extensions: { code: string } };

/** What a page on https://evil.example sends with `fetch(url, { method: 'POST', mode: 'no-cors', body })`. */
const EVIL_PAGE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'content-type': 'text/plain' };

async function activeTypes(): Promise<string[]> {
  return server.app.active === undefined ? [] : [...server.app.active.model.types.keys()];
}

describe('without an admin token', () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  it('refuses a cross-site page’s simple POST of a schema with 403, saying why, and keeps the schema', async () => {
    const answer = await send('POST', '/admin/schema', { host: own(), ...EVIL_PAGE }, PWNED);
    expect(answer.status).toBe(403);
    expect(errorOf(answer)).toEqual({
      message:
        "admin endpoints refuse a request from the web page of origin https://evil.example, another origin than the service's: " +
        "without an admin token they trust every program on this machine, so they answer only curl, the CLI and the service's own pages; " +
        'set ADMIN_TOKEN (or --admin-token) to call them otherwise',
      extensions: { code: 'FORBIDDEN' },
    });
    expect(await activeTypes()).toEqual([]);
  });

  it('refuses the lambda script, a backup, an import and a collection drop from a cross-site page', async () => {
    for (const [method, path, body] of [
      ['POST', '/admin/lambda', LAMBDA],
      ['POST', '/admin/backup', ''],
      ['POST', '/admin/import', '{}'],
      ['GET', '/admin/export', undefined],
      ['DELETE', '/admin/collections/Task', undefined],
      ['POST', '/admin/schema/history/1/activate', ''],
      ['OPTIONS', '/admin/schema', undefined],
    ] as const) {
      const answer = await send(method, path, { host: own(), ...EVIL_PAGE }, body);
      expect([method, path, answer.status]).toEqual([method, path, 403]);
    }
    expect(server.app.active).toBeUndefined();
  });

  it('refuses Sec-Fetch-Site: cross-site or same-site even without an Origin', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const answer = await send('POST', '/admin/schema', { host: own(), 'sec-fetch-site': site }, PWNED);
      expect(answer.status).toBe(403);
      expect(errorOf(answer).message).toContain(`a browser request sent from another site (Sec-Fetch-Site: ${site})`);
    }
    expect(server.app.active).toBeUndefined();
  });

  it('refuses a page on another port of localhost (same-site, but another origin)', async () => {
    const answer = await send('POST', '/admin/schema', { host: own(), origin: 'http://127.0.0.1:3000' }, PWNED);
    expect(answer.status).toBe(403);
    expect(server.app.active).toBeUndefined();
  });

  it('refuses a foreign Host (DNS rebinding), even same-origin as the browser sees it', async () => {
    const rebound = `evil.example:${port()}`;
    const answer = await send('POST', '/admin/schema', { host: rebound, origin: `http://${rebound}`, 'sec-fetch-site': 'same-origin' }, PWNED);
    expect(answer.status).toBe(403);
    expect(errorOf(answer).message).toBe(
      `admin endpoints refuse the Host "${rebound}": it is not a loopback name or address (localhost, 127.0.0.0/8, [::1]) with the service's port: ` +
        "without an admin token they trust every program on this machine, so they answer only curl, the CLI and the service's own pages; " +
        'set ADMIN_TOKEN (or --admin-token) to call them otherwise',
    );
    const noOrigin = await send('POST', '/admin/schema', { host: rebound }, PWNED);
    expect(noOrigin.status).toBe(403);
    expect(server.app.active).toBeUndefined();
  });

  it('lets curl in (no Origin, no Sec-Fetch-Site), under 127.0.0.1, localhost or another loopback address', async () => {
    for (const host of [own(), `localhost:${port()}`, `127.1.2.3:${port()}`]) {
      const answer = await send('POST', '/admin/schema', { host, 'content-type': 'application/x-www-form-urlencoded' }, TASKS_SCHEMA);
      expect([host, answer.status]).toEqual([host, 200]);
    }
  });

  it('lets the service’s own pages in (same origin, Sec-Fetch-Site same-origin), and a typed URL (none)', async () => {
    const fromOwnPage = await send('POST', '/admin/schema', { host: own(), origin: `http://${own()}`, 'sec-fetch-site': 'same-origin', 'content-type': 'text/plain' }, TASKS_SCHEMA);
    expect(fromOwnPage.status).toBe(200);
    expect(await activeTypes()).toEqual(['Task', 'User']);
    const typed = await send('GET', '/admin/schema', { host: `localhost:${port()}`, 'sec-fetch-site': 'none' });
    expect(typed.status).toBe(200);
    expect(typed.body).toBe(TASKS_SCHEMA);
  });

  it('keeps /metrics from other sites’ pages and foreign Hosts, and lets a local scraper in', async () => {
    const fromPage = await send('GET', '/metrics', { host: own(), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(fromPage.status).toBe(403);
    expect(errorOf(fromPage).message).toMatch(/^\/metrics refuses a request from the web page of origin https:\/\/evil\.example, .*: without a metrics token it trusts every program on this machine, so it answers only .*; set METRICS_TOKEN \(or --metrics-token\) to call it otherwise$/);
    expect((await send('GET', '/metrics', { host: `rebound.example:${port()}` })).status).toBe(403);
    expect((await send('GET', '/metrics', { host: own() })).status).toBe(200);
  });

  it('leaves /graphql to browsers (its CORS rules apply there)', async () => {
    await send('POST', '/admin/schema', { host: own() }, TASKS_SCHEMA);
    const answer = await send('POST', '/graphql', { host: own(), ...EVIL_PAGE, 'content-type': 'application/json' }, '{"query":"{ queryTask { id } }"}');
    expect(answer.status).toBe(200);
  });
});

describe('with an admin token', () => {
  const TOKEN = 'tok-cross-site';
  const bearer = { authorization: `Bearer ${TOKEN}` };

  it('still requires the token, and refuses a cross-site page that holds it unless its origin is in --cors-origins', async () => {
    server = await startTestServer({ adminToken: TOKEN, corsOrigins: ['https://console.example'] });
    const noToken = await send('POST', '/admin/schema', { host: own(), ...EVIL_PAGE }, PWNED);
    expect(noToken.status).toBe(401);

    const evil = await send('POST', '/admin/schema', { host: own(), ...EVIL_PAGE, ...bearer }, PWNED);
    expect(evil.status).toBe(403);
    expect(errorOf(evil).message).toBe(
      "admin endpoints refuse a request from the web page of origin https://evil.example, another origin than the service's: " +
        'add the origin to --cors-origins (CORS_ORIGINS) to allow a console served there',
    );
    expect(server.app.active).toBeUndefined();

    const fromConsole = await send('POST', '/admin/schema', { host: own(), origin: 'https://console.example', 'sec-fetch-site': 'cross-site', ...bearer }, TASKS_SCHEMA);
    expect(fromConsole.status).toBe(200);
    expect(fromConsole.headers['access-control-allow-origin']).toBe('https://console.example');
    expect(await activeTypes()).toEqual(['Task', 'User']);
  });

  it('answers a listed console’s preflight (no token in it) and refuses an unlisted one’s', async () => {
    server = await startTestServer({ adminToken: TOKEN, corsOrigins: ['https://console.example'] });
    const preflight = (origin: string) =>
      send('OPTIONS', '/admin/schema', { host: own(), origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' });
    const listed = await preflight('https://console.example');
    expect(listed.status).toBe(204);
    expect({ methods: listed.headers['access-control-allow-methods'], headers: listed.headers['access-control-allow-headers'] }).toEqual({
      methods: 'GET, POST, DELETE',
      headers: 'authorization, content-type, x-request-id',
    });
    const unlisted = await preflight('https://evil.example');
    expect(unlisted.status).toBe(403);
    expect(errorOf(unlisted).message).toBe("origin https://evil.example may not call the admin endpoints: it is not in the service's --cors-origins");
  });

  it('serves any Host (the token is the guard), curl and the service’s own pages behind a TLS proxy', async () => {
    server = await startTestServer({ adminToken: TOKEN });
    expect((await send('POST', '/admin/schema', { host: 'admin.example.com', ...bearer }, TASKS_SCHEMA)).status).toBe(200);
    const ownPage = await send('GET', '/admin/schema', { host: 'admin.example.com', origin: 'https://admin.example.com', 'sec-fetch-site': 'same-origin', ...bearer });
    expect(ownPage.status).toBe(200);
    const otherSite = await send('GET', '/admin/schema', { host: 'admin.example.com', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', ...bearer });
    expect(otherSite.status).toBe(403);
  });

  it('keeps /metrics with its token from unlisted pages', async () => {
    server = await startTestServer({ metricsToken: 'scrape' });
    const headers = { host: own(), authorization: 'Bearer scrape' };
    expect((await send('GET', '/metrics', headers)).status).toBe(200);
    expect((await send('GET', '/metrics', { ...headers, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });
});
