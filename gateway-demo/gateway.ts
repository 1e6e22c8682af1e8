import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import type { RunningService } from './owner.js';
import { exitOnStartFailure, portInUseHint } from './port-in-use.js';
import { serveApollo } from './serve-apollo.js';

/** An Apollo Gateway composing the demo's subgraphs (Federation 1 or 2 alike), composed by introspection. */
export async function startGateway(subgraphs: Array<{ name: string; url: string }>, port = 0, host = '127.0.0.1'): Promise<RunningService> {
  const gateway = new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs }) });
  const server = new ApolloServer({ gateway });
  return serveApollo(server, port, host);
}

if (require.main === module) {
  const subgraphs = [
    { name: 'astronauts', url: process.env.OWNER_URL ?? 'http://127.0.0.1:4001/' },
    { name: 'missions', url: process.env.AUTOGRAPH_URL ?? 'http://127.0.0.1:8080/graphql' },
  ];
  const port = Number(process.env.PORT ?? 4000);
  startGateway(subgraphs, port, process.env.HOST ?? '127.0.0.1').then(
    ({ url }) => console.log(`gateway at ${url}`),
    (error: unknown) => exitOnStartFailure(error, portInUseHint(error, 'gateway', port, 'PORT')),
  );
}
