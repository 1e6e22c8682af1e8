/**
 * The `graphql-transport-ws` protocol's hooks (graphql-ws `ServerOptions`) for Autograph's subscriptions.
 * graphql-ws runs none of Apollo Server's plugins, so the same checks are called here as plain functions:
 * the token (auth/) when the connection opens and before each subscription, the persisted query lookup
 * and safelist (persisted/), the operation limits (limits/: source scan, validation rules, variables).
 */
import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  parse,
  print,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { ServerOptions, SubscribePayload } from 'graphql-ws';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { AuthResult, KeySets } from '../auth/index.js';
import { ErrorCode } from '../errors/codes.js';
import { variableLimitRefusal } from '../limits/plugin.js';
import type { OperationLimits } from '../limits/settings.js';
import { scanOperationSource } from '../limits/source-scan.js';
import type { PersistedQueries, PersistedQueryLogger } from '../persisted/index.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../query/pagination.js';
import { schemaExtensions } from '../resolve/index.js';
import { usesCustomLogic } from '../sdl/facts.js';
import type { SchemaModel } from '../sdl/model.js';
import { authenticateConnection, connectionHeaders } from './connection-auth.js';
import { noSchemaYet, onlySubscriptions, tokenExpired } from './errors.js';
import type { LiveQuery } from './live-query.js';
import { readsOfOperation } from './read-set.js';
import type { LiveRegistry } from './registry.js';

/** What graphql-ws's `useServer` puts in each connection's context. */
export interface SocketExtra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
}

export interface LiveTransportOptions {
  registry: LiveRegistry;
  /** The schema being served, if any. */
  activeSchema(): GraphQLSchema | undefined;
  /** The rules HTTP requests are validated with beyond graphql-js's own (limits, introspection). */
  validationRules: readonly ValidationRule[];
  limits: OperationLimits;
  persistedQueries: PersistedQueries;
  keySets: KeySets;
  /** A fresh resolver context for one run, as an HTTP request with `headers` gets (the same factory). */
  createContext(headers: Record<string, string | undefined>): Promise<object> | object;
  /** How errors reach clients: HTTP's `formatError` (codes kept, unplanned faults masked). */
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
  logger: PersistedQueryLogger;
}

/** A connection as this module keeps it: its headers, its caller, and its subscriptions. */
interface Connection {
  headers: Record<string, string | undefined>;
  auth: AuthResult;
  /** `Date.now()` ms when the token expires. */
  expiresAt?: number;
  /** The header the token came in, for messages. */
  tokenHeader?: string;
  expiryTimer?: NodeJS.Timeout;
  queries: Set<LiveQuery>;
}

/** What `onSubscribe` hands to `subscribe` through graphql-ws, as the execution's context value. */
interface SubscriptionRequest {
  connection: Connection;
}

/** The WebSocket close code for a connection refused for its token (graphql-ws's `Forbidden`). */
const FORBIDDEN = 4403;
/** WebSocket close reasons are at most 123 bytes. */
const MAX_CLOSE_REASON = 123;

type Context = Parameters<NonNullable<ServerOptions<Record<string, unknown>, SocketExtra>['onConnect']>>[0];

