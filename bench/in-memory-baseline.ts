/**
 * The in-memory baseline: plain graphql-js (no Apollo, no Store) on a plain `node:http` server, answering
 * the benchmark's request bodies from JavaScript arrays and Maps (bench/in-memory-tables.ts) with DataLoader
 * batching for relations. It is what a graphql-js service over data already in memory can do at best,
 * written as a competent developer would by hand; writes only append to the Maps (no durability).
 * Its typeDefs mirror the generated shapes the scenarios use, so it answers the very same request bodies.
 */
import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import DataLoader from 'dataloader';
import {
  buildSchema,
  execute,
  GraphQLError,
  isObjectType,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { ObjectId } from 'mongodb';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aggregateTasks, InMemoryTables, orderTasks, type OrderableTaskField, type TaskFilter, type TaskRecord, type UserRecord } from './in-memory-tables.js';
import { BASELINE_TYPE_DEFS } from './baseline-type-defs.js';
import { dgraphDateTimeText } from '../src/resolve/date-time-text.js';

interface Context {
  userById: DataLoader<string, UserRecord | undefined>;
  tasksByUserId: DataLoader<string, TaskRecord[]>;
}

interface Page {
  first?: number | null;
  offset?: number | null;
}

interface AddTaskInput {
  title: string;
  priority?: number | null;
  completed: boolean;
  createdAt?: string | null;
  user: { username: string };
}

type Resolvers = Record<string, Record<string, GraphQLFieldResolver<any, Context, any>>>;

const page = <T>(items: readonly T[], { first, offset }: Page): T[] => {
  const start = offset ?? 0;
  return items.slice(start, first === null || first === undefined ? undefined : start + first);
};

function resolvers(tables: InMemoryTables): Resolvers {
  return {
    Query: {
      getTask: (_: unknown, args: { id: string }) => tables.tasksById.get(args.id) ?? null,
      queryTask: (_: unknown, args: { filter?: TaskFilter; order?: { asc?: OrderableTaskField; desc?: OrderableTaskField } } & Page) => {
        const found = tables.findTasks(args.filter);
        const ordered = args.order?.asc ? orderTasks(found, args.order.asc, 1) : args.order?.desc ? orderTasks(found, args.order.desc, -1) : found;
        return page(ordered, args);
      },
      queryUser: (_: unknown, args: Page) => page(tables.users, args),
      aggregateTask: (_: unknown, args: { filter?: TaskFilter }) => aggregateTasks(tables.findTasks(args.filter)),
    },
    Mutation: {
      addTask: (_: unknown, args: { input: AddTaskInput[] }) => {
        const users = args.input.map((input, index) => {
          const user = tables.usersByUsername.get(input.user.username);
          if (!user) throw new GraphQLError(`input[${index}].user: no User with username "${input.user.username}"`, { extensions: { code: 'BAD_USER_INPUT' } });
          return user;
        });
        const added = args.input.map((input, index) =>
          tables.addTask({
            _id: new ObjectId().toHexString(),
            title: input.title,
            priority: input.priority ?? null,
            completed: input.completed,
            createdAt: input.createdAt ?? null,
            user: users[index]!.id,
          }),
        );
        return { numUids: added.length, task: added };
      },
    },
    Task: {
      user: (task: TaskRecord, _: unknown, context: Context) => context.userById.load(task.userId),
      createdAt: (task: TaskRecord) => (task.createdAt === null ? null : dgraphDateTimeText(task.createdAt)),
    },
    User: {
      tasks: async (user: UserRecord, args: Page, context: Context) => page(await context.tasksByUserId.load(user.id), args),
    },
  };
}

/** graphql-js's `buildSchema` with `resolvers` set on the fields they name. */
function executableSchema(source: string, fieldResolvers: Resolvers): GraphQLSchema {
  const schema = buildSchema(source);
  for (const [typeName, fields] of Object.entries(fieldResolvers)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`resolvers name ${typeName}, which is not an object type of the schema`);
    const typeFields = type.getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = typeFields[fieldName];
      if (!field) throw new Error(`resolvers name ${typeName}.${fieldName}, which the schema does not have`);
      field.resolve = resolve;
    }
  }
  return schema;
}

function loaders(tables: InMemoryTables): Context {
  return {
    userById: new DataLoader(async (ids: readonly string[]) => ids.map((id) => tables.usersById.get(id))),
    tasksByUserId: new DataLoader(async (ids: readonly string[]) => ids.map((id) => tables.tasksByUserId.get(id) ?? [])),
  };
}

