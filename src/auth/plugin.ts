import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { SchemaModel } from '../sdl/model.js';
import { AuthenticationError } from './errors.js';
import type { AuthContext } from './request-auth.js';
import { ANONYMOUS, verifyRequestToken } from './token.js';

/** The model the executable schema was built from (resolve/ keeps it in the schema's extensions). */
function modelOf(schema: GraphQLSchema | undefined): SchemaModel | undefined {
  const extensions = schema?.extensions as { autograph?: { model?: SchemaModel } } | undefined;
  return extensions?.autograph?.model;
}

/**
 * Verifies the request's token against the active schema's Authorization line as the request starts and
 * puts the caller on the context as `auth`. An invalid token ends the request before execution with
 * HTTP 401 and one UNAUTHENTICATED error saying why: Apollo Server turns an error thrown from
 * `didResolveOperation` (the first hook whose errors become the response) into that response, using the
 * `http.status` the `AuthenticationError` carries.
 */
export function createAuthPlugin(): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart(requestContext) {
      const context = requestContext.contextValue as AuthContext;
      // Registered twice (by the app and in a caller's plugin list), the first one does the work.
      if (context.auth) return;
      const config = modelOf(requestContext.schema)?.authorization;
      const headers = requestContext.request.http?.headers;
      try {
        context.auth = config && headers ? verifyRequestToken(config, headers) : ANONYMOUS;
        return;
      } catch (error) {
        if (!(error instanceof AuthenticationError)) throw error;
        return {
          async didResolveOperation() {
            throw error;
          },
        };
      }
    },
  };
}
