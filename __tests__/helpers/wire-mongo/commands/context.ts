/** What a command handler gets: the command, its database, and the server's shared state. */
import type { Long } from 'mongodb';
import type { Catalog } from '../catalog';
import type { Collection } from '../collection';
import type { CursorRegistry } from '../cursors';
import { CommandError } from '../errors';
import { isDocument, type Document } from '../values';

export interface CommandContext {
  command: Document;
  /** The command's `$db`. */
  database: string;
  catalog: Catalog;
  cursors: CursorRegistry;
  connectionId: number;
}

export type CommandHandler = (context: CommandContext) => Document;

/** The collection named by the command's first field, which must be a string. */
export function collectionName(context: CommandContext): string {
  const [name, value] = Object.entries(context.command)[0]!;
  if (typeof value !== 'string') {
    throw new CommandError('InvalidNamespace', `collection name has invalid type ${value === null ? 'null' : typeof value} in '${name}'`);
  }
  return value;
}

export function namespaceOf(context: CommandContext, collection: string): string {
  return `${context.database}.${collection}`;
}

/** The collection's documents, or none when it does not exist (reads never create collections). */
export function existing(context: CommandContext, name: string): Collection | undefined {
  return context.catalog.find(context.database, name);
}

export function optionalDocument(command: Document, field: string): Document | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (!isDocument(value)) throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type '${Array.isArray(value) ? 'array' : typeof value}', expected type 'object'`);
  return value;
}

/** A non-negative integer option (int32, int64 or a whole double), or undefined when absent. */
export function optionalCount(command: Document, field: string, { allowNegative = false } = {}): number | undefined {
  const raw = command[field] as number | Long | undefined | null;
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === 'number' ? raw : typeof raw === 'object' && 'toNumber' in raw ? raw.toNumber() : Number.NaN;
  if (!Number.isInteger(value) || (!allowNegative && value < 0)) {
    throw new CommandError('BadValue', `BSON field '${field}' value must be ${allowNegative ? 'an integer' : '>= 0'}, actual value '${String(raw)}'`);
  }
  return value;
}

export function refuseOptions(command: Document, names: string[], commandName: string): void {
  for (const name of names) {
    if (command[name] !== undefined) {
      throw new CommandError('BadValue', `${commandName}: option '${name}' is not supported by the wire test server`);
    }
  }
}
