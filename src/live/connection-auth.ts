import type { IncomingHttpHeaders } from 'node:http';
import { ANONYMOUS, authenticateRequest, AuthenticationError, KeySetUnavailableError, type AuthResult, type KeySets } from '../auth/index.js';
import type { SchemaModel } from '../sdl/model.js';

/**
 * The headers a WebSocket connection authenticates with: those of its upgrade request, overridden by the
 * `connection_init` payload, where browsers (which cannot set upgrade headers) put them. The payload may
 * hold them at its top level (`{ "X-Auth-Token": "..." }`, Apollo Client's `connectionParams`) or under
 * `headers`; only string values count.
 */
export function connectionHeaders(upgrade: IncomingHttpHeaders, payload: Readonly<Record<string, unknown>> | undefined): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(upgrade)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  const nested = payload?.headers;
  const sources = [payload ?? {}, typeof nested === 'object' && nested !== null && !Array.isArray(nested) ? (nested as Record<string, unknown>) : {}];
  for (const source of sources) {
    for (const [name, value] of Object.entries(source)) if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  return headers;
}

export type ConnectionAuth = { ok: true; auth: AuthResult; expiresAt?: number } | { ok: false; reason: string };

/** Verifies the connection's token as an HTTP request's is verified (auth/token.ts), and when it expires. */
export async function authenticateConnection(model: SchemaModel, headers: Record<string, string | undefined>, keySets: KeySets): Promise<ConnectionAuth> {
  const config = model.authorization;
  if (!config) return { ok: true, auth: ANONYMOUS };
  try {
    const auth = await authenticateRequest(config, headers, keySets);
    const exp = auth.claims?.exp;
    return typeof exp === 'number' ? { ok: true, auth, expiresAt: exp * 1000 } : { ok: true, auth };
  } catch (error) {
    if (error instanceof AuthenticationError || error instanceof KeySetUnavailableError) return { ok: false, reason: error.message };
    throw error;
  }
}
