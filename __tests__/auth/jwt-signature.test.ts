/** The JWS building blocks: which key fits which algorithm, signature checks, compact decoding, the error classes. */
import { createHmac, createSecretKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { AuthenticationError, AuthorizationError, AuthRuleError, KeySetUnavailableError } from '../../src/auth/errors.js';
import { decodeCompactJws } from '../../src/auth/jwt/compact.js';
import { JwtError } from '../../src/auth/jwt/errors.js';
import { keyFitsAlgorithm, signatureIsValid } from '../../src/auth/jwt/signature.js';
import { staticVerificationKey } from '../../src/auth/keys/static-key.js';
import type { JwtAlgorithm, StaticKeyAuthorization } from '../../src/sdl/model.js';
import { rsa } from './keys.js';
import { signingPair } from './sign.js';

const rs = signingPair('RS256');
const es = signingPair('ES256');
const ed = signingPair('EdDSA');
const secret = createSecretKey(Buffer.from('a shared secret of enough length'));
const p384 = () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
const ed448 = () => generateKeyPairSync('ed448').publicKey;
const rsa1024 = () => generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;

describe('keyFitsAlgorithm', () => {
  test.each<[string, () => KeyObject, JwtAlgorithm, boolean]>([
    ['a secret for HS256', () => secret, 'HS256', true],
    ['a secret for RS256', () => secret, 'RS256', false],
    ['a secret for EdDSA', () => secret, 'EdDSA', false],
    ['an RSA-2048 public key for RS256', () => rs.publicKey, 'RS256', true],
    ['an RSA-1024 public key for RS256 (too short)', rsa1024, 'RS256', false],
    ['an RSA private key for RS256', () => rs.privateKey, 'RS256', false],
    ['an RSA public key for HS256', () => rs.publicKey, 'HS256', false],
    ['an RSA public key for ES256', () => rs.publicKey, 'ES256', false],
    ['an RSA public key for EdDSA', () => rs.publicKey, 'EdDSA', false],
    ['a P-256 public key for ES256', () => es.publicKey, 'ES256', true],
    ['a P-384 public key for ES256', p384, 'ES256', false],
    ['a P-256 public key for RS256', () => es.publicKey, 'RS256', false],
    ['an Ed25519 public key for EdDSA', () => ed.publicKey, 'EdDSA', true],
    ['an Ed448 public key for EdDSA', ed448, 'EdDSA', false],
    ['an Ed25519 public key for ES256', () => ed.publicKey, 'ES256', false],
  ])('%s: %s → %s', (_case, key, algorithm, fits) => {
    expect(keyFitsAlgorithm(key(), algorithm)).toBe(fits);
  });
});

describe('signatureIsValid', () => {
  const input = Buffer.from('eyJhbGciOiJIUzI1NiJ9.e30');
  const other = Buffer.from('eyJhbGciOiJIUzI1NiJ9.e31');
  const hmac = createHmac('sha256', secret).update(input).digest();
  const esSignature = sign('sha256', input, { key: es.privateKey, dsaEncoding: 'ieee-p1363' });

  test.each<[string, JwtAlgorithm, KeyObject, Buffer, Buffer, boolean]>([
    ['HS256, the HMAC', 'HS256', secret, input, hmac, true],
    ['HS256, the HMAC of other bytes', 'HS256', secret, other, hmac, false],
    ['HS256, a truncated HMAC', 'HS256', secret, input, hmac.subarray(0, 31), false],
    ['HS256, no signature', 'HS256', secret, input, Buffer.alloc(0), false],
    ['RS256, signed', 'RS256', rs.publicKey, input, sign('sha256', input, rs.privateKey), true],
    ['RS256, other bytes', 'RS256', rs.publicKey, other, sign('sha256', input, rs.privateKey), false],
    ['ES256, r||s', 'ES256', es.publicKey, input, esSignature, true],
    ['ES256, other bytes', 'ES256', es.publicKey, other, esSignature, false],
    ['ES256, r||s with a byte more', 'ES256', es.publicKey, input, Buffer.concat([esSignature, Buffer.from([0])]), false],
    ['ES256, DER', 'ES256', es.publicKey, input, sign('sha256', input, es.privateKey), false],
    ['EdDSA, signed', 'EdDSA', ed.publicKey, input, sign(null, input, ed.privateKey), true],
    ['EdDSA, other bytes', 'EdDSA', ed.publicKey, other, sign(null, input, ed.privateKey), false],
  ])('%s → %s', (_case, algorithm, key, signingInput, signature, valid) => {
    expect(signatureIsValid(algorithm, key, signingInput, signature)).toBe(valid);
  });
});

describe('decodeCompactJws', () => {
  test('splits a token into header, payload, signed bytes and signature', () => {
    const jws = decodeCompactJws('eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJhIn0.AQID_w');
    expect(jws).toEqual({
      header: { alg: 'HS256', kid: 'k1' },
      payload: { sub: 'a' },
      signingInput: Buffer.from('eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJhIn0'),
      signature: Buffer.from([1, 2, 3, 255]),
    });
  });

  test.each([
    ['two parts', 'e30.e30'],
    ['four parts', 'e30.e30.e30.e30'],
    ['a header that is not base64url', '!!.e30.'],
    ['a header with a padding character', 'e30=.e30.'],
    ['a header with a character before it', '+e30.e30.'],
    ['a header that is a list', 'W10.e30.'],
    ['a header that is null', 'bnVsbA.e30.'],
    ['a header that is a number', 'MTIz.e30.'],
    ['a payload that is not JSON', 'e30.bm90IGpzb24.'],
    ['a payload that is not base64url', 'e30.e3+.'],
    ['a signature that is not base64url', 'e30.e30.ab+c'],
    ['a signature with a padding character', 'e30.e30.AQ=='],
  ])('%s: jwt malformed', (_case, token) => {
    let error: unknown;
    try {
      decodeCompactJws(token);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(JwtError);
    expect(error).toMatchObject({ name: 'JwtError', reason: 'jwt malformed', message: 'jwt malformed' });
  });
});

describe('the auth errors', () => {
  test.each<[string, Error, { name: string; message: string; extensions?: unknown }]>([
    ['AuthenticationError', new AuthenticationError('jwt expired', 'X-Auth'), {
      name: 'AuthenticationError', message: 'invalid token in header X-Auth: jwt expired', extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
    }],
    ['KeySetUnavailableError', new KeySetUnavailableError('https://k.example/jwks', 'ECONNREFUSED'), {
      name: 'KeySetUnavailableError', message: 'cannot verify the token: the key set https://k.example/jwks cannot be fetched (ECONNREFUSED)',
      extensions: { code: 'KEY_SET_UNAVAILABLE', http: { status: 503 } },
    }],
    ['AuthorizationError', new AuthorizationError('the add rule of Task refused it'), {
      name: 'AuthorizationError', message: 'the add rule of Task refused it', extensions: { code: 'FORBIDDEN' },
    }],
    ['AuthRuleError', new AuthRuleError('unknown type Nope'), { name: 'AuthRuleError', message: 'unknown type Nope' }],
  ])('%s', (_name, error, expected) => {
    expect(error).toMatchObject(expected);
  });
});

describe('staticVerificationKey', () => {
  const base = { header: 'X-Auth', namespace: 'ns', audience: [], closedByDefault: false };

  test('HS256: the UTF-8 bytes of the secret', () => {
    const key = staticVerificationKey({ ...base, algo: 'HS256', verificationKey: 'clé secrète' });
    expect(key.algorithm).toBe('HS256');
    expect(key.key.type).toBe('secret');
    expect(key.key.export()).toEqual(Buffer.from('clé secrète', 'utf8'));
  });

  test('RS256: the PEM public key, parsed once per configuration', () => {
    const config: StaticKeyAuthorization = { ...base, algo: 'RS256', verificationKey: rsa.publicKey };
    const key = staticVerificationKey(config);
    expect(key.algorithm).toBe('RS256');
    expect(key.key.export({ type: 'spki', format: 'pem' })).toBe(rsa.publicKey);
    expect(staticVerificationKey(config)).toBe(key);
  });
});
