import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { SchemaModel } from '../sdl/model.js';
import { AuthenticationError, KeySetUnavailableError } from './errors.js';
import { DEFAULT_KEY_SET_POLICY, KeySets } from './keys/remote-key-set.js';
import type { AuthContext } from './request-auth.js';
import { misplacedTokenHeader } from './misplaced-token.js';
import { ANONYMOUS, authenticateRequest } from './token.js';

/** The model the executable schema was built from (resolve/ keeps it in the schema's extensions). */
function modelOf(schema: GraphQLSchema | undefined): SchemaModel | undefined {
  const extensions = schema?.extensions as { autograph?: { model?: SchemaModel } } | undefined;
  return extensions?.autograph?.model;
}

export interface AuthPluginOptions {
  /**
   * Hears a request answered as anonymous although header `found` holds what looks like a token and the
   * schema reads tokens from `configured` (the service logs it, at most once per header name and minute).
   */
  onMisplacedToken?(found: string, configured: string): void;
}

/** What the answer's `extensions.authorization.hint` says to a caller whose token went unread. */
export function misplacedTokenHint(found: string, configured: string): string {
  return `the request carries a token in the header ${found}, but this schema's # Autograph.Authorization line reads tokens from ${configured}: the request was answered as anonymous`;
}

/**
 * Verifies the request's token against the active schema's Authorization line as the request starts and
 * puts the caller on the context as `auth`. An invalid token ends the request before execution with
 * HTTP 401 and one UNAUTHENTICATED error saying why: Apollo Server turns an error thrown from
 * `didResolveOperation` (the first hook whose errors become the response) into that response, using the
 * `http.status` the `AuthenticationError` carries. A token whose key set (`JWKUrl`) cannot be fetched ends
 * it the same way with 503 and KEY_SET_UNAVAILABLE. `keySets` keeps the fetched key sets, per URL; the
 * WebSocket transport verifies with the same instance, so both share one cache of each JWK Set.
 */
export function createAuthPlugin(
  keySets: KeySets = new KeySets(DEFAULT_KEY_SET_POLICY),
  options: AuthPluginOptions = {},
): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart(requestContext) {
      const context = requestContext.contextValue as AuthContext;
      // Registered twice (by the app and in a caller's plugin list), the first one does the work.
      if (context.auth) return;
      const config = modelOf(requestContext.schema)?.authorization;
      const headers = requestContext.request.http?.headers;
      try {
        context.auth = config && headers ? await authenticateRequest(config, headers, keySets) : ANONYMOUS;
        const misplaced = config && headers && !context.auth.authenticated ? misplacedTokenHeader(config, headers) : undefined;
        if (misplaced === undefined || config === undefined) return;
        options.onMisplacedToken?.(misplaced, config.header);
        const hint = misplacedTokenHint(misplaced, config.header);
        return {
          async willSendResponse({ response }) {
            if (response.body.kind !== 'single') return;
            const result = response.body.singleResult;
            result.extensions = { ...result.extensions, authorization: { hint } };
          },
        };
      } catch (error) {
        if (!(error instanceof AuthenticationError || error instanceof KeySetUnavailableError)) throw error;
        return {
          async didResolveOperation() {
            throw error;
          },
        };
      }
    },
  };
}
