/**
 * `fetchKeySet` against a key server on 127.0.0.1 whose answer each case picks by path: the keys and the
 * lifetime it reads, and the exact reason it gives when it cannot use the answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchKeySet, KeySetFetchError, type FetchedKeySet } from '../../src/auth/keys/fetch-key-set.js';
import { publicJwk, signingPair } from './sign.js';

const es = signingPair('ES256');
/** Generous, so a busy machine never turns an answer into a timeout; the hanging case uses HANG_LIMITS. */
const LIMITS = { timeoutMs: 15_000, maxBytes: 4096 };
const HANG_LIMITS = { timeoutMs: 300, maxBytes: 4096 };
const NOW = Date.parse('2026-11-23T12:00:00Z');
const SET = JSON.stringify({ keys: [publicJwk(es)] });

/** A JWK Set padded to exactly `bytes` bytes. */
const setOfSize = (bytes: number) => {
  const text = JSON.stringify({ keys: [publicJwk(es)], padding: '' });
  return text.replace('"padding":""', `"padding":"${'x'.repeat(bytes - Buffer.byteLength(text))}"`);
};

type Answer = (res: ServerResponse) => void;
const answer = (status: number, body: string, headers: Record<string, string> = {}): Answer => (res) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
};
/** Sent in two chunks without Content-Length. */
const chunked = (body: string): Answer => (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(body.slice(0, 100));
  res.end(body.slice(100));
};

const answers: Record<string, Answer> = {
  '/set': answer(200, SET),
  '/max-age': answer(200, SET, { 'cache-control': 'public, max-age=120' }),
  '/expires-without-date': (res) => {
    res.sendDate = false;
    answer(200, SET, { expires: new Date(NOW + 90_000).toUTCString() })(res);
  },
  '/exactly-the-limit': answer(200, setOfSize(4096)),
  '/exactly-the-limit-chunked': chunked(setOfSize(4096)),
  '/created': answer(201, SET),
  '/missing': answer(404, 'not here'),
  '/no-content': (res) => {
    res.writeHead(204);
    res.end();
  },
  '/error': answer(500, SET),
  '/over-the-limit': answer(200, setOfSize(4097)),
  '/over-the-limit-chunked': chunked(setOfSize(4097)),
  '/not-json': answer(200, '<html>'),
  '/empty': answer(200, ''),
  '/not-a-set': answer(200, '{"keys":"none"}'),
  '/hang': () => undefined,
  '/loop': (res) => {
    res.writeHead(302, { location: '/loop', 'content-length': '0' });
    res.end();
  },
};

let baseUrl = '';
let closedPortUrl = '';
const acceptHeaders: Array<string | undefined> = [];
const open: ServerResponse[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  acceptHeaders.push(req.headers.accept);
  open.push(res);
  (answers[req.url ?? ''] ?? answer(500, ''))(res);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPortUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/set`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  open.forEach((res) => res.destroy());
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const summary = (fetched: FetchedKeySet) => ({ kids: [...fetched.keys.keys()], declaredLifetimeSeconds: fetched.declaredLifetimeSeconds });

describe('fetchKeySet', () => {
  test.each<[string, number | undefined]>([
    ['/set', undefined],
    ['/max-age', 120],
    ['/expires-without-date', 90],
    ['/exactly-the-limit', undefined],
    ['/exactly-the-limit-chunked', undefined],
  ])('%s: the signing keys and the declared lifetime', async (path, lifetime) => {
    expect(summary(await fetchKeySet(`${baseUrl}${path}`, LIMITS, NOW))).toEqual({ kids: [es.kid], declaredLifetimeSeconds: lifetime });
  });

  test('asks for JSON', async () => {
    acceptHeaders.length = 0;
    await fetchKeySet(`${baseUrl}/set`, LIMITS, NOW);
    expect(acceptHeaders).toEqual(['application/json']);
  });

  test.each<[string, string]>([
    ['/created', 'it answered HTTP 201'],
    ['/missing', 'it answered HTTP 404'],
    ['/no-content', 'it answered HTTP 204'],
    ['/error', 'it answered HTTP 500'],
    ['/over-the-limit', 'the response is 4097 bytes, more than the 4096 allowed'],
    ['/over-the-limit-chunked', 'the response is more than the 4096 bytes allowed'],
    ['/not-json', 'the response is not JSON'],
    ['/empty', 'the response is not JSON'],
    ['/not-a-set', 'the document is not a JWK Set (no "keys" array)'],
    ['/hang', 'no answer within 300 ms'],
  ])('%s: KeySetFetchError saying why', async (path, reason) => {
    const error = await fetchKeySet(`${baseUrl}${path}`, path === '/hang' ? HANG_LIMITS : LIMITS, NOW).then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(KeySetFetchError);
    expect(error).toMatchObject({ name: 'KeySetFetchError', message: reason });
  });

  test.each<[string, () => string, string]>([
    ['nothing listening', () => closedPortUrl, 'ECONNREFUSED'],
    ['not a URL', () => 'not a url', 'ERR_INVALID_URL'],
  ])('%s: the error code as the reason', async (_case, url, reason) => {
    const error = await fetchKeySet(url(), LIMITS, NOW).then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'KeySetFetchError', message: reason });
  });

  test('a fetch failure whose cause has no code: fetch\'s own message as the reason', async () => {
    const error = await fetchKeySet(`${baseUrl}/loop`, LIMITS, NOW).then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'KeySetFetchError', message: 'fetch failed' });
  });

  test.each<[string, unknown, string]>([
    ['an Error without a cause', new TypeError('network down'), 'network down'],
    ['a value that is not an Error', 'plain reason', 'plain reason'],
    ['an object whose message is not text', { message: 42 }, '[object Object]'],
  ])('fetch rejecting with %s: its text as the reason', async (_case, rejection, reason) => {
    const fetchSpy = jest.spyOn(globalThis, 'fetch').mockRejectedValueOnce(rejection);
    try {
      const error = await fetchKeySet(`${baseUrl}/set`, LIMITS, NOW).then(() => undefined, (thrown: unknown) => thrown);
      expect(error).toMatchObject({ name: 'KeySetFetchError', message: reason });
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
