import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTrace } from '@apollo/server/plugin/inlineTrace';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { randomUUID } from 'node:crypto';
import gql from 'graphql-tag';
import { exitOnStartFailure, portInUseHint } from './port-in-use.js';
import { serveApollo } from './serve-apollo.js';

/**
 * The service that owns `Astronaut` in the demo: a small hand-written subgraph, as another team would
 * write it. Autograph extends `Astronaut` with `missions`.
 */

interface Astronaut {
  id: string;
  name: string;
  nationality?: string;
  firstFlightYear?: number;
}

/** The demo's two variants: Federation 1 schemas, or Federation 2 ones (opted in by `@link`). */
export type FederationVariant = 1 | 2;

const FEDERATION_2_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])';

/** The owner's schema, which its `_service { sdl }` serves. */
export const ownerTypeDefs = (variant: FederationVariant) => gql`
  ${variant === 2 ? FEDERATION_2_LINK : ''}
  type Astronaut @key(fields: "id") {
    id: ID!
    name: String!
    nationality: String
    firstFlightYear: Int
  }

  type Query {
    astronaut(id: ID!): Astronaut
    astronauts: [Astronaut!]!
  }

  type Mutation {
    createAstronaut(name: String!, nationality: String, firstFlightYear: Int): Astronaut!
  }
`;

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

export async function startOwnerService(port = 0, host = '127.0.0.1', variant: FederationVariant = 1): Promise<RunningService> {
  const astronauts = new Map<string, Astronaut>();
  const schema = buildSubgraphSchema({
    typeDefs: ownerTypeDefs(variant),
    resolvers: {
      Query: {
        astronaut: (_: unknown, { id }: { id: string }) => astronauts.get(id) ?? null,
        astronauts: () => [...astronauts.values()],
      },
      Mutation: {
        createAstronaut: (_: unknown, input: Omit<Astronaut, 'id'>) => {
          const astronaut = { id: randomUUID(), ...input };
          astronauts.set(astronaut.id, astronaut);
          return astronaut;
        },
      },
      Astronaut: {
        __resolveReference: (reference: { id: string }) => astronauts.get(reference.id) ?? null,
      },
    },
  });
  // Installed by hand, the inline trace (ftv1) works as Apollo installs it for a subgraph, without its notice on every start.
  const server = new ApolloServer({ schema, plugins: [ApolloServerPluginInlineTrace()] });
  return serveApollo(server, port, host);
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? 4001);
  startOwnerService(port, process.env.HOST ?? '127.0.0.1', process.argv.includes('--fed2') ? 2 : 1).then(
    ({ url }) => console.log(`owner service (Astronaut) at ${url}`),
    (error: unknown) => exitOnStartFailure(error, portInUseHint(error, 'owner service', port, 'PORT')),
  );
}
