import { readFile } from 'node:fs/promises';
import { ConfigError, helpText, parseCommandLine, type ServerConfig } from './config.js';

/**
 * CLI entry point. Exit codes: 0 clean stop (or --help), 1 could not start, 2 bad command line.
 * The service's modules load only once the command line is known to be good, so `--help` and argument
 * errors answer at once.
 */
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
      return exitWithUsageError(error.message);
    }
    throw error;
  }

  let initialSchema: string | undefined;
  if (config.schemaFile !== undefined) {
    try {
      initialSchema = await readFile(config.schemaFile, 'utf8');
    } catch (error) {
      return exitWithUsageError(`cannot read the schema file ${config.schemaFile}: ${(error as Error).message}`);
    }
  }

  let initialLambda: string | undefined;
  if (config.lambdaFile !== undefined) {
    try {
      initialLambda = await readFile(config.lambdaFile, 'utf8');
    } catch (error) {
      return exitWithUsageError(`cannot read the lambda file ${config.lambdaFile}: ${(error as Error).message}`);
    }
  }

  // require, not import(): this file compiles to CommonJS, where TypeScript keeps import() as a native
  // ES module import that bypasses the CommonJS loader (and ts-node when running from source).
  const { serve } = require('./serve.js') as typeof import('./serve.js');
  await serve(config, initialSchema, initialLambda);
}

function exitWithUsageError(message: string): void {
  process.stderr.write(`autograph: ${message}\n`);
  process.exit(2);
}

main(process.argv.slice(2), process.env).catch((error: unknown) => {
  process.stderr.write(`autograph: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
