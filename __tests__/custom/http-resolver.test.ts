import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callCustomHttp, CustomHttpError } from '../../src/custom/index.js';
import type { CustomHttpConfig } from '../../src/sdl/model.js';

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const seen: SeenRequest[] = [];
const held: ServerResponse[] = [];
let server: Server;
let base: string;
let allowHosts: string[];

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const path = new URL(req.url!, 'http://local').pathname;
      if (path.startsWith('/users/')) return json(res, 200, { id: decodeURIComponent(path.slice(7)), name: 'Ada' });
      if (path === '/echo') return json(res, 200, { method: req.method, url: req.url, body: body ? JSON.parse(body) : null });
      if (path === '/batch') {
        return json(res, 200, (JSON.parse(body) as Array<{ id: string }>).map((item) => ({ upper: item.id.toUpperCase() })));
      }
      if (path === '/batch-short') return json(res, 200, [1]);
      if (path === '/fail500') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        return res.end('database\n exploded');
      }
      if (path === '/notjson') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>oops</html>');
      }
      if (path === '/empty') {
        res.writeHead(204);
        return res.end();
      }
      if (path === '/redirect') {
        res.writeHead(302, { location: 'http://example.com/' });
        return res.end();
      }
      if (path === '/big') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify('x'.repeat(5000)));
      }
      if (path === '/slow') {
        held.push(res);
        return;
      }
      json(res, 404, { error: 'no route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  allowHosts = [`127.0.0.1:${port}`];
});

afterAll(async () => {
  held.forEach((res) => res.destroy());
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

function config(partial: Partial<CustomHttpConfig> & { url: string }): CustomHttpConfig {
  return { method: 'GET', forwardHeaders: [], secretHeaders: [], mode: 'SINGLE', ...partial, url: `${base}${partial.url}` };
}

async function failureOf(promise: Promise<unknown>): Promise<CustomHttpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CustomHttpError);
    return error as CustomHttpError;
  }
  throw new Error('expected the call to fail');
}

