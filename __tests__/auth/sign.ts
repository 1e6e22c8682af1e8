/** Signs JWTs with node:crypto for any algorithm the service accepts (jsonwebtoken has no EdDSA). */
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { JwtAlgorithm } from '../../src/sdl/model.js';
import { RSA_TEST_PAIRS } from './fixtures/rsa-test-keys.js';

export interface SigningPair {
  algorithm: JwtAlgorithm;
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

/** Fixed RSA pairs not used by keys.ts, handed out first (an RSA key takes about a second to generate). */
const spareRsaPairs = RSA_TEST_PAIRS.slice(2).map(({ publicKey, privateKey }) => ({ publicKey: createPublicKey(publicKey), privateKey: createPrivateKey(privateKey) }));

/** A key pair for `algorithm` no other call in this test file got, with a random `kid`. */
export function signingPair(algorithm: Exclude<JwtAlgorithm, 'HS256'>): SigningPair {
  const pair = algorithm === 'RS256' ? spareRsaPairs.shift() ?? generateKeyPairSync('rsa', { modulusLength: 2048 })
    : algorithm === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('ed25519');
  return { algorithm, ...pair, kid: randomUUID() };
}

/** The pair's public key as a JWK Set entry (`kid`, and `alg` unless told to leave it out). */
export function publicJwk(pair: SigningPair, options: { withAlg?: boolean } = {}): Record<string, unknown> {
  const jwk: Record<string, unknown> = { ...pair.publicKey.export({ format: 'jwk' }), kid: pair.kid, use: 'sig' };
  if (options.withAlg ?? true) jwk.alg = pair.algorithm;
  return jwk;
}

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS of `payload`; `header` adds to or overrides `{ alg, kid }`. */
export function signJwt(payload: unknown, algorithm: JwtAlgorithm, key: KeyObject, header: Record<string, unknown> = {}): string {
  const input = `${part({ alg: algorithm, typ: 'JWT', ...header })}.${part(payload)}`;
  const data = Buffer.from(input);
  const signature = algorithm === 'HS256' ? createHmac('sha256', key).update(data).digest()
    : algorithm === 'RS256' ? sign('sha256', data, key)
      : algorithm === 'ES256' ? sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' })
        : sign(null, data, key);
  return `${input}.${signature.toString('base64url')}`;
}

/** A token signed with the pair's private key and carrying its `kid`. */
export function signWith(pair: SigningPair, payload: unknown, header: Record<string, unknown> = {}): string {
  return signJwt(payload, pair.algorithm, pair.privateKey, { kid: pair.kid, ...header });
}
