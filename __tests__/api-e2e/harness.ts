/**
 * A running service with one schema for a test file, and short ways to ask it:
 *
 *   const api = useService(SCHEMA);              // in the file's top level: starts in beforeAll, stops in afterAll
 *   const result = await api.data('{ queryT { x } }');    // data, or the test fails with the errors
 *   const errors = await api.errors('{ ... }');           // the errors a request must give: [{ code, message }]
 */
import { activateSchema, gql, type GraphQLResponseBody } from '../helpers/gql';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server';

/** What a client can act on in one GraphQL error: its `extensions.code` and its message. */
export interface ClientVisibleError {
  code: unknown;
  message: string;
}

export interface Service {
  readonly server: TestServer;
  data<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** The errors (code and message) of a request that must fail; throws if it did not. */
  errors(query: string, variables?: Record<string, unknown>): Promise<ClientVisibleError[]>;
  raw(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponseBody>;
}

export function useService(schema: string, options: TestServerOptions = {}): Service {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
    await activateSchema(server.url, schema);
  });
  afterAll(async () => {
    await server?.close();
  });
  const running = (): TestServer => {
    if (!server) throw new Error('the service is not running (useService must be called at the top level of a test file)');
    return server;
  };
  const raw = async (query: string, variables?: Record<string, unknown>) => (await gql(running().url, query, variables)).body;
  return {
    get server() {
      return running();
    },
    raw,
    async data(query, variables) {
      const body = await raw(query, variables);
      if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
      return body.data as any;
    },
    async errors(query, variables) {
      const body = await raw(query, variables);
      if (!body.errors || body.errors.length === 0) throw new Error(`expected errors, got data ${JSON.stringify(body.data)}`);
      return body.errors.map((error) => ({ code: error.extensions?.code, message: error.message }));
    },
  };
}

/** The values of `key` in a list of objects, e.g. `pluck(result.queryT, 'name')`. */
export function pluck<T = unknown>(items: Array<Record<string, unknown>>, key: string): T[] {
  return items.map((item) => item[key] as T);
}
