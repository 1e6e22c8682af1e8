/**
 * JWS signatures with node:crypto alone. jsonwebtoken (used before) has no EdDSA; jose 6 has everything
 * but ships as ESM only, which the CommonJS build and its jest + ts-jest tests cannot load. node:crypto
 * verifies all four algorithms (`verify(null, ...)` for Ed25519, `dsaEncoding: 'ieee-p1363'` for the JWS
 * form of ECDSA signatures) and reads JWKs (`createPublicKey({ format: 'jwk' })`), so no dependency is needed.
 */
import { createHmac, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import type { JwtAlgorithm } from '../../sdl/model.js';

/** What each algorithm verifies with (node:crypto's key types; ES256 on P-256 only, EdDSA on Ed25519 only). */
const KEY_KINDS: Record<JwtAlgorithm, { type: KeyObject['type']; asymmetricType?: string; curve?: string }> = {
  HS256: { type: 'secret' },
  RS256: { type: 'public', asymmetricType: 'rsa' },
  ES256: { type: 'public', asymmetricType: 'ec', curve: 'prime256v1' },
  EdDSA: { type: 'public', asymmetricType: 'ed25519' },
};

/** RFC 7518 3.3: an RSA key for RS256 must have at least 2048 bits. */
const MIN_RSA_BITS = 2048;

/** Whether `key` is the kind of key `algorithm` verifies with, so a key can never be used for another algorithm. */
export function keyFitsAlgorithm(key: KeyObject, algorithm: JwtAlgorithm): boolean {
  const kind = KEY_KINDS[algorithm];
  if (key.type !== kind.type) return false;
  if (kind.asymmetricType === undefined) return true;
  if (key.asymmetricKeyType !== kind.asymmetricType) return false;
  const details = key.asymmetricKeyDetails;
  if (kind.curve !== undefined && details?.namedCurve !== kind.curve) return false;
  if (algorithm === 'RS256' && (details?.modulusLength ?? 0) < MIN_RSA_BITS) return false;
  return true;
}

/** Verifies a JWS signature with node:crypto. The caller has checked that the key fits the algorithm. */
export function signatureIsValid(algorithm: JwtAlgorithm, key: KeyObject, signingInput: Buffer, signature: Buffer): boolean {
  switch (algorithm) {
    case 'HS256': {
      const expected = createHmac('sha256', key).update(signingInput).digest();
      return expected.length === signature.length && timingSafeEqual(expected, signature);
    }
    case 'RS256':
      return verify('sha256', signingInput, key, signature);
    case 'ES256':
      // JWS carries ECDSA signatures as r || s (RFC 7518 3.4), not DER.
      return signature.length === 64 && verify('sha256', signingInput, { key, dsaEncoding: 'ieee-p1363' }, signature);
    case 'EdDSA':
      return verify(null, signingInput, key, signature);
  }
}
