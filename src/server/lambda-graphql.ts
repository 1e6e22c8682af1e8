import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import { markTrustedRequest } from '../persisted/index.js';

/**
 * The executor behind a lambda's `graphql(query, variables)`: the operation goes through Apollo Server
 * (same plugins, same active schema) with a fresh context and the caller's headers, so it runs with the
 * caller's identity and permissions. Answers `{ data, errors? }` with errors already formatted.
 * The request is marked as the service's own: the operator installed the script, so safelist mode
 * (`--persisted-only`, which limits what clients send) does not apply to it.
 */
export function lambdaGraphqlExecutor(
  apollo: ApolloServer<BaseContext>,
  contextFor: (headers: Record<string, string | undefined>) => Promise<BaseContext> | BaseContext,
): (query: string, variables: Record<string, unknown> | undefined, headers: Record<string, string | undefined>) => Promise<object> {
  return async (query, variables, headers) => {
    const httpHeaders = new HeaderMap();
    for (const [name, value] of Object.entries(headers)) {
      // The caller's body headers describe the caller's request, not this one.
      if (value !== undefined && name !== 'content-length' && name !== 'transfer-encoding') httpHeaders.set(name, value);
    }
    httpHeaders.set('content-type', 'application/json');
    const response = await apollo.executeOperation(
      markTrustedRequest({ query, variables, http: { method: 'POST', headers: httpHeaders, search: '', body: { query, variables } } }),
      { contextValue: await contextFor(headers) },
    );
    if (response.body.kind !== 'single') throw new Error('the operation answered incrementally (@defer/@stream), which graphql() does not support');
    const { data, errors } = response.body.singleResult;
    return errors ? { data: data ?? null, errors } : { data: data ?? null };
  };
}
