/**
 * From a decoded command to its reply: picks the handler, refuses what a standalone mongod refuses
 * (transactions), bounds reads by `maxTimeMS`, and turns every failure into an error reply. An unknown
 * command is reported on stderr as well, so a gap in this stand-in is visible in the test output.
 */
import { CommandError } from './errors';
import type { Catalog } from './catalog';
import type { CursorRegistry } from './cursors';
import { catalogCommands } from './commands/catalog';
import { optionalCount, type CommandHandler } from './commands/context';
import { handshakeCommands } from './commands/handshake';
import { readCommands, TIME_LIMITED_COMMANDS } from './commands/reads';
import { writeCommands } from './commands/writes';
import type { Document } from './values';

const HANDLERS: Record<string, CommandHandler> = { ...handshakeCommands, ...readCommands, ...writeCommands, ...catalogCommands };

/** Fields by which a driver asks for a transaction (or a retryable write, which needs a replica set too). */
const TRANSACTION_FIELDS = ['txnNumber', 'startTransaction', 'autocommit'];

export interface DispatchState {
  catalog: Catalog;
  cursors: CursorRegistry;
  /** Called for a command this server does not implement. */
  onUnknownCommand(name: string, command: Document): void;
}

export function dispatch(state: DispatchState, command: Document, connectionId: number): Document {
  const name = Object.keys(command)[0] ?? '';
  try {
    const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
    if (!handler) {
      state.onUnknownCommand(name, command);
      throw new CommandError('CommandNotFound', `no such command: '${name}' (the wire test server does not implement it)`);
    }
    if (TRANSACTION_FIELDS.some((field) => command[field] !== undefined)) {
      throw new CommandError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
    }
    const maxTimeMS = optionalCount(command, 'maxTimeMS');
    const startedAt = performance.now();
    const database = typeof command.$db === 'string' ? command.$db : 'admin';
    const reply = handler({ command, database, catalog: state.catalog, cursors: state.cursors, connectionId });
    if (maxTimeMS && TIME_LIMITED_COMMANDS.has(name) && performance.now() - startedAt > maxTimeMS) {
      throw new CommandError('MaxTimeMSExpired', 'operation exceeded time limit');
    }
    return reply;
  } catch (error) {
    if (error instanceof CommandError) return error.reply();
    return { ok: 0, errmsg: `wire test server failed on '${name}': ${(error as Error).stack ?? String(error)}`, code: 1, codeName: 'InternalError' };
  }
}
