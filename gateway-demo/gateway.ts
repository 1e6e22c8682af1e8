import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { RunningService } from './owner.js';

/** An Apollo Gateway composing the demo's subgraphs (Federation 1 or 2 alike), composed by introspection. */
export async function startGateway(subgraphs: Array<{ name: string; url: string }>, port = 0, host = '127.0.0.1'): Promise<RunningService> {
  const gateway = new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs }) });
  const server = new ApolloServer({ gateway });
  const { url } = await startStandaloneServer(server, { listen: { port, host } });
  return { url, close: () => server.stop() };
}

if (require.main === module) {
  const subgraphs = [
    { name: 'astronauts', url: process.env.OWNER_URL ?? 'http://127.0.0.1:4001/' },
    { name: 'missions', url: process.env.AUTOGRAPH_URL ?? 'http://127.0.0.1:8080/graphql' },
  ];
  startGateway(subgraphs, Number(process.env.PORT ?? 4000), process.env.HOST ?? '127.0.0.1').then(({ url }) => console.log(`gateway at ${url}`));
}