/** A request the service cannot run: its errors, each with the code Apollo Server gives the same mistake. */
interface Rejected {
  errors: ReadonlyArray<{ message: string; locations?: unknown; extensions: { code: string } }>;
}

const rejected = (errors: readonly GraphQLError[], code: string): Rejected => ({
  errors: errors.map((error) => ({ message: error.message, locations: error.locations, extensions: { code } })),
});

/** Parsed and validated documents by query text; a handful of texts in a benchmark, bounded all the same. */
class DocumentCache {
  private readonly documents = new Map<string, DocumentNode>();
  constructor(private readonly schema: GraphQLSchema, private readonly maxEntries = 1000) {}

  /** The document, or the syntax or validation errors of the text. */
  prepare(query: string): DocumentNode | Rejected {
    const cached = this.documents.get(query);
    if (cached) return cached;
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      if (error instanceof GraphQLError) return rejected([error], 'GRAPHQL_PARSE_FAILED');
      throw error;
    }
    const errors = validate(this.schema, document);
    if (errors.length > 0) return rejected(errors, 'GRAPHQL_VALIDATION_FAILED');
    if (this.documents.size >= this.maxEntries) this.documents.clear();
    this.documents.set(query, document);
    return document;
  }
}

interface RequestBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

const requestError = (message: string) => ({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });

async function answer(schema: GraphQLSchema, documents: DocumentCache, tables: InMemoryTables, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST' || request.url !== '/graphql') {
    send(response, 404, requestError(`only POST /graphql is served, not ${request.method} ${request.url}`));
    return;
  }
  let body: RequestBody;
  try {
    body = JSON.parse(await readBody(request)) as RequestBody;
  } catch (error) {
    send(response, 400, requestError(`the body is not JSON: ${(error as Error).message}`));
    return;
  }
  if (typeof body.query !== 'string') {
    send(response, 400, requestError('the body has no "query" string'));
    return;
  }
  const prepared = documents.prepare(body.query);
  if ('errors' in prepared) {
    send(response, 400, prepared);
    return;
  }
  const result = (await execute({
    schema,
    document: prepared,
    variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
    contextValue: loaders(tables),
  })) as ExecutionResult;
  // No `data` at all: the variables did not fit their types, so nothing ran.
  if (!('data' in result)) send(response, 400, rejected(result.errors ?? [], 'BAD_USER_INPUT'));
  else send(response, 200, result);
}

interface Handler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  stop(): Promise<void>;
}

function graphqlJsHandler(schema: GraphQLSchema, tables: InMemoryTables): Handler {
  const documents = new DocumentCache(schema);
  return { handle: (request, response) => answer(schema, documents, tables, request, response), stop: async () => undefined };
}

async function apolloHandler(schema: GraphQLSchema, tables: InMemoryTables): Promise<Handler> {
  const apollo = new ApolloServer<Context>({ schema, plugins: [ApolloServerPluginCacheControlDisabled()], stopOnTerminationSignals: false });
  await apollo.start();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const text = request.method === 'POST' ? await readBody(request) : '';
    const answered = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: request.method ?? 'GET', headers, search: '', body: text === '' ? undefined : JSON.parse(text) },
      context: async () => loaders(tables),
    });
    for (const [name, value] of answered.headers) response.setHeader(name, value);
    response.statusCode = answered.status ?? 200;
    if (answered.body.kind === 'complete') {
      response.end(answered.body.string);
      return;
    }
    for await (const chunk of answered.body.asyncIterator) response.write(chunk);
    response.end();
  };
  return { handle, stop: () => apollo.stop() };
}

export interface InMemoryBaseline {
  url: string;
  tables: InMemoryTables;
  close(): Promise<void>;
}

/**
 * Serves `tables` on 127.0.0.1 at a free port: with graphql-js's `execute` directly (`graphql-js`), or with
 * the same schema and resolvers behind Apollo Server (`apollo`), the request pipeline Autograph runs on,
 * configured as Autograph configures it where that changes the cost (cache-control hooks off) and reached
 * from `node:http` as Autograph reaches it (`executeHTTPGraphQLRequest`). The second is what Apollo Server
 * itself costs a service whose data is already in memory: the least Autograph can cost on its stack.
 */
export async function startInMemoryBaseline(tables: InMemoryTables, through: 'graphql-js' | 'apollo' = 'graphql-js'): Promise<InMemoryBaseline> {
  const schema = executableSchema(BASELINE_TYPE_DEFS, resolvers(tables));
  const { handle, stop } = through === 'apollo' ? await apolloHandler(schema, tables) : graphqlJsHandler(schema, tables);
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, 500, { errors: [{ message: (error as Error).message, extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tables,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      await stop();
    },
  };
}
