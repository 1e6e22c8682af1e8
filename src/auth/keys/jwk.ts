import { createPublicKey, type JsonWebKey } from 'node:crypto';
import type { JwtAlgorithm } from '../../sdl/model.js';
import { keyFitsAlgorithm } from '../jwt/signature.js';
import type { VerificationKey } from '../jwt/verify.js';

/** The algorithm a public JWK signs with when it does not say (RFC 7518 6, RFC 8037 2). */
function impliedAlgorithm(jwk: JsonWebKey): JwtAlgorithm | undefined {
  if (jwk.kty === 'RSA') return 'RS256';
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  return undefined;
}

const PUBLIC_KEY_ALGORITHMS: readonly JwtAlgorithm[] = ['RS256', 'ES256', 'EdDSA'];

/**
 * The signing keys of a JWK Set document by `kid`. A key is kept when it has a `kid`, is meant for
 * signatures (`use` absent or `sig`), and is a public key of a supported algorithm (its `alg`, or the one
 * its type implies). Symmetric (`oct`) keys are never taken from a published set.
 */
export function signingKeysOf(document: unknown): Map<string, VerificationKey> {
  const keys = new Map<string, VerificationKey>();
  const list = typeof document === 'object' && document !== null ? (document as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(list)) throw new Error('the document is not a JWK Set (no "keys" array)');
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null) continue;
    const jwk = entry as JsonWebKey & { kid?: unknown; use?: unknown; alg?: unknown };
    if (typeof jwk.kid !== 'string' || keys.has(jwk.kid)) continue;
    if (jwk.use !== undefined && jwk.use !== 'sig') continue;
    const algorithm = jwk.alg === undefined ? impliedAlgorithm(jwk) : PUBLIC_KEY_ALGORITHMS.find((name) => name === jwk.alg);
    if (!algorithm) continue;
    try {
      const key = createPublicKey({ key: jwk, format: 'jwk' });
      if (keyFitsAlgorithm(key, algorithm)) keys.set(jwk.kid, { key, algorithm });
    } catch {
      // A key node:crypto cannot read is left out; the set's other keys still serve.
    }
  }
  return keys;
}