export function liveServerOptions(options: LiveTransportOptions): ServerOptions<Record<string, unknown>, SocketExtra> {
  const connections = new WeakMap<object, Connection>();
  const pages = { defaultPageSize: DEFAULT_PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE };

  const connectionOf = (ctx: Context): Connection => {
    const connection = connections.get(ctx);
    if (!connection) throw new Error('graphql-ws called a hook for a connection it did not open');
    return connection;
  };

  function refuseConnection(ctx: Context, reason: string): false {
    ctx.extra.socket.close(FORBIDDEN, truncate(reason, MAX_CLOSE_REASON));
    return false;
  }

  function expireLater(connection: Connection): void {
    if (connection.expiresAt === undefined) return;
    const end = () => {
      const result: ExecutionResult = { errors: [tokenExpired(connection.tokenHeader ?? 'the token header', new Date(connection.expiresAt!))] };
      for (const query of connection.queries) query.end(result);
    };
    const delay = connection.expiresAt - Date.now();
    // setTimeout cannot wait longer than about 24.8 days; wait in steps.
    const step = Math.min(Math.max(delay, 0), 2 ** 31 - 1);
    connection.expiryTimer = setTimeout(() => (Date.now() >= connection.expiresAt! ? end() : expireLater(connection)), step);
    connection.expiryTimer.unref();
  }

  function parsed(query: string): DocumentNode | readonly GraphQLError[] {
    const refusal = scanOperationSource(query, options.limits);
    if (refusal) return [refusal];
    try {
      return parse(query, { maxTokens: options.limits.maxTokens });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return [withCode(error, ErrorCode.GRAPHQL_PARSE_FAILED)];
    }
  }

  /** As Apollo Server formats errors for HTTP; its transport-only `http` extension never reaches a client. */
  const formatted = (error: GraphQLError): GraphQLFormattedError => {
    const { http: _http, ...extensions } = error.extensions as Record<string, unknown>;
    const json = error.toJSON();
    return options.formatError(Object.keys(extensions).length > 0 ? { ...json, extensions } : { ...json, extensions: undefined }, error);
  };

  /** The execution arguments of a subscription that passes every check, or the errors that refuse it. */
  async function admit(ctx: Context, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const connection = connectionOf(ctx);
    if (connection.expiresAt !== undefined && connection.expiresAt <= Date.now()) {
      return [tokenExpired(connection.tokenHeader ?? 'the token header', new Date(connection.expiresAt))];
    }
    const schema = options.activeSchema();
    const model = schema && schemaExtensions(schema)?.model;
    if (!schema || !model) return [noSchemaYet()];
    // The schema may have changed since the connection opened: its token is checked against this one.
    const verified = await authenticateConnection(model, connection.headers, options.keySets);
    if (!verified.ok) return [new GraphQLError(verified.reason, { extensions: { code: ErrorCode.UNAUTHENTICATED } })];
    connection.auth = verified.auth;

    const resolved = await options.persistedQueries.queryOf(payload.query || undefined, payload.extensions ?? undefined, options.logger);
    if ('error' in resolved) return [resolved.error];
    const document = parsed(resolved.query);
    if (!('kind' in document)) return document;
    const invalid = validate(schema, document, [...specifiedRules, ...options.validationRules]);
    if (invalid.length > 0) return invalid.map((error) => withCode(error, ErrorCode.GRAPHQL_VALIDATION_FAILED));
    // An empty name is none, as Dgraph reads it (and as the HTTP endpoint does: server/graphql-request.ts).
    const operationName = payload.operationName || undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation) {
      return [new GraphQLError(operationName ? `no operation named "${operationName}" in the document` : 'the document holds several operations: name the one to run', { extensions: { code: ErrorCode.OPERATION_RESOLUTION_FAILURE } })];
    }
    if (operation.operation !== 'subscription') return [onlySubscriptions(operation.operation)];
    const variables = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {});
    if (variables.errors) return variables.errors.map((error) => withCode(error, ErrorCode.BAD_USER_INPUT));
    const overLimit = variableLimitRefusal({ limits: options.limits, pages, variables: payload.variables ?? undefined, operation, schema, document });
    if (overLimit) return [overLimit];
    const full = options.registry.refusal(connection);
    if (full) return [full];
    await resolved.registerOnceAccepted?.();
    const request: SubscriptionRequest = { connection };
    return { schema, document, operationName, variableValues: payload.variables ?? undefined, contextValue: request };
  }

  return {
    onError(_ctx, _id, _payload, errors) {
      return errors.map(formatted);
    },

    onNext(_ctx, _id, _payload, _args, result) {
      if (!result.errors) return undefined;
      return { ...result, errors: result.errors.map(formatted) };
    },

    async onConnect(ctx) {
      const schema = options.activeSchema();
      const model = schema && schemaExtensions(schema)?.model;
      const headers = connectionHeaders(ctx.extra.request.headers, ctx.connectionParams);
      const connection: Connection = { headers, auth: { authenticated: false, variables: {} }, queries: new Set() };
      if (model) {
        const verified = await authenticateConnection(model, headers, options.keySets);
        if (!verified.ok) return refuseConnection(ctx, verified.reason);
        connection.auth = verified.auth;
        connection.expiresAt = verified.expiresAt;
        connection.tokenHeader = model.authorization?.header;
        if (verified.expiresAt !== undefined && verified.expiresAt <= Date.now()) return refuseConnection(ctx, 'the token has expired');
      }
      connections.set(ctx, connection);
      expireLater(connection);
      return true;
    },

    async onSubscribe(ctx, _id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> {
      const admitted = await admit(ctx, payload);
      if (Array.isArray(admitted)) options.registry.noteRefused(admitted);
      return admitted;
    },

    async subscribe(args) {
      const { connection } = args.contextValue as SubscriptionRequest;
      const model = schemaExtensions(args.schema)?.model;
      const operation = getOperationAST(args.document, args.operationName);
      if (!model || !operation) throw new Error('onSubscribe let through an operation it could not resolve');
      const { headers, auth } = connection;
      // onSubscribe checked the limits, but other subscriptions may have started since (it awaits).
      const full = options.registry.refusal(connection);
      if (full) {
        options.registry.noteRefused([full]);
        return { errors: [full] };
      }
      const query = options.registry.add({
        owner: connection,
        sharingKey: sharingKey(args, auth, usesCustomLogic(model) ? connection : undefined),
        reads: readsOfOperation(model, args.document, operation),
        run: async () => {
          const context = (await options.createContext(headers)) as { auth?: AuthResult };
          context.auth = auth;
          return execute({ ...args, contextValue: context });
        },
      });
      connection.queries.add(query);
      query.onFinished(() => connection.queries.delete(query));
      return query;
    },

    onClose(ctx) {
      const connection = connections.get(ctx);
      if (!connection) return;
      clearTimeout(connection.expiryTimer);
      for (const query of connection.queries) void query.return();
    },
  };
}

/** Connections whose results may depend on more than the token's claims (headers forwarded by custom logic) share nothing. */
const connectionIds = new WeakMap<object, number>();
let nextConnectionId = 1;

/**
 * Equal for subscriptions whose results are equal: the same document, operation and variables, run for a
 * caller with the same rule variables (what `@auth` rules read). With `@lambda`/`@custom` fields in the
 * schema, the caller's headers may reach the results too, so then only one connection's equal
 * subscriptions share.
 */
function sharingKey(args: ExecutionArgs, auth: AuthResult, privateTo: object | undefined): string {
  let connection = '';
  if (privateTo) {
    let id = connectionIds.get(privateTo);
    if (id === undefined) connectionIds.set(privateTo, (id = nextConnectionId++));
    connection = String(id);
  }
  return JSON.stringify([print(args.document), args.operationName ?? null, args.variableValues ?? null, auth.authenticated, auth.variables, connection]);
}

function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code) return error;
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, originalError: error.originalError, extensions: { ...error.extensions, code } });
}

function truncate(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let result = text;
  while (Buffer.byteLength(result) > maxBytes - Buffer.byteLength('…')) result = result.slice(0, -1);
  return `${result}…`;
}
