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
    [{ 'cache-control': 'MAX-AGE=45' }, 45],
    [{ 'cache-control': 'No-Store' }, 0],
    [{ 'cache-control': 'private,no-cache' }, 0],
    [{ 'cache-control': 'max-age = 30' }, 30],
    [{ 'cache-control': 'xmax-age=30' }, undefined],
    [{ 'cache-control': 'max-age=30x' }, undefined],
    [{ 'cache-control': 'max-age=' }, undefined],
    [{ 'cache-control': 'no-transform, max-age=7' }, 7],
    [{ 'cache-control': 'public', expires: 'Mon, 23 Nov 2026 12:01:00 GMT' }, 60],
    [{ expires: 'Mon, 23 Nov 2026 11:00:00 GMT' }, 0],
    [{ expires: 'never' }, 0],
    [{ expires: 'Mon, 23 Nov 2026 12:10:00 GMT', date: 'not a date' }, 600],
  ])('%j → %s', (headers, seconds) => {
    expect(declaredLifetimeSeconds(new Headers(headers), NOW)).toBe(seconds);
  });

  test('Expires minus now counts whole seconds', () => {
    expect(declaredLifetimeSeconds(new Headers({ expires: 'Mon, 23 Nov 2026 12:10:00 GMT' }), NOW - 500)).toBe(600);
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
    ['an Ed448 key without alg', { ...publicJwk(ed, { withAlg: false }), crv: 'Ed448' }],
    ['a key of unknown type without alg', { kty: 'XYZ', kid: 'xyz' }],
    ['an alg its key does not fit', { ...publicJwk(ed), alg: 'ES256' }],
    ['a P-384 key without alg', { ...signingPair('ES256').publicKey.export({ format: 'jwk' }), crv: 'P-384', kid: 'p384' }],
    ['a key that does not parse', { kty: 'RSA', n: 'AQAB', e: 'AQAB', kid: 'short', alg: 'RS256' }],
  ])('leaves out %s', (_name, jwk) => {
    expect([...signingKeysOf({ keys: [jwk, publicJwk(es)] }).keys()]).toEqual([es.kid]);
  });

  test.each<[string, unknown]>([
    ['an object without keys', { key: [] }],
    ['keys that are not a list', { keys: { a: 1 } }],
    ['null', null],
    ['a string', 'keys'],
  ])('%s is not a JWK Set', (_case, document) => {
    expect(() => signingKeysOf(document)).toThrow(new Error('the document is not a JWK Set (no "keys" array)'));
  });

  test('an RSA key without alg is RS256; a key without use is a signing key; entries that are not objects are skipped', () => {
    const { use: _use, ...withoutUse } = publicJwk(ed, { withAlg: false });
    const keys = signingKeysOf({ keys: [null, 'x', 7, publicJwk(rs, { withAlg: false }), withoutUse] });
    expect([...keys].map(([kid, key]) => [kid, key.algorithm])).toEqual([[rs.kid, 'RS256'], [ed.kid, 'EdDSA']]);
  });

  test('an EdDSA key that names its alg is kept', () => {
    expect([...signingKeysOf({ keys: [publicJwk(ed)] })].map(([kid, key]) => [kid, key.algorithm])).toEqual([[ed.kid, 'EdDSA']]);
  });

  test('the default policy', () => {
    expect(DEFAULT_KEY_SET_POLICY).toEqual({
      timeoutMs: 5_000, maxBytes: 262_144, defaultSeconds: 600, minSeconds: 30, maxSeconds: 86_400, refreshCooldownMs: 30_000, staleIfErrorSeconds: 3_600,
    });
  });

  test('the first key with a kid wins over a later one with the same kid', () => {
    const keys = signingKeysOf({ keys: [publicJwk(es), { ...publicJwk(ed), kid: es.kid }] });
    expect([...keys].map(([kid, key]) => [kid, key.algorithm])).toEqual([[es.kid, 'ES256']]);
    expect(keys.get(es.kid)?.key.asymmetricKeyType).toBe('ec');
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

  test('a fetcher failing with something other than an Error: its text is the reason', async () => {
    const set = new RemoteKeySet(URL, policy, () => Promise.reject('plain reason'), () => 0);
    expect((await unavailable(set.keyFor(es.kid))).message).toBe(`cannot verify the token: the key set ${URL} cannot be fetched (plain reason)`);
  });

  test('keys(): the whole set, fetched once within its lifetime', async () => {
    const { state, set } = harness();
    state.keys = [es, ed];
    expect([...(await set.keys()).keys()]).toEqual([es.kid, ed.kid]);
    expect([...(await set.keys()).keys()]).toEqual([es.kid, ed.kid]);
    expect(state.fetches).toBe(1);
  });

  test('a failed refresh of an expired set is not retried within the cooldown, while the stale set serves', async () => {
    const { state, set } = harness();
    await set.keyFor(es.kid);
    state.down = true;
    state.now += 300_000;
    expect(await set.keyFor(es.kid)).toBeDefined();
    expect(state.fetches).toBe(2);
    state.now += 4_999;
    expect(await set.keyFor(es.kid)).toBeDefined();
    expect(state.fetches).toBe(2);
    state.now += 1;
    state.down = false;
    expect(await set.keyFor(es.kid)).toBeDefined();
    expect(state.fetches).toBe(3);
  });

  test('a set that expires within the cooldown is fetched again when it expires, not served stale', async () => {
    const state = { now: 1_000_000, fetches: 0, keys: [es] };
    const shortLived = new RemoteKeySet(URL, { ...policy, minSeconds: 1 }, async () => {
      state.fetches += 1;
      return { keys: new Map(state.keys.map((pair) => [pair.kid, { key: pair.publicKey, algorithm: pair.algorithm }])), declaredLifetimeSeconds: 1 };
    }, () => state.now);
    expect([...(await shortLived.keys()).keys()]).toEqual([es.kid]);
    state.now += 1_000;
    state.keys = [ed];
    expect([...(await shortLived.keys()).keys()]).toEqual([ed.kid]);
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

  test('a kid that only the refresh of one set finds is returned while another set is down', async () => {
    const published: typeof es[] = [es];
    const sets = new KeySets({ ...DEFAULT_KEY_SET_POLICY, refreshCooldownMs: 0 }, async (url) => {
      if (url.includes('down')) throw new Error('ECONNREFUSED');
      return { keys: new Map(published.map((pair) => [pair.kid, { key: pair.publicKey, algorithm: pair.algorithm }])), declaredLifetimeSeconds: 300 };
    });
    const urls = ['https://down.example/jwks', 'https://up.example/jwks'];
    expect((await sets.keyFor(urls, es.kid))?.algorithm).toBe('ES256');
    published.splice(0, 1, ed);
    expect((await sets.keyFor(urls, ed.kid))?.algorithm).toBe('EdDSA');
  });
});
