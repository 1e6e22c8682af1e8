import type { ApolloServerPlugin, BaseContext, GraphQLRequestContextWillSendResponse, GraphQLRequestListener } from '@apollo/server';
import { getDirectiveValues, GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { ErrorCode } from '../errors/codes.js';

/** Dgraph's operation directive (api/generate.ts declares it): `query @cacheControl(maxAge: 60) { ... }`. */
export const CACHE_CONTROL = 'cacheControl';

/**
 * The `cache-control` header of every GraphQL answer that has none yet (a persisted query refusal sets its
 * own), as Dgraph gives it: `public,max-age=N` for a query operation with `@cacheControl(maxAge: N)`
 * (Dgraph's graphql/resolve/resolver.go and schema/wrappers.go), and else `no-store`, as Apollo's cache
 * control plugin answers when nothing is cacheable (browsers cache GET answers without a header). An
 * answer with errors is never marked cacheable: a timeout or an unavailable store would be served from
 * caches for `maxAge` seconds. The directive is declared `on QUERY`, so validation refuses it on mutations
 * and subscriptions. Apollo's own plugin is disabled (see apollo-server.ts): it runs a hook for every
 * resolved field, a fifth of the CPU of a nested page request; this one runs once per request.
 */
export function cacheControlPlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  // Stateless: one listener serves every request.
  const listener: GraphQLRequestListener<TContext> = {
    async didResolveOperation({ operation, schema, request }) {
      const maxAge = maxAgeOf(operation, schema, request.variables);
      if (maxAge !== undefined && maxAge < 0) {
        throw new GraphQLError(`@cacheControl(maxAge:) must be 0 or more seconds; the operation gives ${maxAge}`, {
          nodes: operation?.directives?.find((directive) => directive.name.value === CACHE_CONTROL),
          extensions: { code: ErrorCode.BAD_USER_INPUT, http: { status: 400 } },
        });
      }
    },
    async willSendResponse(requestContext) {
      const headers = requestContext.response.http.headers;
      if (!headers.has('cache-control')) headers.set('cache-control', cacheControlOf(requestContext));
    },
  };
  return {
    async requestDidStart() {
      return listener;
    },
  };
}

function cacheControlOf<TContext extends BaseContext>({ operation, schema, request, response, errors }: GraphQLRequestContextWillSendResponse<TContext>): string {
  if (operation?.operation !== 'query' || errors !== undefined) return 'no-store';
  if (response.body.kind !== 'single' || response.body.singleResult.errors !== undefined) return 'no-store';
  const maxAge = maxAgeOf(operation, schema, request.variables);
  return maxAge === undefined ? 'no-store' : `public,max-age=${maxAge}`;
}

/** The operation's `@cacheControl(maxAge:)`, its variable read (validation has checked the types). */
function maxAgeOf(operation: OperationDefinitionNode | undefined, schema: GraphQLSchema, variables: Record<string, unknown> | undefined): number | undefined {
  if (operation === undefined || operation.directives === undefined || operation.directives.length === 0) return undefined;
  const directive = schema.getDirective(CACHE_CONTROL);
  if (directive === undefined || directive === null) return undefined;
  const values = getDirectiveValues(directive, operation, variables);
  return typeof values?.maxAge === 'number' ? values.maxAge : undefined;
}
