import { resolve as resolvePath } from 'node:path';
import type { Logger } from 'pino';
import { OPERATION_LIMITS, type OperationLimitName, type OperationLimits } from '../limits/settings.js';
import { isOtlpExportConfigured } from '../observe/otlp-config.js';
import type { TraceExport } from '../observe/otlp-tracing.js';
import { openEmbeddedStore } from '../store/embedded/index.js';
import { openMongoStore } from '../store/mongo/mongo-store.js';
import type { Store } from '../store/port.js';
import { createApp, formatActivationError, InitialLambdaError, InitialSchemaError, type App } from './app.js';
import type { ServerConfig } from './config.js';
import { startServer } from './listen.js';
import { startupHint, type StartupSettings } from './startup-errors.js';
import { createLogger } from './logger.js';

const DEFAULT_STORE_CHECK_MS = 5000;

/**
 * The service as the CLI runs it: opens the store, activates the schema (given or stored), listens, and
 * stops cleanly on SIGTERM/SIGINT (stop accepting, finish requests in flight, flush the store, exit 0).
 * Exits with code 1 when it cannot start.
 */
export async function serve(config: ServerConfig, initialSchema: string | undefined, initialLambda?: string): Promise<void> {
  const logger = createLogger(config.logLevel);
  const settings = { host: config.host, port: config.port, dataDir: resolvePath(config.dataDir) };
  let traceExport: TraceExport | undefined;
  try {
    traceExport = startTraceExport(logger);
  } catch (error) {
    return exitWithHintOr(error, settings, logger, 'cannot export traces');
  }
  let store: Store;
  try {
    store = await openStore(config, logger);
  } catch (error) {
    return exitWithHintOr(error, settings, logger, 'cannot open the data store');
  }
  let app: App;
  try {
    app = await createApp({
      store,
      logger,
      adminToken: config.adminToken,
      corsOrigins: config.corsOrigins,
      introspection: config.introspection,
      csrfPrevention: config.csrfPrevention,
      ide: config.ide,
      maxBodyBytes: config.maxBodyBytes,
      initialSchema,
      initialLambda,
      // Only MongoDB can be shared by several instances; the embedded store's folder is locked by one.
      storeCheckMs: config.mongoUri !== undefined ? (config.storeCheckMs ?? DEFAULT_STORE_CHECK_MS) : undefined,
      lambdaTimeoutMs: config.lambdaTimeoutMs,
      lambdaMemoryMb: config.lambdaMemoryMb,
      lambdaMaxResidentMb: config.lambdaMaxResidentMb,
      lambdaMaxResultBytes: config.lambdaMaxResultBytes,
      customAllow: config.customAllow,
      customSecrets: config.customSecrets,
      customTimeoutMs: config.customTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
      maxResultObjects: config.maxResultObjects,
      maxPasswordOperations: config.maxPasswordOperations,
      subscriptions: {
        debounceMs: config.subscriptionDebounceMs,
        maxPerConnection: config.maxSubscriptionsPerConnection,
        maxTotal: config.maxSubscriptions,
      },
      metrics: config.metrics,
      metricsToken: config.metricsToken,
      schemaLimits: {
        maxBytes: config.schemaMaxBytes,
        maxTypes: config.schemaMaxTypes,
        maxFields: config.schemaMaxFields,
        maxDepth: config.schemaMaxDepth,
      },
      limits: limitsOf(config),
      persistedQueries: {
        persistedOnly: config.persistedOnly,
        lruMaxEntries: config.persistedLruEntries,
        lruMaxBytes: config.persistedLruBytes,
        maxQueryBytes: config.persistedMaxQueryBytes,
        maxRegisteredQueries: config.persistedMaxRegistered,
        maxRegisteredBytes: config.persistedMaxRegisteredBytes,
      },
    });
  } catch (error) {
    if (error instanceof InitialLambdaError) {
      logger.fatal({ lambdaFile: config.lambdaFile, errors: error.errors.map(formatActivationError) }, 'the lambda file was rejected');
    } else if (error instanceof InitialSchemaError) {
      logger.fatal({ schemaFile: config.schemaFile, errors: error.errors.map(formatActivationError) }, 'the schema file was rejected');
    } else {
      logger.fatal({ err: error }, 'failed to start');
    }
    await store.close();
    process.exit(1);
  }

  let server;
  try {
    server = await startServer({ app, port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    await store.close();
    return exitWithHintOr(error, settings, logger, 'cannot listen');
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server
      .close()
      .then(() => store.close())
      .then(() => traceExport?.shutdown())
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.fatal({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Only now: whoever reacts to "started" by sending a signal must find the handlers in place.
  logger.info(
    {
      url: server.url,
      port: server.port,
      store: store.kind,
      schema: app.active !== undefined,
      adminToken: config.adminToken !== undefined,
      persistedQueries: app.persistedQueries.settings,
    },
    'started',
  );
}

/**
 * Exits 1. A failure the operator can fix by configuration is logged and printed to stderr as one line
 * saying what to change; anything else is logged with its stack.
 */
function exitWithHintOr(error: unknown, settings: StartupSettings, logger: Logger, event: string): never {
  const hint = startupHint(error, settings);
  if (hint === undefined) {
    logger.fatal({ err: error, host: settings.host, port: settings.port }, event);
  } else {
    logger.fatal({ hint }, event);
    process.stderr.write(`autograph: ${hint}\n`);
  }
  process.exit(1);
}

function limitsOf(config: ServerConfig): Partial<OperationLimits> {
  const limits: Partial<OperationLimits> = {};
  for (const name of Object.keys(OPERATION_LIMITS) as OperationLimitName[]) {
    if (config[name] !== undefined) limits[name] = config[name];
  }
  return limits;
}

/** OTLP trace export when the environment asks for it; the SDK is loaded only then. */
function startTraceExport(logger: Logger): TraceExport | undefined {
  if (!isOtlpExportConfigured(process.env)) return undefined;
  // require, not import: the SDK and exporter load only when export is configured.
  const { startOtlpTraceExport } = require('../observe/otlp-tracing.js') as typeof import('../observe/otlp-tracing.js');
  const traceExport = startOtlpTraceExport(process.env);
  logger.info({ endpoint: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT, sampler: traceExport.sampler }, 'exporting traces over OTLP/HTTP');
  return traceExport;
}

function openStore(config: ServerConfig, logger: Logger): Promise<Store> {
  if (config.mongoUri !== undefined) {
    return openMongoStore(config.mongoUri, { logger: logger.child({ component: 'mongodb' }), changePollMS: config.changePollMs });
  }
  return openEmbeddedStore(resolvePath(config.dataDir));
}
