import type { SchemaModel } from '../sdl/model.js';
import { ANONYMOUS, verifyRequestToken, type AuthResult, type HeaderSource } from './token.js';

/** What auth/ reads from and writes to a resolver context: the verified caller, and the headers to verify. */
export interface AuthContext {
  auth?: AuthResult;
  headers?: HeaderSource;
}

/**
 * The caller of this request. The auth plugin verifies the token before anything runs and stores the
 * result on the context; when a context was made without the plugin, the token is verified here (once
 * per context) so a rule is never evaluated without the caller's claims. That fallback covers a
 * `VerificationKey` only: key sets (`JWKUrl`) are fetched asynchronously, by the plugin.
 */
export function authOf(context: AuthContext | undefined, model: SchemaModel): AuthResult {
  if (!context) return ANONYMOUS;
  if (context.auth) return context.auth;
  const config = model.authorization;
  const auth = config && context.headers ? verifyRequestToken(config, context.headers) : ANONYMOUS;
  context.auth = auth;
  return auth;
}
