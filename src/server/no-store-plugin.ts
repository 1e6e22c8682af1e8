import type { ApolloServerPlugin, BaseContext } from '@apollo/server';

/**
 * `cache-control: no-store` on every GraphQL answer that has no cache-control header yet: what Apollo's
 * cache control plugin answers when nothing is cacheable, as nothing is here (the generated API declares
 * no `@cacheControl`). That plugin is disabled (see apollo-server.ts) because it runs a hook for every
 * resolved field, a fifth of the CPU of a nested page request; this one runs once per request.
 */
export function noStorePlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (!response.http.headers.has('cache-control')) response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}
