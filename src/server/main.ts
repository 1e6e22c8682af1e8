import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { Logger } from 'pino';
import { openEmbeddedStore } from '../store/embedded/index.js';
import { openMongoStore } from '../store/mongo/mongo-store.js';
import type { Store } from '../store/port.js';
import { createApp, formatActivationError, InitialSchemaError } from './app.js';
import { ConfigError, helpText, parseCommandLine, type ServerConfig } from './config.js';
import { startServer } from './listen.js';
import { createLogger } from './logger.js';

/** Exit codes: 0 clean stop, 1 failed to start, 2 bad command line. */
async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  let config: ServerConfig;
  try {
    const parsed = parseCommandLine(argv, env);
    if (parsed.kind === 'help') {
      process.stdout.write(`${helpText()}\n`);
      return;
    }
    config = parsed.config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`autograph: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  let initialSchema: string | undefined;
  if (config.schemaFile !== undefined) {
    try {
      initialSchema = await readFile(config.schemaFile, 'utf8');
    } catch (error) {
      process.stderr.write(`autograph: cannot read the schema file ${config.schemaFile}: ${(error as Error).message}\n`);
      process.exit(2);
    }
  }

  const logger = createLogger(config.logLevel);
  const store = await openStore(config, logger);
  let app;
  try {
    app = await createApp({
      store,
      logger,
      adminToken: config.adminToken,
      initialSchema,
    });
  } catch (error) {
    if (error instanceof InitialSchemaError) {
      logger.fatal(
        { schemaFile: config.schemaFile, errors: error.errors.map(formatActivationError) },
        'the schema file was rejected',
      );
    } else {
      logger.fatal({ err: error }, 'failed to start');
    }
    await store.close();
    process.exit(1);
  }
  const server = await startServer({ app, port: config.port, host: config.host });
  logger.info(
    { url: server.url, port: server.port, store: store.kind, schema: app.active !== undefined, adminToken: config.adminToken !== undefined },
    'started',
  );

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
}

async function openStore(config: ServerConfig, logger: Logger): Promise<Store> {
  if (config.mongoUri !== undefined) {
    return openMongoStore(config.mongoUri, { logger: logger.child({ component: 'mongodb' }) });
  }
  return openEmbeddedStore(resolvePath(config.dataDir));
}

main(process.argv.slice(2), process.env).catch((error: unknown) => {
  process.stderr.write(`autograph: failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
