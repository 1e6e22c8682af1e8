import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { printSchema, type GraphQLSchema } from 'graphql';

// The gateway types, taken through @apollo/server's own exports (their package is not a direct dependency).
type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type SchemaListener = Parameters<GatewayInterface['onSchemaLoadOrUpdate']>[0];
type GatewayLoadResult = Awaited<ReturnType<GatewayInterface['load']>>;

/**
 * A schema source in Apollo Server's `gateway` shape, used only to swap the executable schema at run time.
 *
 * Apollo Server's schema manager takes the schema of each request once, when the request starts (together
 * with the document cache derived from that schema), and keys parsed/validated documents by schema, so a
 * request never mixes two schemas and a swap never serves a document validated against the old one.
 * `load` returns no executor: Apollo then runs its ordinary graphql-js execution against the request's
 * schema, keeping every plugin hook.
 */
export class SwappableSchemaSource implements GatewayInterface {
  private readonly listeners = new Set<SchemaListener>();
  private current: GraphQLSchema | undefined;

  constructor(initial?: GraphQLSchema) {
    this.current = initial;
  }

  onSchemaLoadOrUpdate(callback: SchemaListener): () => void {
    this.listeners.add(callback);
    return () => {
      this.listeners.delete(callback);
    };
  }

  /** Apollo Server calls this from `start()`; the schema must be published first. */
  async load(): Promise<GatewayLoadResult> {
    if (!this.current) {
      throw new Error('SwappableSchemaSource: publish a schema before starting Apollo Server');
    }
    this.notify(this.current);
    return { executor: null };
  }

  /** Makes `schema` the one every request starting from now on executes against. */
  publish(schema: GraphQLSchema): void {
    this.current = schema;
    this.notify(schema);
  }

  async stop(): Promise<void> {
    this.listeners.clear();
  }

  private notify(schema: GraphQLSchema): void {
    const update = { apiSchema: schema, coreSupergraphSdl: printSchema(schema) };
    for (const listener of this.listeners) {
      listener(update);
    }
  }
}
