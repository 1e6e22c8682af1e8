import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';

/**
 * `cache-control: no-store` on every GraphQL answer that has no cache-control header yet: what Apollo's
 * cache control plugin answers when nothing is cacheable, as nothing is here (the generated API declares
 * no `@cacheControl`). That plugin is disabled (see apollo-server.ts) because it runs a hook for every
 * resolved field, a fifth of the CPU of a nested page request; this one runs once per request.
 */
export function noStorePlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  // Stateless: one listener serves every request.
  const listener: GraphQLRequestListener<TContext> = {
    async willSendResponse({ response }) {
      if (!response.http.headers.has('cache-control')) response.http.headers.set('cache-control', 'no-store');
    },
  };
  return {
    async requestDidStart() {
      return listener;
    },
  };
}
