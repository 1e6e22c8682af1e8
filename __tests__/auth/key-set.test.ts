import { createSecretKey } from 'node:crypto';
import { KeySetUnavailableError } from '../../src/auth/errors.js';
import type { FetchedKeySet } from '../../src/auth/keys/fetch-key-set.js';
import { boundedLifetimeSeconds, declaredLifetimeSeconds } from '../../src/auth/keys/freshness.js';
import { signingKeysOf } from '../../src/auth/keys/jwk.js';
import { DEFAULT_KEY_SET_POLICY, KeySets, RemoteKeySet, type KeySetPolicy } from '../../src/auth/keys/remote-key-set.js';
import type { VerificationKey } from '../../src/auth/jwt/verify.js';
import { publicJwk, signingPair } from './sign.js';

const rs = signingPair('RS256');
const es = signingPair('ES256');
const ed = signingPair('EdDSA');

describe('declaredLifetimeSeconds', () => {
  const NOW = Date.parse('2026-11-23T12:00:00Z');
  test.each<[Record<string, string>, number | undefined]>([
    [{ 'cache-control': 'public, max-age=300' }, 300],
    [{ 'cache-control': 'max-age="120", must-revalidate' }, 120],
    [{ 'cache-control': 'no-store' }, 0],
    [{ 'cache-control': 'max-age=600, no-cache' }, 0],
    [{ expires: 'Mon, 23 Nov 2026 12:10:00 GMT' }, 600],
    [{ expires: 'Mon, 23 Nov 2026 12:10:00 GMT', date: 'Mon, 23 Nov 2026 12:05:00 GMT' }, 300],
    [{ expires: '0' }, 0],
    [{ 'cache-control': 'max-age=60', expires: 'Mon, 23 Nov 2026 13:00:00 GMT' }, 60],
    [{ 'cache-control': 'public' }, undefined],
    [{}, undefined],
  ])('%j → %s', (headers, seconds) => {
    expect(declaredLifetimeSeconds(new Headers(headers), NOW)).toBe(seconds);
  });

  test.each<[number | undefined, number]>([[undefined, 600], [0, 30], [10, 30], [3600, 3600], [10 * 86400, 86400]])(
    'bounded: %s → %s', (declared, seconds) => {
      expect(boundedLifetimeSeconds(declared, DEFAULT_KEY_SET_POLICY)).toBe(seconds);
    });
});

describe('signingKeysOf', () => {
  test('keeps signing keys by kid, each with its algorithm (given or implied by its type)', () => {
    const keys = signingKeysOf({ keys: [publicJwk(rs), publicJwk(es, { withAlg: false }), publicJwk(ed, { withAlg: false })] });
    expect([...keys].map(([kid, key]) => [kid, key.algorithm])).toEqual([[rs.kid, 'RS256'], [es.kid, 'ES256'], [ed.kid, 'EdDSA']]);
  });

  test.each<[string, Record<string, unknown>]>([
    ['no kid', { ...publicJwk(ed), kid: undefined }],
    ['an encryption key', { ...publicJwk(ed), use: 'enc' }],
    ['a symmetric key', { kty: 'oct', k: createSecretKey(Buffer.from('secret')).export().toString('base64url'), kid: 'oct', alg: 'HS256' }],
    ['an unsupported algorithm', { ...publicJwk(rs), alg: 'PS256' }],
    ['an alg its key does not fit', { ...publicJwk(ed), alg: 'ES256' }],
    ['a P-384 key without alg', { ...signingPair('ES256').publicKey.export({ format: 'jwk' }), crv: 'P-384', kid: 'p384' }],
    ['a key that does not parse', { kty: 'RSA', n: 'AQAB', e: 'AQAB', kid: 'short', alg: 'RS256' }],
  ])('leaves out %s', (_name, jwk) => {
    expect([...signingKeysOf({ keys: [jwk, publicJwk(es)] }).keys()]).toEqual([es.kid]);
  });

  test('a document without a keys array is refused', () => {
    expect(() => signingKeysOf({ key: [] })).toThrow('the document is not a JWK Set (no "keys" array)');
  });
});

