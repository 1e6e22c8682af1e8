#!/usr/bin/env node
import { AdminClient, AdminHttpError, AdminUnreachableError } from './admin-client.js';
import { EXIT, UsageError, type Command, type ExitCode } from './command.js';
import { COMMANDS } from './commands/index.js';

const DEFAULT_URL = 'http://127.0.0.1:8080';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Runs the CLI for `argv` (without `node` and the script) and answers its exit code. */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly Command[] = COMMANDS): Promise<ExitCode> {
  const { url, rest } = takeUrlOption(argv, io.env);
  if (rest.length === 0 || rest[0] === '--help' || rest[0] === 'help') {
    io.stdout.write(helpText(commands));
    return rest.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const command = findCommand(commands, rest);
  if (command === undefined) {
    io.stderr.write(`autograph: unknown command "${rest.join(' ')}"\n\n${helpText(commands)}`);
    return EXIT.usage;
  }
  const client = new AdminClient({ baseUrl: url, adminToken: io.env.ADMIN_TOKEN || undefined });
  try {
    return await command.run({
      client,
      args: rest.slice(command.words.length),
      cwd: io.cwd,
      stdout: io.stdout,
      stderr: io.stderr,
    });
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`autograph ${command.words.join(' ')}: ${error.message}\nusage: autograph ${command.usage}\n`);
      return EXIT.usage;
    }
    if (error instanceof AdminUnreachableError) {
      io.stderr.write(`autograph: ${error.message}\n`);
      return EXIT.unavailable;
    }
    if (error instanceof AdminHttpError) {
      io.stderr.write(`autograph: the service answered ${error.status}${error.code ? ` ${error.code}` : ''}: ${error.message}\n`);
      return error.status >= 500 ? EXIT.unavailable : EXIT.refused;
    }
    throw error;
  }
}

function takeUrlOption(argv: readonly string[], env: NodeJS.ProcessEnv): { url: string; rest: string[] } {
  const rest: string[] = [];
  let url = env.AUTOGRAPH_URL || DEFAULT_URL;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--url' && i + 1 < argv.length) {
      url = argv[++i]!;
    } else if (arg.startsWith('--url=')) {
      url = arg.slice('--url='.length);
    } else {
      rest.push(arg);
    }
  }
  return { url, rest };
}

function findCommand(commands: readonly Command[], words: readonly string[]): Command | undefined {
  return commands.find((command) => command.words.every((word, index) => words[index] === word));
}

function helpText(commands: readonly Command[]): string {
  const lines = [
    'usage: autograph [--url <service url>] <command> [arguments]',
    `The service URL defaults to $AUTOGRAPH_URL, else ${DEFAULT_URL}; the admin token is read from $ADMIN_TOKEN.`,
    '',
    'commands:',
    ...commands.map((command) => `  ${command.usage.padEnd(44)} ${command.summary}`),
    '',
    'exit codes: 0 done, 1 refused by the service (or a breaking change found), 2 bad command line, 3 service unreachable or failing',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * A reader that stops early (`autograph schema history | head -2`) closes the pipe; later writes then fail
 * with EPIPE, which Node would throw as an unhandled error. The output nobody reads is simply not written.
 */
function endQuietlyWhenReaderCloses(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? EXIT.ok);
  });
}

if (require.main === module) {
  endQuietlyWhenReaderCloses(process.stdout);
  runCli(process.argv.slice(2), { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`autograph: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = EXIT.unavailable;
    },
  );
}
