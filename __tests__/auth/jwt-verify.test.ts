import { createSecretKey, sign } from 'node:crypto';
import { decodeCompactJws } from '../../src/auth/jwt/compact.js';
import { JwtError } from '../../src/auth/jwt/errors.js';
import { verifyJws, type VerificationKey } from '../../src/auth/jwt/verify.js';
import type { JwtAlgorithm } from '../../src/sdl/model.js';
import { signingPair, signJwt, signWith } from './sign.js';

const NOW = 1_800_000_000;
const rs = signingPair('RS256');
const es = signingPair('ES256');
const ed = signingPair('EdDSA');
const otherEd = signingPair('EdDSA');
const secret = createSecretKey(Buffer.from('a shared secret of enough length'));

const keyOf = (pair: { publicKey: VerificationKey['key']; algorithm: JwtAlgorithm }): VerificationKey => ({ key: pair.publicKey, algorithm: pair.algorithm });
const hsKey: VerificationKey = { key: secret, algorithm: 'HS256' };
const claims = { aud: 'app', exp: NOW + 60, 'https://ns': { USER: 'alice' } };

function verify(token: string, key: VerificationKey, audience: string[] = ['app']) {
  return verifyJws(decodeCompactJws(token), key, audience, NOW);
}

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof JwtError) return error.reason;
    throw error;
  }
  throw new Error('the token was accepted');
}

