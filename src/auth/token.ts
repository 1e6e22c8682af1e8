import jwt from 'jsonwebtoken';
import type { AuthorizationConfig } from '../sdl/model.js';
import { AuthenticationError } from './errors.js';

/** Who is calling: the verified token's payload and the rule variables taken from its namespace. */
export interface AuthResult {
  /** A valid token was presented. */
  authenticated: boolean;
  /** Rule variables by name without `$`: the claims under the configured namespace (`USER` → `$USER`). */
  variables: Readonly<Record<string, unknown>>;
  /** The whole verified payload (absent for anonymous callers). */
  claims?: Readonly<jwt.JwtPayload>;
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

/** The token in the configured header, without an optional `Bearer ` prefix; undefined when none was sent. */
export function tokenFrom(config: AuthorizationConfig, headers: HeaderSource): string | undefined {
  const value = headerValue(headers, config.header)?.trim();
  if (!value) return undefined;
  const token = /^bearer(\s+|$)/i.test(value) ? value.replace(/^bearer\s*/i, '') : value;
  return token;
}

/** jsonwebtoken's errors as a reason a client can act on. */
function reasonOf(error: unknown): string {
  if (error instanceof jwt.TokenExpiredError) return `the token expired at ${error.expiredAt.toISOString()}`;
  if (error instanceof jwt.NotBeforeError) return `the token is not valid before ${error.date.toISOString()}`;
  if (error instanceof jwt.JsonWebTokenError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The namespace's claims: an object, or (as some issuers write it) a JSON string holding one. */
function namespaceClaims(payload: jwt.JwtPayload, namespace: string): Record<string, unknown> {
  const value = payload[namespace];
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...(parsed as Record<string, unknown>) } : {};
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

/**
 * Verifies the token a request carries in the configured header: signature with the configured key and
 * only the configured algorithm, the audience when one is configured, `exp` and `nbf`. No token: the
 * caller is anonymous. A token that fails any check: `AuthenticationError` saying why.
 */
export function verifyRequestToken(config: AuthorizationConfig, headers: HeaderSource): AuthResult {
  const token = tokenFrom(config, headers);
  if (token === undefined) return ANONYMOUS;
  if (token === '') throw new AuthenticationError('the header holds "Bearer" but no token', config.header);
  let payload: string | jwt.JwtPayload;
  try {
    const options: jwt.VerifyOptions & { complete?: false } = { algorithms: [config.algo] };
    if (config.audience.length > 0) options.audience = config.audience as [string, ...string[]];
    payload = jwt.verify(token, config.verificationKey, options);
  } catch (error) {
    throw new AuthenticationError(reasonOf(error), config.header);
  }
  if (typeof payload === 'string') throw new AuthenticationError('the token payload is not a JSON object', config.header);
  return { authenticated: true, variables: Object.freeze(namespaceClaims(payload, config.namespace)), claims: Object.freeze(payload) };
}
