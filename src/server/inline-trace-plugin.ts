import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloServerPluginInlineTrace } from '@apollo/server/plugin/inlineTrace';

/** The header a gateway or router sends to ask a subgraph for its inline trace. */
const INCLUDE_TRACE_HEADER = 'apollo-federation-include-trace';

/**
 * Apollo's inline trace (`ftv1`, which Apollo Server would install by itself for a subgraph), asked only
 * of requests that carry `apollo-federation-include-trace: ftv1`. Apollo's own plugin builds a trace tree
 * for every request before it reads that header; this one reads the header first. Installed explicitly,
 * it keeps Apollo's plugin id, so Apollo does not add its default one as well.
 */
export function inlineTraceWhenAsked(): ApolloServerPlugin<BaseContext> {
  const inlineTrace = ApolloServerPluginInlineTrace();
  return {
    ...inlineTrace,
    async requestDidStart(requestContext) {
      if (requestContext.request.http?.headers.get(INCLUDE_TRACE_HEADER) !== 'ftv1') return;
      return inlineTrace.requestDidStart?.(requestContext);
    },
  };
}
