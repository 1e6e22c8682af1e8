import jwt from 'jsonwebtoken';
import { AuthenticationError, tokenFrom, verifyRequestToken } from '../../src/auth/index.js';
import type { AuthorizationConfig } from '../../src/sdl/model.js';
import { AUDIENCE, hsSecret, NAMESPACE, otherRsa, rsa, tokenFor } from './keys.js';
import { sign } from 'node:crypto';

/** A compact JWS over a payload given as its exact JSON text, signed RS256 (jsonwebtoken cannot sign a JSON string payload). */
function signCompact(header: object, payloadJson: string, privateKey: string): string {
  const signingInput = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(payloadJson).toString('base64url')}`;
  return `${signingInput}.${sign('sha256', Buffer.from(signingInput), privateKey).toString('base64url')}`;
}

const rs256: AuthorizationConfig = {
  verificationKey: rsa.publicKey, header: 'X-Auth-Token', namespace: NAMESPACE, algo: 'RS256', audience: [AUDIENCE], closedByDefault: false,
};
const hs256: AuthorizationConfig = { ...rs256, verificationKey: hsSecret, algo: 'HS256' };

function refusal(config: AuthorizationConfig, headers: Record<string, string>): AuthenticationError {
  try {
    verifyRequestToken(config, headers);
  } catch (error) {
    if (error instanceof AuthenticationError) return error;
    throw error;
  }
  throw new Error('the token was accepted');
}

describe('verifyRequestToken', () => {
  test('a valid RS256 token: the namespace claims become the variables', () => {
    const auth = verifyRequestToken(rs256, { 'x-auth-token': tokenFor({ USER: 'alice', ROLE: 'ADMIN' }) });
    expect(auth.authenticated).toBe(true);
    expect(auth.variables).toEqual({ USER: 'alice', ROLE: 'ADMIN' });
    expect(auth.claims?.aud).toBe(AUDIENCE);
  });

  test('a valid HS256 token', () => {
    const auth = verifyRequestToken(hs256, { 'x-auth-token': tokenFor({ USER: 'bob' }, { algorithm: 'HS256' }) });
    expect(auth.variables).toEqual({ USER: 'bob' });
  });

  test('the header name is matched without regard to case, and a Bearer prefix is allowed', () => {
    const token = tokenFor({ USER: 'alice' });
    expect(verifyRequestToken(rs256, { 'X-AUTH-TOKEN': `Bearer ${token}` }).variables).toEqual({ USER: 'alice' });
    expect(verifyRequestToken(rs256, new Headers({ 'x-auth-token': `bearer ${token}` })).variables).toEqual({ USER: 'alice' });
  });

  test('claims written as a JSON string under the namespace are read too', () => {
    const auth = verifyRequestToken(rs256, { 'x-auth-token': tokenFor({ USER: 'carol' }, { claimsAsString: true }) });
    expect(auth.variables).toEqual({ USER: 'carol' });
  });

  test('no token, an empty header, or the token in another header: anonymous', () => {
    const token = tokenFor({ USER: 'alice' });
    for (const headers of [{}, { 'x-auth-token': '  ' }, { authorization: `Bearer ${token}` }]) {
      const auth = verifyRequestToken(rs256, headers);
      expect(auth).toEqual({ authenticated: false, variables: {} });
    }
  });

  test('a token without the namespace: authenticated, but no variables', () => {
    const auth = verifyRequestToken(rs256, { 'x-auth-token': tokenFor({ USER: 'alice' }, { namespace: 'https://elsewhere' }) });
    expect(auth).toMatchObject({ authenticated: true, variables: {} });
  });

  test('without a configured audience, the token\'s audience is not checked', () => {
    const auth = verifyRequestToken({ ...rs256, audience: [] }, { 'x-auth-token': tokenFor({ USER: 'alice' }, { audience: 'someone-else' }) });
    expect(auth.variables).toEqual({ USER: 'alice' });
  });

  test.each<[string, AuthorizationConfig, () => string, RegExp]>([
    ['expired', rs256, () => tokenFor({ USER: 'alice' }, { expiresIn: -60 }), /the token expired at \d{4}-/],
    ['not yet valid', rs256, () => tokenFor({ USER: 'alice' }, { notBefore: 600 }), /the token is not valid before \d{4}-/],
    ['signed with another key', rs256, () => tokenFor({ USER: 'alice' }, { key: otherRsa.privateKey }), /invalid signature/],
    ['tampered payload', rs256, () => {
      const [header, , signature] = tokenFor({ USER: 'alice' }).split('.');
      const forged = Buffer.from(JSON.stringify({ [NAMESPACE]: { USER: 'mallory' }, aud: AUDIENCE })).toString('base64url');
      return `${header}.${forged}.${signature}`;
    }, /invalid signature/],
    ['for another audience', rs256, () => tokenFor({ USER: 'alice' }, { audience: 'another-app' }), /jwt audience invalid/],
    ['HS256 when RS256 is configured', rs256, () => tokenFor({ USER: 'alice' }, { algorithm: 'HS256' }), /invalid algorithm/],
    ['RS256 when HS256 is configured', hs256, () => tokenFor({ USER: 'alice' }), /invalid algorithm/],
    ['HS256 signed with the public key as secret (algorithm confusion)', rs256, () =>
      jwt.sign({ [NAMESPACE]: { USER: 'mallory' } }, Buffer.from(rsa.publicKey), { algorithm: 'HS256', audience: AUDIENCE }), /invalid algorithm/],
    ['alg none', rs256, () => jwt.sign({ [NAMESPACE]: { USER: 'mallory' } }, '', { algorithm: 'none', audience: AUDIENCE }), /jwt signature is required/],
    ['malformed', rs256, () => 'not.a.token', /^(invalid token|jwt malformed)$/],
  ])('%s: AuthenticationError (401, UNAUTHENTICATED) saying why', (_name, config, token, reason) => {
    const error = refusal(config, { 'x-auth-token': token() });
    expect(error.message).toMatch(/^invalid token in header X-Auth-Token: /);
    expect(error.reason).toMatch(reason);
    expect(error.extensions).toEqual({ code: 'UNAUTHENTICATED', http: { status: 401 } });
  });

  test('"Bearer" without a token is refused', () => {
    const error = refusal(rs256, { 'x-auth-token': 'Bearer' });
    expect(error.reason).toBe('the header holds "Bearer" but no token');
    expect(error.extensions).toEqual({ code: 'UNAUTHENTICATED', http: { status: 401 } });
  });

  test('a signed payload that is not JSON (jsonwebtoken signs a string as it is) is refused as malformed', () => {
    const token = jwt.sign('just a string', rsa.privateKey, { algorithm: 'RS256' });
    expect(refusal({ ...rs256, audience: [] }, { 'x-auth-token': token }).reason).toBe('jwt malformed');
  });

  test('a signed payload that is JSON but not an object is refused', () => {
    const token = signCompact({ alg: 'RS256', typ: 'JWT' }, '"just a string"', rsa.privateKey);
    expect(refusal({ ...rs256, audience: [] }, { 'x-auth-token': token }).reason).toBe('the token payload is not a JSON object');
  });

  // The namespace's value as an issuer wrote it → the rule variables.
  test.each<[string, unknown, Record<string, unknown>]>([
    ['an object', { USER: 'alice' }, { USER: 'alice' }],
    ['a JSON string of an object', JSON.stringify({ USER: 'alice' }), { USER: 'alice' }],
    ['a JSON string of a list', JSON.stringify(['alice']), {}],
    ['a JSON string of null', 'null', {}],
    ['a JSON string of a number', '7', {}],
    ['a JSON string of a string', JSON.stringify('alice'), {}],
    ['a JSON string of true', 'true', {}],
    ['a string that is not JSON', 'USER=alice', {}],
    ['a list', ['alice'], {}],
    ['null', null, {}],
    ['a number', 7, {}],
  ])('namespace claims written as %s', (_shape, value, variables) => {
    const token = jwt.sign({ [NAMESPACE]: value }, rsa.privateKey, { algorithm: 'RS256', audience: AUDIENCE });
    const auth = verifyRequestToken(rs256, { 'x-auth-token': token });
    expect(auth.authenticated).toBe(true);
    expect(auth.variables).toEqual(variables);
  });
});

describe('tokenFrom', () => {
  test.each<[string, Record<string, string | string[] | undefined>, string | undefined]>([
    ['the token alone', { 'x-auth-token': 'abc' }, 'abc'],
    ['after "Bearer "', { 'x-auth-token': 'Bearer abc' }, 'abc'],
    ['after "bearer" and several spaces', { 'x-auth-token': 'bearer   abc' }, 'abc'],
    ['"Bearer" glued to the token is part of the token', { 'x-auth-token': 'Bearerabc' }, 'Bearerabc'],
    ['"Bearer" after something else is part of the token', { 'x-auth-token': 'xBearer abc' }, 'xBearer abc'],
    ['after "Bearer" and a tab', { 'x-auth-token': 'Bearer\tabc' }, 'abc'],
    ['a token that contains "bearer" after the prefix', { 'x-auth-token': 'Bearer abc bearer def' }, 'abc bearer def'],
    ['"Bearer" alone', { 'x-auth-token': 'Bearer' }, ''],
    ['surrounding spaces trimmed', { 'x-auth-token': '  abc  ' }, 'abc'],
    ['a header sent twice, joined as HTTP does', { 'x-auth-token': ['abc', 'def'] }, 'abc, def'],
    ['another header only', { authorization: 'Bearer abc' }, undefined],
    ['the header without a value', { 'x-auth-token': undefined }, undefined],
    ['the header name in any case', { 'X-Auth-TOKEN': 'abc' }, 'abc'],
  ])('%s', (_case, headers, token) => {
    expect(tokenFrom(rs256, headers)).toBe(token);
  });

  test('reads a get-able header map by the lower-case name', () => {
    const asked: string[] = [];
    const headers = { get: (name: string) => (asked.push(name), name === 'x-auth-token' ? 'Bearer abc' : null) };
    expect(tokenFrom(rs256, headers)).toBe('abc');
    expect(asked).toEqual(['x-auth-token']);
    expect(tokenFrom(rs256, { get: () => null })).toBeUndefined();
  });
});