describe('verifyJws', () => {
  test.each<[string, () => string, VerificationKey]>([
    ['RS256', () => signWith(rs, claims), keyOf(rs)],
    ['ES256', () => signWith(es, claims), keyOf(es)],
    ['EdDSA (Ed25519)', () => signWith(ed, claims), keyOf(ed)],
    ['HS256', () => signJwt(claims, 'HS256', secret), hsKey],
  ])('%s: a valid token gives its payload', (_name, token, key) => {
    expect(verify(token(), key)).toEqual(claims);
  });

  test.each<[string, () => string, VerificationKey, string]>([
    ['EdDSA signed by another key', () => signWith(otherEd, claims), keyOf(ed), 'invalid signature'],
    ['ES256 with a DER signature instead of r||s', () => {
      const [header, payload] = signWith(es, claims).split('.');
      const der = sign('sha256', Buffer.from(`${header}.${payload}`), es.privateKey);
      return `${header}.${payload}.${der.toString('base64url')}`;
    }, keyOf(es), 'invalid signature'],
    ['a token saying EdDSA where the key is ES256', () => signWith(ed, claims), keyOf(es), 'invalid algorithm'],
    ['HS256 signed with the public key as the secret (algorithm confusion)', () =>
      signJwt(claims, 'HS256', createSecretKey(Buffer.from(rs.publicKey.export({ type: 'spki', format: 'pem' })))), keyOf(rs), 'invalid algorithm'],
    ['an EdDSA key given as if it were ES256', () => signJwt(claims, 'ES256', es.privateKey), { key: ed.publicKey, algorithm: 'ES256' }, 'invalid signature'],
    ['alg none without a signature', () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
      keyOf(ed), 'jwt signature is required'],
    ['a "crit" header', () => signWith(ed, claims, { crit: ['exp'] }), keyOf(ed), 'the token header lists "crit" extensions, which are not supported'],
    ['expired', () => signWith(ed, { ...claims, exp: NOW }), keyOf(ed), `the token expired at ${new Date(NOW * 1000).toISOString()}`],
    ['not yet valid', () => signWith(ed, { ...claims, nbf: NOW + 1 }), keyOf(ed), `the token is not valid before ${new Date((NOW + 1) * 1000).toISOString()}`],
    ['exp not a number', () => signWith(ed, { ...claims, exp: 'tomorrow' }), keyOf(ed), 'invalid exp value'],
    ['another audience', () => signWith(ed, { ...claims, aud: ['other', 'more'] }), keyOf(ed), 'jwt audience invalid. expected: app'],
    ['no audience', () => signWith(ed, { exp: NOW + 60 }), keyOf(ed), 'jwt audience invalid. expected: app'],
    ['a payload that is not an object', () => signWith(ed, ['USER']), keyOf(ed), 'the token payload is not a JSON object'],
  ])('%s: refused with the reason', (_name, token, key, reason) => {
    expect(reasonOf(() => verify(token(), key))).toBe(reason);
  });

  test('an audience list accepts a token naming any one of it', () => {
    expect(verify(signWith(es, { ...claims, aud: ['x', 'second'] }), keyOf(es), ['first', 'second'])).toMatchObject({ aud: ['x', 'second'] });
  });

  test.each(['a.b', 'a.b.c.d', '!!.e30.', 'e30.bm90IGpzb24.', 'W10.e30.sig'])('%s is malformed', (token) => {
    expect(reasonOf(() => decodeCompactJws(token))).toBe('jwt malformed');
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    ['nbf equal to now', { ...claims, nbf: NOW }, ['app']],
    ['exp one second ahead', { ...claims, exp: NOW + 1 }, ['app']],
    ['no exp and no nbf', { aud: 'app' }, ['app']],
    ['aud as a single string', { ...claims, aud: 'app' }, ['app']],
    ['aud naming the audience beside a number', { ...claims, aud: [1, 'app'] }, ['app']],
    ['no configured audience and no aud', { exp: NOW + 60 }, []],
  ])('%s: accepted', (_name, payload, audience) => {
    expect(verify(signWith(ed, payload), keyOf(ed), audience)).toEqual(payload);
  });

  /** A token over the payload's exact JSON text (JSON.stringify cannot write 1e400). */
  const signedText = (payloadJson: string) => {
    const input = `${Buffer.from(JSON.stringify({ alg: 'EdDSA' })).toString('base64url')}.${Buffer.from(payloadJson).toString('base64url')}`;
    return `${input}.${sign(null, Buffer.from(input), ed.privateKey).toString('base64url')}`;
  };

  test.each<[string, string, string]>([
    ['exp null', '{"aud":"app","exp":null}', 'invalid exp value'],
    ['exp beyond any number', '{"aud":"app","exp":1e400}', 'invalid exp value'],
    ['nbf not a number', '{"aud":"app","nbf":"now"}', 'invalid nbf value'],
    ['aud a number', '{"aud":7}', 'jwt audience invalid. expected: app or web'],
    ['a payload that is null', 'null', 'the token payload is not a JSON object'],
    ['a payload that is a string', '"app"', 'the token payload is not a JSON object'],
    ['nbf too far ahead for a date', '{"aud":"app","nbf":1e300}', 'the token is not valid before 1e+300 (seconds since 1970)'],
    ['exp too far back for a date', '{"aud":"app","exp":-1e300}', 'the token expired at -1e+300 (seconds since 1970)'],
  ])('%s: refused with the reason', (_name, payloadJson, reason) => {
    expect(reasonOf(() => verify(signedText(payloadJson), keyOf(ed), ['app', 'web']))).toBe(reason);
  });

  test('a signature node:crypto cannot even read is simply invalid', () => {
    const [header, payload] = signWith(rs, claims).split('.');
    expect(reasonOf(() => verify(`${header}.${payload}.AQ`, keyOf(rs)))).toBe('invalid signature');
  });

  test('the current time is used when none is given', () => {
    const now = Math.floor(Date.now() / 1000);
    const token = decodeCompactJws(signWith(ed, { aud: 'app', nbf: now - 5, exp: now + 600 }));
    expect(verifyJws(token, keyOf(ed), ['app'])).toEqual({ aud: 'app', nbf: now - 5, exp: now + 600 });
    const expired = decodeCompactJws(signWith(ed, { aud: 'app', exp: now - 5 }));
    expect(reasonOf(() => verifyJws(expired, keyOf(ed), ['app']))).toBe(`the token expired at ${new Date((now - 5) * 1000).toISOString()}`);
  });
});
