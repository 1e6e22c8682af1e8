/** `find`, `aggregate`, `count` and the cursor commands `getMore` and `killCursors`. */
import { Long } from 'mongodb';
import { readDocuments, matchingDocuments } from '../documents';
import { CommandError } from '../errors';
import { copyDocument, runPipeline } from '../pipeline';
import type { Document } from '../values';
import { collectionName, existing, namespaceOf, optionalCount, optionalDocument, refuseOptions, type CommandContext, type CommandHandler } from './context';

function find(context: CommandContext): Document {
  const { command } = context;
  const name = collectionName(context);
  refuseOptions(command, ['collation', 'min', 'max', 'returnKey', 'showRecordId', 'tailable', 'awaitData'], 'find');
  const limit = optionalCount(command, 'limit', { allowNegative: true }) ?? 0;
  const filter = optionalDocument(command, 'filter');
  const documents = readDocuments(existing(context, name)?.candidates(filter) ?? [], filter, {
    sort: optionalDocument(command, 'sort'),
    projection: optionalDocument(command, 'projection'),
    skip: optionalCount(command, 'skip'),
    limit: Math.abs(limit),
  });
  const singleBatch = command.singleBatch === true || limit < 0;
  return context.cursors.firstBatch(namespaceOf(context, name), documents, optionalCount(command, 'batchSize'), singleBatch);
}

/** `aggregate: <collection>`, or `aggregate: 1` for a pipeline that starts with `$documents`. */
function aggregate(context: CommandContext): Document {
  const { command } = context;
  refuseOptions(command, ['explain', 'collation'], 'aggregate');
  const cursorOptions = optionalDocument(command, 'cursor');
  if (!cursorOptions) throw new CommandError('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
  const onDatabase = command.aggregate === 1;
  const name = onDatabase ? undefined : collectionName(context);
  const input = name === undefined ? [] : (existing(context, name)?.all() ?? []).map(copyDocument);
  const source = (other: string) => existing(context, other)?.all() ?? [];
  const rows = runPipeline(input, command.pipeline, source, optionalDocument(command, 'let') ?? {});
  const namespace = name === undefined ? `${context.database}.$cmd.aggregate` : namespaceOf(context, name);
  return context.cursors.firstBatch(namespace, rows, optionalCount(cursorOptions, 'batchSize'));
}

function count(context: CommandContext): Document {
  const { command } = context;
  const name = collectionName(context);
  const filter = optionalDocument(command, 'query');
  const matches = matchingDocuments(existing(context, name)?.candidates(filter) ?? [], filter).length;
  const skip = optionalCount(command, 'skip') ?? 0;
  const limit = Math.abs(optionalCount(command, 'limit', { allowNegative: true }) ?? 0);
  const afterSkip = Math.max(0, matches - skip);
  return { n: limit > 0 ? Math.min(limit, afterSkip) : afterSkip, ok: 1 };
}

function getMore(context: CommandContext): Document {
  const { command } = context;
  const id = cursorId(command.getMore);
  if (!id) throw new CommandError('TypeMismatch', "BSON field 'getMore.getMore' is the wrong type, expected type 'long'");
  if (typeof command.collection !== 'string') throw new CommandError('TypeMismatch', "BSON field 'getMore.collection' is missing or not a string");
  return context.cursors.nextBatch(id, command.collection, context.database, optionalCount(command, 'batchSize'));
}

function killCursors(context: CommandContext): Document {
  const given = context.command.cursors;
  const ids = Array.isArray(given) ? given.map(cursorId) : [];
  if (!Array.isArray(given) || !ids.every((id) => id !== undefined)) {
    throw new CommandError('TypeMismatch', "BSON field 'killCursors.cursors' must be an array of longs");
  }
  const { killed, notFound } = context.cursors.kill(ids as Long[]);
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
}

/** A cursor id: an int64, which BSON decoding turns into a number when it fits one. */
function cursorId(value: unknown): Long | undefined {
  if (value instanceof Long) return value;
  return typeof value === 'number' && Number.isSafeInteger(value) ? Long.fromNumber(value) : undefined;
}

export const readCommands: Record<string, CommandHandler> = { find, aggregate, count, getMore, killCursors };

/** Commands whose work `maxTimeMS` bounds (checked after the work: nothing here is interruptible). */
export const TIME_LIMITED_COMMANDS = new Set(['find', 'aggregate', 'count', 'getMore']);