describe('RemoteKeySet', () => {
  const URL = 'https://issuer.example/jwks.json';
  const policy: KeySetPolicy = { ...DEFAULT_KEY_SET_POLICY, minSeconds: 10, refreshCooldownMs: 5_000, staleIfErrorSeconds: 60 };

  /** A key server whose answer the test changes, counting fetches, on a clock the test moves. */
  function harness() {
    const state = { now: 1_000_000, fetches: 0, keys: [es] as { kid: string; publicKey: VerificationKey['key']; algorithm: VerificationKey['algorithm'] }[], lifetime: 300 as number | undefined, down: false };
    const fetcher = async (): Promise<FetchedKeySet> => {
      state.fetches += 1;
      if (state.down) throw new Error('connect ECONNREFUSED');
      return { keys: new Map(state.keys.map((pair) => [pair.kid, { key: pair.publicKey, algorithm: pair.algorithm }])), declaredLifetimeSeconds: state.lifetime };
    };
    const set = new RemoteKeySet(URL, policy, fetcher, () => state.now);
    return { state, set };
  }

  async function unavailable(promise: Promise<unknown>): Promise<KeySetUnavailableError> {
    const error = await promise.then(() => undefined, (thrown: unknown) => thrown);
    if (!(error instanceof KeySetUnavailableError)) throw new Error(`expected KeySetUnavailableError, got ${String(error)}`);
    return error;
  }

  test('fetches once, then serves from the cache within the lifetime the response declared', async () => {
    const { state, set } = harness();
    expect((await set.keyFor(es.kid))?.algorithm).toBe('ES256');
    state.now += 299_000;
    expect(await set.keyFor(es.kid)).toBeDefined();
    expect(state.fetches).toBe(1);
    state.now += 1_000;
    await set.keyFor(es.kid);
    expect(state.fetches).toBe(2);
  });

  test('concurrent callers share one fetch', async () => {
    const { state, set } = harness();
    await Promise.all([set.keyFor(es.kid), set.keyFor(es.kid), set.keyFor(es.kid)]);
    expect(state.fetches).toBe(1);
  });

  test('an unknown kid refreshes at most once per cooldown; a rotated key is found by that refresh', async () => {
    const { state, set } = harness();
    await set.keyFor(es.kid);
    state.now += 5_000;
    state.keys = [ed];
    expect((await set.keyFor(ed.kid))?.algorithm).toBe('EdDSA');
    expect(state.fetches).toBe(2);
    for (let i = 0; i < 20; i += 1) expect(await set.keyFor(`made-up-${i}`)).toBeUndefined();
    expect(state.fetches).toBe(2);
    state.now += 5_000;
    expect(await set.keyFor('made-up-again')).toBeUndefined();
    expect(state.fetches).toBe(3);
  });

  test('a set that was never fetched: KeySetUnavailableError (503), and no second try within the cooldown', async () => {
    const { state, set } = harness();
    state.down = true;
    const error = await unavailable(set.keyFor(es.kid));
    expect(error.message).toBe(`cannot verify the token: the key set ${URL} cannot be fetched (connect ECONNREFUSED)`);
    expect(error.extensions).toEqual({ code: 'KEY_SET_UNAVAILABLE', http: { status: 503 } });
    await unavailable(set.keyFor(es.kid));
    expect(state.fetches).toBe(1);
    state.now += 5_000;
    state.down = false;
    expect(await set.keyFor(es.kid)).toBeDefined();
    expect(state.fetches).toBe(2);
  });

  test('an expired set keeps serving for staleIfErrorSeconds while its URL is down, then 503', async () => {
    const { state, set } = harness();
    await set.keyFor(es.kid);
    state.down = true;
    state.now += 300_000 + 59_000;
    expect(await set.keyFor(es.kid)).toBeDefined();
    state.now += 1_000;
    await unavailable(set.keyFor(es.kid));
  });

  test('an unknown kid while the URL is down: 503, not "no such key"', async () => {
    const { state, set } = harness();
    await set.keyFor(es.kid);
    state.down = true;
    state.now += 5_000;
    await unavailable(set.keyFor(ed.kid));
  });

  test('requests naming a new kid while its refresh is under way wait for it instead of being refused', async () => {
    const { state, set } = harness();
    await set.keyFor(es.kid);
    state.now += 5_000;
    state.keys = [ed];
    const found = await Promise.all(Array.from({ length: 5 }, () => set.keyFor(ed.kid)));
    expect(found.map((key) => key?.algorithm)).toEqual(Array(5).fill('EdDSA'));
    expect(state.fetches).toBe(2);
  });

  test('max-age=0 is held for the least lifetime, so requests do not each fetch', async () => {
    const { state, set } = harness();
    state.lifetime = 0;
    await set.keyFor(es.kid);
    state.now += 9_999;
    await set.keyFor(es.kid);
    expect(state.fetches).toBe(1);
  });
});

describe('KeySets over several URLs', () => {
  test('a kid found in one set never makes the others fetch again; a kid in none refreshes each once', async () => {
    const fetches: string[] = [];
    const published: Record<string, typeof es[]> = { 'https://a.example/jwks': [es], 'https://b.example/jwks': [ed] };
    const sets = new KeySets({ ...DEFAULT_KEY_SET_POLICY, refreshCooldownMs: 0 }, async (url) => {
      fetches.push(url);
      return { keys: new Map(published[url].map((pair) => [pair.kid, { key: pair.publicKey, algorithm: pair.algorithm }])), declaredLifetimeSeconds: 300 };
    });
    const urls = Object.keys(published);
    for (let i = 0; i < 3; i += 1) expect((await sets.keyFor(urls, ed.kid))?.algorithm).toBe('EdDSA');
    expect(fetches).toEqual(urls);
    expect(await sets.keyFor(urls, 'nobody')).toBeUndefined();
    expect(fetches).toEqual([...urls, ...urls]);
  });

  test('a kid in a set that answers is found while another set is down; a kid in none is then 503', async () => {
    const sets = new KeySets(DEFAULT_KEY_SET_POLICY, async (url) => {
      if (url.includes('down')) throw new Error('ECONNREFUSED');
      return { keys: new Map([[es.kid, { key: es.publicKey, algorithm: es.algorithm }]]), declaredLifetimeSeconds: undefined };
    });
    const urls = ['https://down.example/jwks', 'https://up.example/jwks'];
    expect(await sets.keyFor(urls, es.kid)).toBeDefined();
    await expect(sets.keyFor(urls, 'nobody')).rejects.toThrow('cannot verify the token: the key set https://down.example/jwks cannot be fetched (ECONNREFUSED)');
  });
});
