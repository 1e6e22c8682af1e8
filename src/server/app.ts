import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Server } from 'node:http';
import { checkAuthRules, DEFAULT_KEY_SET_POLICY, KeySets, type KeySetPolicy } from '../auth/index.js';
import { customHttpFetch, WebhookDispatcher } from '../custom/index.js';
import { LiveRegistry, liveServerOptions, liveSettings, schemaChangedResult, type LiveListener, type LiveSettings } from '../live/index.js';
import { operationLimits, type OperationLimits } from '../limits/settings.js';
import { createPersistedQueryPlugin, type PersistedQueries, type PersistedQueryPluginOptions } from '../persisted/index.js';
import { checkBudgetLimits, DEFAULT_BUDGET_LIMITS, type BudgetLimits } from '../limits/budget.js';
import { createObservability, noteErrorCode, type ServiceMetrics } from '../observe/index.js';
import { buildExecutableSchema, createRequestContext, type ResolverServices } from '../resolve/index.js';
import { buildSchemaModel } from '../sdl/build.js';
import { usesCustomLogic } from '../sdl/facts.js';
import { DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from '../sdl/limits.js';
import type { SchemaError, SchemaModel } from '../sdl/model.js';
import { SYSTEM_COLLECTIONS, type Store } from '../store/port.js';
import { dryRunActivation, prepareActivation, type ActivationError, type ActivationOptions, type ActivationResult, type ActiveSchema, type DryRunResult } from './activation.js';
import { dropRemovedTypeData } from './type-data-drop.js';
import { budgetPlugin } from './budget-plugin.js';
import { createApolloServer, introspectionEnabled, serviceValidationRules } from './apollo-server.js';
import { formatError } from './format-error.js';
import { attachWebSocket, type WebSocketEndpoint } from './websocket.js';
import { CORS_MAX_AGE_SECONDS } from './cors.js';
import { DEFAULT_MAX_BODY_BYTES } from './http-io.js';
import { createRouter } from './router.js';
import { adminRoute } from './routes/admin.js';
import { graphqlRoute } from './routes/graphql.js';
import { healthRoute } from './routes/health.js';
import { ideRoute } from './routes/ide.js';
import { schemaUiRoute } from './routes/schema-ui.js';
import { uiAssetsRoute } from './routes/ui-assets.js';
import { UiFiles } from './ui-files.js';
import { metricsRoute } from './routes/metrics.js';
import { SwappableSchemaSource } from './schema-source.js';
import { activateLambdaScript, customLogicProblems, type LambdaActivationResult } from './lambda-activation.js';
import { DefinitionSync, type Definition } from './definition-sync.js';
import { lambdaGraphqlExecutor } from './lambda-graphql.js';
import { SwappableLambdaHost } from './lambda-runtime.js';

export type { ActivationError, ActivationResult, ActiveSchema, DryRunResult } from './activation.js';
export type { LambdaActivationResult } from './lambda-activation.js';

/** Long-lived dependencies handed to the resolvers (the resolve/ layer's ResolverServices). */
export interface SchemaServices extends Pick<ResolverServices, 'lambdaHost' | 'customHttp' | 'executeGraphQL' | 'budgetLimits' | 'mutationCommitted'> {
  store: Store;
  logger?: Logger;
}

export type SchemaModelBuilder = (source: string) => { model?: SchemaModel; errors: SchemaError[] };
export type ExecutableSchemaBuilder = (model: SchemaModel, services: SchemaServices) => GraphQLSchema | Promise<GraphQLSchema>;
export type RequestContextFactory = (
  services: SchemaServices,
  request: { headers: Record<string, string | undefined> },
) => Promise<BaseContext> | BaseContext;

export interface AppOptions {
  store: Store;
  logger: Logger;
  /** User schema text → SchemaModel; default: sdl/'s buildSchemaModel under `schemaLimits`. */
  buildModel?: SchemaModelBuilder;
  /** Size limits of an uploaded schema (the CLI's `--schema-max-*` flags); sdl/'s defaults for those not given. */
  schemaLimits?: Partial<SchemaLimits>;
  /** SchemaModel → executable subgraph schema; default: resolve/'s buildExecutableSchema. */
  buildSchema?: ExecutableSchemaBuilder;
  /** The per-request context the resolvers receive; default: resolve/'s createRequestContext. */
  createContext?: RequestContextFactory;
  /** More Apollo Server plugins; they run after the service's own (persisted queries, auth, operation limits, budget, observation, error log). */
  plugins?: ApolloServerPlugin<BaseContext>[];
  /**
   * Persisted queries (APQ over GET and POST, hashes kept in the store): safelist mode and cache limits
   * (the CLI's `--persisted-*` flags); persisted/'s defaults when not given.
   */
  persistedQueries?: Omit<PersistedQueryPluginOptions, 'store' | 'logger'>;
  /** When set, `/admin/*` requires `Authorization: Bearer <adminToken>`; otherwise loopback callers only. */
  adminToken?: string;
  /**
   * A schema to activate now, replacing the stored one (the CLI's `--schema`). Without it the stored
   * active schema, if any, is activated again.
   */
  initialSchema?: string;
  /** Largest accepted request body (GraphQL JSON, schema, lambda script or manifest upload); default 10 MiB. */
  maxBodyBytes?: number;
  /** Browser origins allowed to call `/graphql` (the CLI's `--cors-origins`), or `*`; no CORS headers when not given. */
  corsOrigins?: '*' | readonly string[];
  /**
   * Whether `__schema`/`__type` are answered and validation errors suggest names (the CLI's `--introspection`);
   * default: Apollo Server's, off under NODE_ENV=production.
   */
  introspection?: boolean;
  /** Apollo's CSRF prevention on `/graphql` (the CLI's `--csrf-prevention`); default off (README, Persisted queries). */
  csrfPrevention?: boolean;
  /**
   * The GraphQL IDE at `/` and at `GET /graphql` for a browser (the CLI's `--ide`); default: off under
   * NODE_ENV=production, on otherwise. The schema page (`/admin/ui`) is served either way.
   */
  ide?: boolean;
  /**
   * Pause between attempts to read the stored schema and lambda script (or to store the ones given at
   * start) while the store is unreachable; default 2000 ms.
   */
  storedSchemaRetryMs?: number;
  /**
   * How often to look for a schema or lambda script that another instance sharing the store activated,
   * in ms; default: never (the CLI checks every few seconds on MongoDB).
   */
  storeCheckMs?: number;
  /**
   * A lambda script to load now, replacing the stored one (the CLI's `--lambda`). Without it the stored
   * script, if any, is loaded again.
   */
  initialLambda?: string;
  /** Time limit of one lambda call, in ms (default 2000). */
  lambdaTimeoutMs?: number;
  /** Heap limit of the lambda process, and the most ArrayBuffer memory a script may hold, in MB (default 128). */
  lambdaMemoryMb?: number;
  /** Resident memory past which the lambda process is killed and restarted, in MB (default 2 × lambdaMemoryMb + 128). */
  lambdaMaxResidentMb?: number;
  /** Largest result of one lambda call as JSON (and largest graphql() request of a script), in bytes (default 4 MiB). */
  lambdaMaxResultBytes?: number;
  /** Hosts `@custom(http:)` may call (the CLI's `--custom-allow`); default none. */
  customAllow?: string[];
  /** Values for `@custom(http: { secretHeaders })`, by secret name (the CLI's `CUSTOM_SECRET_<NAME>`). */
  customSecrets?: Record<string, string>;
  /** Time limit of one `@custom` HTTP call, in ms (default 10000). */
  customTimeoutMs?: number;
  /** Time limit of one GraphQL request, in ms (the CLI's `--request-timeout-ms`; limits/'s default). */
  requestTimeoutMs?: number;
  /** Most objects one GraphQL answer may hold (the CLI's `--max-result-objects`; limits/'s default). */
  maxResultObjects?: number;
  /** Most `@secret` bcrypt operations one request may do (the CLI's `--max-password-operations`; limits/'s default). */
  maxPasswordOperations?: number;
  /** Operation limits (the CLI's `--max-*` flags); limits/settings.ts's defaults for those not given. */
  limits?: Partial<OperationLimits>;
  /** How JWK Sets (`JWKUrl`/`JWKUrls`) are fetched and kept; auth/'s defaults for those not given. */
  keySets?: Partial<KeySetPolicy>;
  /** Subscriptions over WebSocket: debounce and limits (the CLI's `--subscription-*` flags); live/'s defaults for those not given. */
  subscriptions?: Partial<LiveSettings>;
  /** Prometheus metrics at `GET /metrics` (the CLI's `--metrics`); default true. */
  metrics?: boolean;
  /** When set, `/metrics` requires `Authorization: Bearer <metricsToken>`; otherwise loopback callers only. */
  metricsToken?: string;
}

export interface App {
  /** The node:http request listener. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Validates, prepares and swaps in `text`; concurrent calls run one after the other. Refused (409) when it
   * would make stored data unreadable, unless `force`.
   */
  activateSchema(text: string, options?: { force?: boolean }): Promise<ActivationResult>;
  /** What activating `text` would change, as `POST /admin/schema?dryRun=true` answers it; nothing is activated. */
  dryRunSchema(text: string): Promise<DryRunResult>;
  /** Loads, checks, stores and swaps in a lambda script, like `POST /admin/lambda`. */
  activateLambda(text: string): Promise<LambdaActivationResult>;
  /** The schema being served, if any. */
  readonly active: ActiveSchema | undefined;
  /** The persisted query plugin's hash cache and manifest registration, as `/graphql` and `/admin` use them. */
  readonly persistedQueries: PersistedQueries;
  /** Activates the schema and lambda script another instance stored, if they changed (the periodic check, now). */
  checkStore(): Promise<void>;
  /** Serves subscriptions (graphql-ws) on `server`'s `/graphql` path; close the endpoint before the server. */
  attachSubscriptions(server: Server): WebSocketEndpoint;
  /** The running subscriptions of this instance. */
  readonly liveRegistry: LiveRegistry;
  /** Stops Apollo Server. The store belongs to the caller, who closes it after this. */
  close(): Promise<void>;
}

/** `initialLambda` was rejected: the CLI reports the errors and does not start. */
export class InitialLambdaError extends Error {
  constructor(readonly errors: ActivationError[]) {
    super(`the lambda script given at start is not valid:\n${errors.map(formatActivationError).join('\n')}`);
    this.name = 'InitialLambdaError';
  }
}

/** `initialSchema` was rejected: the CLI reports the errors and does not start. */
export class InitialSchemaError extends Error {
  constructor(readonly errors: ActivationError[]) {
    super(`the schema given at start is not valid:\n${errors.map(formatActivationError).join('\n')}`);
    this.name = 'InitialSchemaError';
  }
}

export function formatActivationError(error: ActivationError): string {
  const where = (error.locations ?? []).map((location) => `${location.line}:${location.column}`).join(', ');
  return where ? `${where} ${error.message}` : error.message;
}

function budgetLimitsOf(options: AppOptions): BudgetLimits {
  const limits = {
    timeoutMs: options.requestTimeoutMs ?? DEFAULT_BUDGET_LIMITS.timeoutMs,
    maxObjects: options.maxResultObjects ?? DEFAULT_BUDGET_LIMITS.maxObjects,
    maxPasswordOperations: options.maxPasswordOperations ?? DEFAULT_BUDGET_LIMITS.maxPasswordOperations,
  };
  checkBudgetLimits(limits);
  return limits;
}

function schemaLimitsOf(given: Partial<SchemaLimits> = {}): SchemaLimits {
  const limits: SchemaLimits = { ...DEFAULT_SCHEMA_LIMITS };
  for (const key of Object.keys(limits) as (keyof SchemaLimits)[]) {
    const value = given[key];
    if (value !== undefined) limits[key] = value;
  }
  return limits;
}

export async function createApp(options: AppOptions): Promise<App> {
  const { store, logger } = options;
  const schemaLimits = schemaLimitsOf(options.schemaLimits);
  const buildModel: SchemaModelBuilder = options.buildModel ?? ((source) => buildSchemaModel(source, schemaLimits));
  const buildSchema: ExecutableSchemaBuilder = options.buildSchema ?? buildExecutableSchema;
  const createContext: RequestContextFactory = options.createContext ?? createRequestContext;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // Read before anything starts: a missing page file stops the start with its name.
  const ide = ideEnabled(options.ide);
  const uiFiles = new UiFiles({ vendor: ide });
  const lambdaRuntime = new SwappableLambdaHost({
    timeoutMs: options.lambdaTimeoutMs,
    memoryMb: options.lambdaMemoryMb,
    maxResidentMb: options.lambdaMaxResidentMb,
    maxResultBytes: options.lambdaMaxResultBytes,
    logger: logger.child({ component: 'lambda' }),
  });
  const customSecrets = options.customSecrets ?? {};
  const observability = createObservability({ logger: logger.child({ component: 'http' }), metrics: options.metrics, activeSchemaText: () => active?.text });
  // @lambdaOnMutate: committed mutations call the script's webhooks from a bounded queue (custom/webhook-dispatcher.ts).
  const webhooks = new WebhookDispatcher({ host: lambdaRuntime, logger: logger.child({ component: 'lambda' }), listener: observability.webhooks });
  const undecoratedServices: SchemaServices = {
    store,
    logger: logger.child({ component: 'resolve' }),
    lambdaHost: lambdaRuntime,
    customHttp: { allowHosts: options.customAllow ?? [], secrets: customSecrets, timeoutMs: options.customTimeoutMs, fetch: customHttpFetch },
    budgetLimits: budgetLimitsOf(options),
    executeGraphQL: (query, variables, headers) =>
      lambdaGraphqlExecutor(apollo, (callerHeaders) => createContext(services, { headers: callerHeaders }))(query, variables, headers),
    mutationCommitted: (mutation) => webhooks.committed(mutation),
  };
  const services = observability.decorate(undecoratedServices);
  // Checked with the schema: @auth rules compile, @custom settings, and @lambda fields the loaded script lacks.
  const checkedBuildModel: SchemaModelBuilder = (source) => {
    const built = buildModel(source);
    if (!built.model || built.errors.length > 0) return built;
    const errors = [...checkAuthRules(built.model), ...customLogicProblems(built.model, lambdaRuntime, new Set(Object.keys(customSecrets)))];
    return { model: built.model, errors };
  };
  const schemaSource = new SwappableSchemaSource();
  const persistedQueries = createPersistedQueryPlugin({
    ...options.persistedQueries,
    store,
    logger: logger.child({ component: 'persisted-queries' }),
  });
  const limits = operationLimits(options.limits);
  const liveRegistry = new LiveRegistry(store, liveSettings(options.subscriptions), liveListenerOf(observability.metrics));
  // One cache of each JWK Set for HTTP and WebSocket requests alike.
  const keySets = new KeySets({ ...DEFAULT_KEY_SET_POLICY, ...options.keySets });
  const apollo = createApolloServer({
    schemaSource,
    persistedQueries,
    limits,
    keySets,
    introspection: options.introspection,
    csrfPrevention: options.csrfPrevention,
    requestPlugins: [budgetPlugin(), observability.plugin],
    plugins: options.plugins,
    logger,
  });
  let apolloStarted = false;
  let active: ActiveSchema | undefined;
  /** Whether the active schema has `@lambda` or `@custom` fields, whose calls a request's trace then follows. */
  let activeCustomLogic = false;
  let activationQueue: Promise<unknown> = Promise.resolve();

  const activationSteps = { store, buildModel: checkedBuildModel, buildSchema: (model: SchemaModel) => buildSchema(model, services) };

  async function activate(text: string, options: ActivationOptions): Promise<ActivationResult> {
    const started = Date.now();
    const result = await prepareActivation(text, active, activationSteps, options);
    if (!result.ok) {
      logger.warn({ httpStatus: result.httpStatus, errors: result.errors }, 'schema rejected');
      return result;
    }
    schemaSource.publish(result.active.schema);
    // Their operations were validated against the schema just replaced: each ends with a message.
    liveRegistry.endAll(schemaChangedResult());
    if (!apolloStarted) {
      // Apollo starts with the first real schema, so start-time plugins (inline tracing for subgraphs)
      // see it. Before that, /graphql answers SCHEMA_NOT_LOADED without reaching Apollo.
      try {
        await apollo.start();
      } catch (error) {
        logger.error({ err: error }, 'Apollo Server failed to start');
        return { ok: false, httpStatus: 500, errors: [{ message: `Apollo Server failed to start: ${(error as Error).message}` }] };
      }
      apolloStarted = true;
    }
    active = result.active;
    activeCustomLogic = usesCustomLogic(result.active.model);
    logger.info(
      { types: result.types, indexesCreated: result.indexes.created, indexesDropped: result.indexes.dropped, ms: Date.now() - started },
      'schema activated',
    );
    return result;
  }

  /** Runs `work` after every activation queued before it, and before any queued after it. */
  function enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = activationQueue.then(work);
    activationQueue = run.catch(() => undefined);
    return run;
  }

  function serialized(text: string, options: ActivationOptions): Promise<ActivationResult> {
    return enqueue(() => activate(text, options));
  }

  function dryRun(text: string): Promise<DryRunResult> {
    return enqueue(() => dryRunActivation(text, active, activationSteps));
  }

  function activateLambda(text: string, persist: boolean): Promise<LambdaActivationResult> {
    // A script read back from the store was checked against the schema stored with it. Checked against the
    // schema this instance still serves, a renamed @lambda field would block both: the new script lacks
    // the old field, and the new schema needs the new script.
    return activateLambdaScript(text, lambdaRuntime, { store, activeModel: persist ? active?.model : undefined }, { persist });
  }

  function serializedLambda(text: string, persist: boolean): Promise<LambdaActivationResult> {
    return enqueue(() => activateLambda(text, persist));
  }

  const schemaDefinition: Definition = {
    name: 'schema',
    collection: SYSTEM_COLLECTIONS.schema,
    initial: options.initialSchema,
    current: () => active?.text,
    activate: (text, persist) => activate(text, { persist }),
    rejectedAtStart: (errors) => new InitialSchemaError(errors),
  };
  const lambdaDefinition: Definition = {
    name: 'lambda script',
    collection: SYSTEM_COLLECTIONS.lambda,
    initial: options.initialLambda,
    current: () => lambdaRuntime.script,
    activate: activateLambda,
    rejectedAtStart: (errors) => new InitialLambdaError(errors),
  };

  const definitions = new DefinitionSync({
    store,
    logger,
    enqueue,
    retryMs: options.storedSchemaRetryMs ?? 2000,
    checkMs: options.storeCheckMs,
    // Whichever of schema and script is checked second must serve the other's @lambda fields: the one
    // given at start comes second, so it is the one refused when they do not fit.
    definitions: options.initialLambda !== undefined && options.initialSchema === undefined ? [schemaDefinition, lambdaDefinition] : [lambdaDefinition, schemaDefinition],
  });
  try {
    await definitions.start();
  } catch (error) {
    await lambdaRuntime.close();
    throw error;
  }

  const context = (req: IncomingMessage, headers: Record<string, string | undefined>) => async () =>
    observability.requests.attachContext(req, await createContext(observability.decorate(undecoratedServices, req, activeCustomLogic), { headers }));
  const cors = options.corsOrigins === undefined ? undefined : { origins: options.corsOrigins, maxAgeSeconds: CORS_MAX_AGE_SECONDS };
  const router = createRouter(
    [
      // Before the GraphQL route: it takes a browser's GET /graphql (the page), and leaves every other request.
      ...(ide ? [ideRoute({ active: () => active })] : []),
      graphqlRoute({
        apollo,
        store,
        active: () => active,
        waitingForStore: () => definitions.waitingForStore,
        context,
        maxBodyBytes,
        cors,
      }),
      uiAssetsRoute(uiFiles),
      // Before the admin route, which answers every other path under /admin/.
      schemaUiRoute({ files: uiFiles, adminToken: options.adminToken }),
      adminRoute({
        adminToken: options.adminToken,
        cors,
        maxBodyBytes,
        store,
        active: () => active,
        activateSchema: (text, upload) => serialized(text, { persist: true, ...upload }),
        dryRunSchema: dryRun,
        dropTypeData: (typeName) => dropRemovedTypeData(typeName, { store, served: () => active, checkStore: () => definitions.check(), enqueue }),
        currentLambda: () => lambdaRuntime.script,
        activateLambda: (text) => serializedLambda(text, true),
        persistedQueries,
        data: { store, logger: logger.child({ component: 'admin-data' }) },
      }),
      ...(observability.metrics ? [metricsRoute({ metrics: observability.metrics, metricsToken: options.metricsToken, corsOrigins: options.corsOrigins })] : []),
      healthRoute({ store, hasSchema: () => active !== undefined }),
    ],
    logger,
    (req, code) => {
      const observation = observability.requests.observationOf(req);
      if (observation) noteErrorCode(observation, code);
    },
  );
  const handler = observability.requests.wrap(router);

  return {
    handler,
    activateSchema: (text, upload) => serialized(text, { persist: true, ...upload }),
    dryRunSchema: dryRun,
    activateLambda: (text) => serializedLambda(text, true),
    get active() {
      return active;
    },
    persistedQueries,
    checkStore: () => definitions.check(),
    liveRegistry,
    attachSubscriptions(server) {
      return attachWebSocket(
        server,
        '/graphql',
        liveServerOptions({
          registry: liveRegistry,
          activeSchema: () => active?.schema,
          validationRules: serviceValidationRules(limits, introspectionEnabled(options.introspection)),
          limits,
          persistedQueries,
          keySets,
          createContext: (headers) => createContext(services, { headers }),
          formatError,
          logger: logger.child({ component: 'subscriptions' }),
        }),
      );
    },
    async close() {
      liveRegistry.close();
      webhooks.close();
      await definitions.close();
      await activationQueue;
      if (apolloStarted) {
        await apollo.stop();
      }
      await lambdaRuntime.close();
    },
  };
}

/** Whether the IDE is served: as asked, else off under NODE_ENV=production, like introspection. */
export function ideEnabled(asked: boolean | undefined): boolean {
  return asked ?? process.env.NODE_ENV !== 'production';
}

/** The subscription metrics, fed by the registry's reports (live/ does not know observe/). */
function liveListenerOf(metrics: ServiceMetrics | undefined): LiveListener {
  if (!metrics) return {};
  return {
    runningChanged: (count) => metrics.setRunningSubscriptions(count),
    rerun: () => metrics.recordSubscriptionRerun(),
    resultDelivered: () => metrics.recordSubscriptionResult('delivered'),
    resultUnchanged: () => metrics.recordSubscriptionResult('unchanged'),
    refused: (code) => metrics.recordSubscriptionRefused(code),
  };
}
