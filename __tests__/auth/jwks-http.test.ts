/**
 * Key sets over HTTP: the Authorization line names JWK Set URLs served by a local key server, and tokens
 * signed with ES256, EdDSA and RS256 keys from those sets are sent to the real /graphql endpoint.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchKeySet, KeySetFetchError } from '../../src/auth/keys/fetch-key-set.js';
import { activateSchema, gql } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startJwksServer, type JwksServer } from './jwks-server.js';
import { publicJwk, signingPair, signWith, type SigningPair } from './sign.js';
import { record, wsClient } from '../live/ws-client.js';

const NAMESPACE = 'https://autograph.example/claims';
const AUDIENCE = 'autograph-tests';
const HEADER = 'X-Auth-Token';

const schemaWith = (keys: Record<string, unknown>) => `
type Note @auth(query: { rule: """query($USER: String!) { queryNote(filter: { owner: { eq: $USER } }) { __typename } }""" }) {
  id: ID!
  owner: String! @search(by: [hash])
  text: String
}
# Autograph.Authorization ${JSON.stringify({ ...keys, Header: HEADER, Namespace: NAMESPACE, Audience: [AUDIENCE] })}
`;

const claimsFor = (user: string) => ({ aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600, [NAMESPACE]: { USER: user } });
const bearing = (token: string) => ({ [HEADER]: `Bearer ${token}` });

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function notes(server: TestServer, headers: Record<string, string> = {}) {
  return gql<{ queryNote: Array<{ text: string }> }>(server.url, '{ queryNote(order: { asc: text }) { text } }', undefined, headers);
}

describe('JWKUrls: keys from two key servers, refreshed without a restart', () => {
  let es: SigningPair;
  let ed: SigningPair;
  let rs: SigningPair;
  let first: JwksServer;
  let second: JwksServer;
  let server: TestServer;

  beforeAll(async () => {
    es = signingPair('ES256');
    ed = signingPair('EdDSA');
    rs = signingPair('RS256');
    first = await startJwksServer([publicJwk(es), publicJwk(ed, { withAlg: false })]);
    second = await startJwksServer([publicJwk(rs)]);
    // No cooldown: each unknown kid refreshes the sets at once, as after a long enough wait.
    server = await startTestServer({ keySets: { refreshCooldownMs: 0 } });
    await activateSchema(server.url, schemaWith({ JWKUrls: [`${first.url}/jwks.json`, `${second.url}/keys`] }));
    const add = await gql(server.url, 'mutation { addNote(input: [{ owner: "alice", text: "alice 1" }, { owner: "alice", text: "alice 2" }, { owner: "bob", text: "bob 1" }]) { numUids } }');
    expect(add.body.data).toEqual({ addNote: { numUids: 3 } });
  });

  afterAll(async () => {
    await server?.close();
    await first?.close();
    await second?.close();
  });

  test.each<[string, () => SigningPair]>([['ES256', () => es], ['EdDSA', () => ed], ['RS256 (from the second URL)', () => rs]])(
    'a %s token is verified with its key from the set', async (_name, pair) => {
      const { status, body } = await notes(server, bearing(signWith(pair(), claimsFor('alice'))));
      expect(status).toBe(200);
      expect(body).toEqual({ data: { queryNote: [{ text: 'alice 1' }, { text: 'alice 2' }] } });
    });

  test('the sets are fetched once and kept for the max-age they were served with', async () => {
    const before = first.requests + second.requests;
    for (const user of ['alice', 'bob']) await notes(server, bearing(signWith(es, claimsFor(user))));
    expect(first.requests + second.requests).toBe(before);
  });

  test('no token: anonymous, answered without waiting for any key set', async () => {
    const { status, body } = await notes(server);
    expect(status).toBe(200);
    expect(body).toEqual({ data: { queryNote: [] } });
  });

  test('a kid in no set: 401 naming the kid', async () => {
    const stranger = signingPair('ES256');
    const { status, body } = await notes(server, bearing(signWith(stranger, claimsFor('alice'))));
    expect(status).toBe(401);
    expect(body.errors).toEqual([{ message: `invalid token in header ${HEADER}: no key with kid "${stranger.kid}" in the JWK Set`, extensions: { code: 'UNAUTHENTICATED' } }]);
  });

  test('a token without a kid: 401', async () => {
    const { status, body } = await notes(server, bearing(signWith(es, claimsFor('alice'), { kid: undefined })));
    expect(status).toBe(401);
    expect(body.errors?.[0]).toEqual({ message: `invalid token in header ${HEADER}: the token has no "kid" header, which picks its key from the JWK Set`, extensions: { code: 'UNAUTHENTICATED' } });
  });

  test('a token whose alg is not its key\'s: 401 invalid algorithm', async () => {
    const { status, body } = await notes(server, bearing(signWith(ed, claimsFor('alice'), { kid: es.kid })));
    expect(status).toBe(401);
    expect(body.errors?.[0]).toEqual({ message: `invalid token in header ${HEADER}: invalid algorithm`, extensions: { code: 'UNAUTHENTICATED' } });
  });

  test('rotation: the server publishes a new key and withdraws the old one; the new kid works at once, the old one is refused', async () => {
    const rotated = signingPair('ES256');
    first.keys = [publicJwk(rotated), publicJwk(ed)];
    const fresh = await notes(server, bearing(signWith(rotated, claimsFor('bob'))));
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ data: { queryNote: [{ text: 'bob 1' }] } });
    const withdrawn = await notes(server, bearing(signWith(es, claimsFor('bob'))));
    expect(withdrawn.status).toBe(401);
    expect(withdrawn.body.errors?.[0].message).toBe(`invalid token in header ${HEADER}: no key with kid "${es.kid}" in the JWK Set`);
  });
});

describe('a key set that cannot be fetched', () => {
  let server: TestServer;
  let keys: JwksServer;
  let deadUrl: string;
  const ed = signingPair('EdDSA');

  beforeAll(async () => {
    keys = await startJwksServer([publicJwk(ed)]);
    deadUrl = `http://127.0.0.1:${await closedPort()}/jwks.json`;
    server = await startTestServer({ keySets: { timeoutMs: 300, maxBytes: 4096 } });
  });

  afterAll(async () => {
    await server?.close();
    await keys?.close();
  });

  test('key server down: a token-bearing request answers 503 KEY_SET_UNAVAILABLE, an anonymous one is served', async () => {
    await activateSchema(server.url, schemaWith({ JWKUrl: deadUrl }));
    const refused = await notes(server, bearing(signWith(ed, claimsFor('alice'))));
    expect(refused.status).toBe(503);
    expect(refused.body.errors).toEqual([{
      message: `cannot verify the token: the key set ${deadUrl} cannot be fetched (ECONNREFUSED)`,
      extensions: { code: 'KEY_SET_UNAVAILABLE' },
    }]);
    expect(refused.body.data).toBeUndefined();
    const anonymous = await notes(server);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ data: { queryNote: [] } });
  });

  test.each<[string, (server: JwksServer) => void, string]>([
    ['an HTTP error', (s) => { s.status = 500; }, 'it answered HTTP 500'],
    ['no answer within the timeout', (s) => { s.hang = true; }, 'no answer within 300 ms'],
    ['a body over the size limit', (s) => { s.body = JSON.stringify({ keys: [], padding: 'x'.repeat(5000) }); }, 'the response is 5024 bytes, more than the 4096 allowed'],
    ['a body that is not a JWK Set', (s) => { s.body = '{"keys": "none"}'; }, 'the document is not a JWK Set (no "keys" array)'],
  ])('%s: 503 saying so', async (_name, breakIt, reason) => {
    const path = `${keys.url}/${encodeURIComponent(reason)}`;
    breakIt(keys);
    try {
      await activateSchema(server.url, schemaWith({ JWKUrl: path }));
      const { status, body } = await notes(server, bearing(signWith(ed, claimsFor('alice'))));
      expect(status).toBe(503);
      expect(body.errors?.[0]).toEqual({ message: `cannot verify the token: the key set ${path} cannot be fetched (${reason})`, extensions: { code: 'KEY_SET_UNAVAILABLE' } });
    } finally {
      Object.assign(keys, { status: 200, hang: false, body: undefined });
    }
  });

  test('a body without Content-Length is cut off at the size limit too', async () => {
    const chunked = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"keys":[],"padding":"${'x'.repeat(3000)}`);
      res.end(`${'x'.repeat(3000)}"}`);
    });
    await new Promise<void>((resolve) => chunked.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(chunked.address() as AddressInfo).port}/`;
      const error = await fetchKeySet(url, { timeoutMs: 1000, maxBytes: 4096 }).then(() => undefined, (thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(KeySetFetchError);
      expect((error as Error).message).toBe('the response is more than the 4096 bytes allowed');
    } finally {
      await new Promise<void>((resolve) => chunked.close(() => resolve()));
    }
  });
});

describe('a flood of made-up kids', () => {
  let server: TestServer;
  let keys: JwksServer;
  const es = signingPair('ES256');

  beforeAll(async () => {
    keys = await startJwksServer([publicJwk(es)]);
    server = await startTestServer();
    await activateSchema(server.url, schemaWith({ JWKUrl: `${keys.url}/jwks.json` }));
  });

  afterAll(async () => {
    await server?.close();
    await keys?.close();
  });

  test('costs the key server no more than one request per cooldown (default 30 s)', async () => {
    expect((await notes(server, bearing(signWith(es, claimsFor('alice'))))).status).toBe(200);
    expect(keys.requests).toBe(1);
    const answers = await Promise.all(Array.from({ length: 25 }, () => notes(server, bearing(signWith(signingPair('EdDSA'), claimsFor('alice'))))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(401));
    expect(keys.requests).toBe(1);
  });
});

describe('one key set cache for HTTP and WebSocket requests', () => {
  let es: SigningPair;
  let keys: JwksServer;
  let server: TestServer;

  beforeAll(async () => {
    es = signingPair('ES256');
    keys = await startJwksServer([publicJwk(es)]);
    server = await startTestServer();
    await activateSchema(server.url, schemaWith({ JWKUrl: `${keys.url}/jwks.json` }).replace('type Note @auth', 'type Note @withSubscription @auth'));
  });

  afterAll(async () => {
    await server?.close();
    await keys?.close();
  });

  test('a subscription verified after an HTTP request fetches the key set no second time', async () => {
    expect((await notes(server, bearing(signWith(es, claimsFor('alice'))))).status).toBe(200);
    expect(keys.requests).toBe(1);
    const client = wsClient(server.url, bearing(signWith(es, claimsFor('alice'))));
    try {
      const feed = record(client, { query: 'subscription { queryNote { text } }' });
      expect(await feed.nextResult()).toEqual({ data: { queryNote: [] } });
    } finally {
      await client.dispose();
    }
    expect(keys.requests).toBe(1);
  });
});
