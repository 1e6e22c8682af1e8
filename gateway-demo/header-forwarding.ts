import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { IncomingHttpHeaders } from 'node:http';
import type { RunningService } from './owner.js';

/**
 * `@apollo/gateway` sends subgraphs none of the client's headers unless told to. Autograph's `@auth` reads
 * the token from the header the schema's `# Autograph.Authorization` line names; without it in the
 * gateway's request, every caller is anonymous to Autograph.
 */

interface GatewayContext {
  headers: IncomingHttpHeaders;
}

/** A data source that copies the named client headers (when the client sent them) to each subgraph request. */
export function headerForwardingDataSource(url: string, headerNames: readonly string[]): RemoteGraphQLDataSource<GatewayContext> {
  return new RemoteGraphQLDataSource<GatewayContext>({
    url,
    willSendRequest({ request, context }) {
      for (const name of headerNames) {
        const value = context.headers?.[name.toLowerCase()];
        if (typeof value === 'string') request.http?.headers.set(name, value);
      }
    },
  });
}

/** An Apollo Gateway over `subgraphs` that forwards `headerNames` from the client to every subgraph. */
export async function startHeaderForwardingGateway(
  subgraphs: Array<{ name: string; url: string }>,
  headerNames: readonly string[],
  port = 0,
  host = '127.0.0.1',
): Promise<RunningService> {
  const gateway = new ApolloGateway({
    supergraphSdl: new IntrospectAndCompose({ subgraphs }),
    buildService: ({ url }) => headerForwardingDataSource(url!, headerNames),
  });
  const server = new ApolloServer<GatewayContext>({ gateway });
  const { url } = await startStandaloneServer(server, {
    listen: { port, host },
    context: async ({ req }) => ({ headers: req.headers }),
  });
  return { url, close: () => server.stop() };
}