describe('@custom(http:)', () => {
  it('GETs a URL with a placeholder from the arguments', async () => {
    const answer = await callCustomHttp(config({ url: '/users/$id' }), { field: 'Query.user', args: { id: 'a b/1' }, allowHosts });
    expect(answer).toEqual({ id: 'a b/1', name: 'Ada' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/users/a%20b%2F1', body: '' });
    expect(seen[0]!.headers['content-type']).toBeUndefined();
  });

  it('takes URL placeholders from the parent for a field of a type', async () => {
    const answer = await callCustomHttp(config({ url: '/users/$authorId' }), {
      field: 'Post.author', parent: { authorId: 'p7', title: 'T' }, allowHosts,
    });
    expect(answer).toEqual({ id: 'p7', name: 'Ada' });
  });

  it('POSTs a body built from the template with arguments and parent fields', async () => {
    const answer = await callCustomHttp(
      config({ url: '/echo?lang=$lang', method: 'POST', body: '{ id: $id, post: { title: $title, tags: [$tag, "fixed"] }, gone: $missing }' }),
      { field: 'Post.echo', parent: { id: 'p1', title: 'from parent' }, args: { tag: 't1', title: 'from args', lang: 'en' }, allowHosts },
    );
    expect(answer).toEqual({
      method: 'POST',
      url: '/echo?lang=en',
      body: { id: 'p1', post: { title: 'from args', tags: ['t1', 'fixed'] } },
    });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
  });

  it('forwards the named incoming headers and adds secret headers from configuration', async () => {
    await callCustomHttp(
      config({ url: '/echo', forwardHeaders: ['Authorization', 'X-Out:X-In', 'X-Absent'], secretHeaders: ['X-Api-Key', 'X-Token:SERVICE_TOKEN'] }),
      {
        field: 'Query.echo',
        incomingHeaders: { authorization: 'Bearer abc', 'X-IN': 'renamed', cookie: 'not forwarded' },
        secrets: { 'X-Api-Key': 'k-123', SERVICE_TOKEN: 't-456' },
        allowHosts,
      },
    );
    const headers = seen[0]!.headers;
    expect(headers).toMatchObject({ authorization: 'Bearer abc', 'x-out': 'renamed', 'x-api-key': 'k-123', 'x-token': 't-456' });
    expect(headers['x-absent']).toBeUndefined();
    expect(headers['x-in']).toBeUndefined();
    expect(headers.cookie).toBeUndefined();
  });

  it('reads forwarded headers from a Map-like header object too', async () => {
    await callCustomHttp(config({ url: '/echo', forwardHeaders: ['X-Trace'] }), {
      field: 'Query.echo', incomingHeaders: new Map([['x-trace', 't-1']]), allowHosts,
    });
    expect(seen[0]!.headers['x-trace']).toBe('t-1');
  });

  it('refuses a secret header that has no configured secret, before any request', async () => {
    const failure = await failureOf(callCustomHttp(config({ url: '/echo', secretHeaders: ['X-Key:MISSING'] }), { field: 'Query.echo', allowHosts }));
    expect(failure.message).toBe('@custom field Query.echo: the secret header X-Key needs a configured secret named MISSING, and there is none: set the environment variable CUSTOM_SECRET_MISSING for the service');
    expect(seen).toHaveLength(0);
  });

  it('sends all parents in one request in BATCH mode and answers one value per parent', async () => {
    const parents = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const answer = await callCustomHttp(config({ url: '/batch', method: 'POST', body: '{ id: $id, v: $v }', mode: 'BATCH' }), {
      field: 'Item.upper', parents, args: { v: 1 }, allowHosts,
    });
    expect(answer).toEqual([{ upper: 'A' }, { upper: 'B' }, { upper: 'C' }]);
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]!.body)).toEqual([{ id: 'a', v: 1 }, { id: 'b', v: 1 }, { id: 'c', v: 1 }]);
  });

  it('sends one request per parent in SINGLE mode, keeping the order', async () => {
    const parents = Array.from({ length: 5 }, (_, i) => ({ id: `u${i}` }));
    const answer = await callCustomHttp(config({ url: '/users/$id' }), { field: 'Item.user', parents, allowHosts, concurrency: 2 });
    expect(answer).toEqual(parents.map((p) => ({ id: p.id, name: 'Ada' })));
    expect(seen.map((r) => r.url).sort()).toEqual(parents.map((p) => `/users/${p.id}`));
  });

  it('fails a BATCH answer of the wrong length', async () => {
    const failure = await failureOf(callCustomHttp(config({ url: '/batch-short', method: 'POST', body: '{ id: $id }', mode: 'BATCH' }), {
      field: 'Item.x', parents: [{ id: 'a' }, { id: 'b' }], allowHosts,
    }));
    expect(failure.message).toBe('@custom field Item.x: mode BATCH expects one answer per parent: sent 2, got 1');
  });

  it('fails a 500 answer with the status and a short reason', async () => {
    const failure = await failureOf(callCustomHttp(config({ url: '/fail500' }), { field: 'Query.broken', allowHosts }));
    expect(failure.status).toBe(500);
    expect(failure.message).toBe(`@custom field Query.broken: GET ${base}/fail500 answered 500 Internal Server Error: database exploded`);
  });

  it('fails an answer that is not JSON', async () => {
    const failure = await failureOf(callCustomHttp(config({ url: '/notjson' }), { field: 'Query.html', allowHosts }));
    expect(failure.status).toBe(200);
    expect(failure.message).toMatch(/^@custom field Query\.html: GET .*\/notjson answered 200 with invalid JSON \(.+\): <html>oops<\/html>$/);
  });

  it('answers null for an empty answer', async () => {
    await expect(callCustomHttp(config({ url: '/empty', method: 'DELETE' }), { field: 'Mutation.drop', allowHosts })).resolves.toBeNull();
  });

  it('does not follow redirects', async () => {
    const failure = await failureOf(callCustomHttp(config({ url: '/redirect' }), { field: 'Query.moved', allowHosts }));
    expect(failure.message).toMatch(/answered 302 Found \(redirects are not followed\)/);
  });

  it('fails an answer larger than the limit', async () => {
    const failure = await failureOf(callCustomHttp(config({ url: '/big' }), { field: 'Query.big', allowHosts, maxResponseBytes: 1000 }));
    expect(failure.message).toMatch(/answered more than 1000 bytes/);
  });

  it('times out a request that does not answer', async () => {
    const failure = await failureOf(callCustomHttp(config({ url: '/slow' }), { field: 'Query.slow', allowHosts, timeoutMs: 200 }));
    expect(failure.message).toBe(`@custom field Query.slow: GET ${base}/slow did not answer within 200 ms`);
    expect(seen).toHaveLength(1);
  });

  it('refuses a host that is not allowed, before any request', async () => {
    const denied = await failureOf(callCustomHttp(config({ url: '/users/1' }), { field: 'Query.user', allowHosts: ['127.0.0.1:1'] }));
    expect(denied.message).toMatch(/the host 127\.0\.0\.1:\d+ is not in the allowed hosts for @custom calls/);
    const none = await failureOf(callCustomHttp(config({ url: '/users/1' }), { field: 'Query.user', allowHosts: [] }));
    expect(none.message).toMatch(/is not in the allowed hosts/);
    expect(seen).toHaveLength(0);
  });

  it('checks the host after filling placeholders, so an argument cannot pick the host', async () => {
    const failure = await failureOf(callCustomHttp(
      { url: 'http://$host/x', method: 'GET', forwardHeaders: [], secretHeaders: [], mode: 'SINGLE' },
      { field: 'Query.any', args: { host: 'example.com' }, allowHosts },
    ));
    expect(failure.message).toMatch(/the host example\.com is not in the allowed hosts/);
  });

  it('allows any host with *', async () => {
    await expect(callCustomHttp(config({ url: '/users/9' }), { field: 'Query.user', allowHosts: ['*'] }))
      .resolves.toEqual({ id: '9', name: 'Ada' });
  });

  it('refuses bad configurations with clear messages', async () => {
    const cases: Array<[Partial<CustomHttpConfig> & { url: string }, Record<string, unknown>, string]> = [
      [{ url: '/users/$id' }, {}, 'the url placeholder $id has no value'],
      [{ url: '/echo', method: 'FETCH' }, {}, 'the method FETCH is not one of GET, POST, PUT, PATCH, DELETE'],
      [{ url: '/echo', body: '{ id: $id' }, {}, 'expected "," or "}" but found the end of the template at column 10 of the body template'],
      [{ url: '/echo', method: 'POST', mode: 'BATCH' }, {}, 'mode BATCH needs a body template (one entry per parent is sent as a JSON array)'],
    ];
    for (const [partial, args, reason] of cases) {
      const failure = await failureOf(callCustomHttp(config(partial), { field: 'T.f', args, allowHosts }));
      expect(failure.message).toBe(`@custom field T.f: ${reason}`);
    }
    const batchUrl = await failureOf(callCustomHttp(config({ url: '/batch?p=x$id', method: 'POST', body: '{ id: $id }', mode: 'BATCH' }), {
      field: 'T.f', parents: [{ id: 'a' }], allowHosts,
    }));
    expect(batchUrl.message).toBe('@custom field T.f: the url placeholder $id has no value (in mode BATCH the url may use only arguments)');
    expect(seen).toHaveLength(0);
  });

  it('sends GET with a body, as Dgraph does, and times it out like any request', async () => {
    const answer = await callCustomHttp(config({ url: '/echo?q=1', body: '{ id: $id, tags: [$tag] }' }), { field: 'Query.find', args: { id: 'u1', tag: 'a' }, allowHosts });
    expect(answer).toEqual({ method: 'GET', url: '/echo?q=1', body: { id: 'u1', tags: ['a'] } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    const slow = await failureOf(callCustomHttp(config({ url: '/slow', body: '{ id: $id }' }), { field: 'Query.find', args: { id: 'u1' }, allowHosts, timeoutMs: 50 }));
    expect(slow.message).toBe(`@custom field Query.find: GET ${base}/slow did not answer within 50 ms`);
  });

  it('reports a connection failure', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const failure = await failureOf(callCustomHttp(
      { url: `http://127.0.0.1:${closed}/x`, method: 'GET', forwardHeaders: [], secretHeaders: [], mode: 'SINGLE' },
      { field: 'Query.down', allowHosts: ['127.0.0.1'] },
    ));
    expect(failure.message).toMatch(new RegExp(`^@custom field Query\\.down: GET http://127\\.0\\.0\\.1:${closed}/x failed: fetch failed \\(.*ECONNREFUSED.*\\)$`));
  });
});
