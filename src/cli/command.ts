import type { AdminClient } from './admin-client.js';

/** What a command may touch: the admin API, the working folder's files and its two output streams. */
export interface CommandContext {
  client: AdminClient;
  /** Arguments after the command's words, e.g. `["schema.graphql", "--force"]` for `schema push schema.graphql --force`. */
  args: readonly string[];
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Exit codes, fit for CI pipelines: 0 done; 1 the service refused the operation or found a problem
 * (a breaking schema diff, an invalid schema); 2 a bad command line; 3 the service could not be reached or failed.
 */
export const EXIT = { ok: 0, refused: 1, usage: 2, unavailable: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface Command {
  /** The words that select it, e.g. `['schema', 'push']`. */
  words: readonly string[];
  usage: string;
  summary: string;
  run(context: CommandContext): Promise<ExitCode>;
}

/** Thrown by a command for a bad command line; main prints it with the command's usage and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
