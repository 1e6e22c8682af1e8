import type { KeyObject } from 'node:crypto';
import type { JwtAlgorithm } from '../../sdl/model.js';
import type { CompactJws } from './compact.js';
import { JwtError } from './errors.js';
import { keyFitsAlgorithm, signatureIsValid } from './signature.js';

/** A key and the one algorithm it may verify. */
export interface VerificationKey {
  key: KeyObject;
  algorithm: JwtAlgorithm;
}

export type JwtPayload = Readonly<Record<string, unknown>>;

function signatureChecks(jws: CompactJws, { key, algorithm }: VerificationKey): boolean {
  try {
    return keyFitsAlgorithm(key, algorithm) && signatureIsValid(algorithm, key, jws.signingInput, jws.signature);
  } catch {
    // node:crypto throws on signatures it cannot even parse; those are simply not valid.
    return false;
  }
}

function numericDate(payload: Record<string, unknown>, claim: 'exp' | 'nbf'): number | undefined {
  const value = payload[claim];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new JwtError(`invalid ${claim} value`);
  return value;
}

/** A NumericDate for a message: ISO 8601, or the number itself when it lies beyond JavaScript's dates. */
function dateText(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `${seconds} (seconds since 1970)` : date.toISOString();
}

function checkAudience(payload: Record<string, unknown>, audience: readonly string[]): void {
  if (audience.length === 0) return;
  const claimed = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!claimed.some((value) => typeof value === 'string' && audience.includes(value))) {
    throw new JwtError(`jwt audience invalid. expected: ${audience.join(' or ')}`);
  }
}

/**
 * Checks a decoded token against one key: the header's `alg` must be the key's algorithm (so a token cannot
 * choose how it is checked), the signature must verify, `nbf` and `exp` must hold at `nowSeconds`, and
 * `aud` must name one of `audience` when that is not empty. Returns the payload; throws `JwtError`.
 */
export function verifyJws(jws: CompactJws, key: VerificationKey, audience: readonly string[], nowSeconds = Math.floor(Date.now() / 1000)): JwtPayload {
  if (jws.signature.length === 0) throw new JwtError('jwt signature is required');
  if (jws.header.alg !== key.algorithm) throw new JwtError('invalid algorithm');
  // RFC 7515 4.1.11: extensions named in "crit" must be understood; this service understands none.
  if (jws.header.crit !== undefined) throw new JwtError('the token header lists "crit" extensions, which are not supported');
  if (!signatureChecks(jws, key)) throw new JwtError('invalid signature');
  const payload = jws.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new JwtError('the token payload is not a JSON object');
  const claims = payload as Record<string, unknown>;
  const notBefore = numericDate(claims, 'nbf');
  if (notBefore !== undefined && notBefore > nowSeconds) throw new JwtError(`the token is not valid before ${dateText(notBefore)}`);
  const expires = numericDate(claims, 'exp');
  if (expires !== undefined && nowSeconds >= expires) throw new JwtError(`the token expired at ${dateText(expires)}`);
  checkAudience(claims, audience);
  return claims;
}
