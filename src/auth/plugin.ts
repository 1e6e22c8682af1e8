import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { SchemaModel } from '../sdl/model.js';
import type { AuthContext } from './request-auth.js';
import { ANONYMOUS, verifyRequestToken } from './token.js';

/** The model the executable schema was built from (resolve/ keeps it in the schema's extensions). */
function modelOf(schema: GraphQLSchema | undefined): SchemaModel | undefined {
  const extensions = schema?.extensions as { autograph?: { model?: SchemaModel } } | undefined;
  return extensions?.autograph?.model;
}

/**
 * Verifies the request's token against the active schema's Authorization line as the request starts,
 * before persisted-query lookups, parsing or execution. An invalid token ends the request with HTTP 401
 * and an UNAUTHENTICATED error saying why (`AuthenticationError` carries both); a valid or absent one is
 * put on the context as `auth` for the resolvers.
 */
export function createAuthPlugin(): ApolloServerPlugin<BaseContext> {
  return {
    async requestDidStart(requestContext) {
      const config = modelOf(requestContext.schema)?.authorization;
      const headers = requestContext.request.http?.headers;
      const auth = config && headers ? verifyRequestToken(config, headers) : ANONYMOUS;
      (requestContext.contextValue as AuthContext).auth = auth;
    },
  };
}
