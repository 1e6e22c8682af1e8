import type { AuthorizationConfig } from '../sdl/model.js';
import { AuthenticationError } from './errors.js';
import { decodeCompactJws, type CompactJws } from './jwt/compact.js';
import { JwtError } from './jwt/errors.js';
import { verifyJws, type JwtPayload } from './jwt/verify.js';
import type { KeySets } from './keys/remote-key-set.js';
import { staticVerificationKey } from './keys/static-key.js';

/** Who is calling: the verified token's payload and the rule variables taken from its namespace. */
export interface AuthResult {
  /** A valid token was presented. */
  authenticated: boolean;
  /** Rule variables by name without `$`: the claims under the configured namespace (`USER` → `$USER`). */
  variables: Readonly<Record<string, unknown>>;
  /** The whole verified payload (absent for anonymous callers). */
  claims?: JwtPayload;
}

export const ANONYMOUS: AuthResult = Object.freeze({ authenticated: false, variables: Object.freeze({}) });

/** Request headers as a plain record (any name case) or a `get`-able map (Apollo's HeaderMap, fetch Headers). */
export type HeaderSource = Readonly<Record<string, string | string[] | undefined>> | { get(name: string): string | null | undefined };

function headerValue(headers: HeaderSource, name: string): string | undefined {
  const wanted = name.toLowerCase();
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null | undefined }).get(wanted) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}

const BEARER = 'bearer';

/** The token in the configured header, without an optional `Bearer ` prefix; undefined when none was sent. */
export function tokenFrom(config: AuthorizationConfig, headers: HeaderSource): string | undefined {
  const value = headerValue(headers, config.header)?.trim();
  if (!value) return undefined;
  return /^bearer(\s|$)/i.test(value) ? value.slice(BEARER.length).trimStart() : value;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A copy of `value` when it is a plain JSON object, else none (spreading `null` gives `{}` as well). */
function objectClaims(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

/** The namespace's claims: an object, or (as some issuers write it) a JSON string holding one. */
function namespaceClaims(payload: JwtPayload, namespace: string): Record<string, unknown> {
  const value = payload[namespace];
  return objectClaims(typeof value === 'string' ? parsedJson(value) : value);
}

function authenticated(config: AuthorizationConfig, payload: JwtPayload): AuthResult {
  return { authenticated: true, variables: Object.freeze(namespaceClaims(payload, config.namespace)), claims: Object.freeze({ ...payload }) };
}

/** The token in the headers, decoded but not yet trusted; undefined when none was sent. */
function presentedToken(config: AuthorizationConfig, headers: HeaderSource): CompactJws | undefined {
  const token = tokenFrom(config, headers);
  if (token === undefined) return undefined;
  if (token === '') throw new AuthenticationError('the header holds "Bearer" but no token', config.header);
  return refusingWith(config, () => decodeCompactJws(token));
}

/** Runs a step of the verification, turning a `JwtError` into the 401 `AuthenticationError`. */
function refusingWith<T>(config: AuthorizationConfig, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof JwtError) throw new AuthenticationError(error.reason, config.header);
    throw error;
  }
}

/**
 * Verifies the token a request carries in the configured header against the schema's `VerificationKey`:
 * signature with that key and only its algorithm, the audience when one is configured, `exp` and `nbf`.
 * No token: the caller is anonymous. A token that fails any check: `AuthenticationError` saying why.
 * Key sets (`JWKUrl`) need fetching: use `authenticateRequest`.
 */
export function verifyRequestToken(config: AuthorizationConfig, headers: HeaderSource): AuthResult {
  if (config.jwkUrls) throw new Error('an authorization line with JWKUrl/JWKUrls is verified by authenticateRequest, which fetches its keys');
  const jws = presentedToken(config, headers);
  if (!jws) return ANONYMOUS;
  return authenticated(config, refusingWith(config, () => verifyJws(jws, staticVerificationKey(config), config.audience)));
}

/**
 * `verifyRequestToken` for either kind of authorization line. With `JWKUrl`/`JWKUrls` the token's `kid`
 * picks the key from the sets (fetched, cached and refreshed by `keySets`); a set that cannot be fetched
 * refuses the request with `KeySetUnavailableError` (503). A request without a token never waits on a
 * key set.
 */
export async function authenticateRequest(config: AuthorizationConfig, headers: HeaderSource, keySets: KeySets): Promise<AuthResult> {
  if (!config.jwkUrls) return verifyRequestToken(config, headers);
  const jws = presentedToken(config, headers);
  if (!jws) return ANONYMOUS;
  const kid = jws.header.kid;
  if (typeof kid !== 'string' || kid === '') {
    throw new AuthenticationError('the token has no "kid" header, which picks its key from the JWK Set', config.header);
  }
  const key = await keySets.keyFor(config.jwkUrls, kid);
  if (!key) throw new AuthenticationError(`no key with kid ${JSON.stringify(kid)} in the JWK Set`, config.header);
  return authenticated(config, refusingWith(config, () => verifyJws(jws, key, config.audience)));
}
