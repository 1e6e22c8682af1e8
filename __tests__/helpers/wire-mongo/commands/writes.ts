/**
 * `insert`, `update`, `delete` and `findAndModify`. Statements run in order; a failing statement becomes an
 * entry of `writeErrors` (an ordered batch stops there, an unordered one goes on), and what earlier
 * statements wrote stays written, as on a standalone mongod.
 */
import { ObjectId } from 'mongodb';
import type { Collection } from '../collection';
import { checkUpdateSpec, matchingDocuments, readDocuments, updatedDocument, upsertedDocument } from '../documents';
import { CommandError } from '../errors';
import { isDocument, type Document } from '../values';
import { collectionName, existing, optionalDocument, refuseOptions, type CommandContext, type CommandHandler } from './context';

/** Runs `statement` for each entry, collecting write errors like mongod. */
function runStatements(context: CommandContext, field: string, statement: (entry: Document, index: number) => number): Document {
  const entries = context.command[field];
  if (!Array.isArray(entries) || !entries.every(isDocument)) throw new CommandError('TypeMismatch', `BSON field '${field}' must be an array of objects`);
  const ordered = context.command.ordered !== false;
  let n = 0;
  const writeErrors: Document[] = [];
  for (const [index, entry] of entries.entries()) {
    try {
      n += statement(entry, index);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      writeErrors.push(error.writeError(index));
      if (ordered) break;
    }
  }
  return { n, ...(writeErrors.length > 0 && { writeErrors }), ok: 1 };
}

function insert(context: CommandContext): Document {
  const collection = context.catalog.obtain(context.database, collectionName(context));
  return runStatements(context, 'documents', (document) => {
    collection.insert(withId(document));
    return 1;
  });
}

/** A document as stored: `_id` first, an ObjectId when the client sent none. */
function withId(document: Document): Document {
  if (Array.isArray(document._id)) throw new CommandError('InvalidIdField', "The '_id' value cannot be of type array");
  const { _id = new ObjectId(), ...rest } = document;
  return { _id, ...rest };
}

function update(context: CommandContext): Document {
  const name = collectionName(context);
  let nModified = 0;
  const upserted: Document[] = [];
  const reply = runStatements(context, 'updates', (statement, index) => {
    refuseOptions(statement, ['collation', 'sort'], 'update');
    const spec = checkUpdateSpec(statement.u);
    const collection = existing(context, name);
    const matches = matchingDocuments(collection?.candidates(statement.q) ?? [], statement.q);
    const targets = statement.multi === true ? matches : matches.slice(0, 1);
    if (targets.length === 0 && statement.upsert === true) {
      const document = upsertedDocument(statement.q, spec, statement.arrayFilters);
      context.catalog.obtain(context.database, name).insert(document);
      upserted.push({ index, _id: document._id });
      return 1;
    }
    for (const current of targets) {
      if (replaceIfChanged(collection!, current, updatedDocument(current, spec, statement.q, statement.arrayFilters))) nModified += 1;
    }
    return targets.length;
  });
  return { ...reply, nModified, ...(upserted.length > 0 && { upserted }) };
}

/** Stores `next` unless it equals `current`; says whether it did. */
function replaceIfChanged(collection: Collection, current: Document, next: Document): boolean {
  if (JSON.stringify(current) === JSON.stringify(next)) return false;
  collection.replace(current, next);
  return true;
}

function deleteCommand(context: CommandContext): Document {
  const name = collectionName(context);
  return runStatements(context, 'deletes', (statement) => {
    refuseOptions(statement, ['collation'], 'delete');
    if (statement.limit !== 0 && statement.limit !== 1) throw new CommandError('FailedToParse', "The limit field in delete objects must be 0 or 1");
    const collection = existing(context, name);
    if (!collection) return 0;
    const matches = matchingDocuments(collection.candidates(statement.q), statement.q);
    const targets = statement.limit === 1 ? matches.slice(0, 1) : matches;
    for (const document of targets) collection.remove(document);
    return targets.length;
  });
}

function findAndModify(context: CommandContext): Document {
  const { command } = context;
  const name = collectionName(context);
  refuseOptions(command, ['collation', 'hint'], 'findAndModify');
  const remove = command.remove === true;
  if (remove === (command.update !== undefined)) throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  const fields = optionalDocument(command, 'fields');
  const project = (document: Document | undefined) => (document && fields ? readDocuments([document], {}, { projection: fields })[0] : document) ?? null;
  const collection = existing(context, name);
  const query = optionalDocument(command, 'query');
  const [current] = readDocuments(collection?.candidates(query) ?? [], query, { sort: optionalDocument(command, 'sort'), limit: 1 });
  if (remove) {
    if (current) collection!.remove(current);
    return { lastErrorObject: { n: current ? 1 : 0 }, value: project(current), ok: 1 };
  }
  const spec = checkUpdateSpec(command.update);
  if (!current) {
    if (command.upsert !== true) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    const document = upsertedDocument(command.query, spec, command.arrayFilters);
    context.catalog.obtain(context.database, name).insert(document);
    return { lastErrorObject: { n: 1, updatedExisting: false, upserted: document._id }, value: command.new === true ? project(document) : null, ok: 1 };
  }
  const next = updatedDocument(current, spec, command.query, command.arrayFilters);
  replaceIfChanged(collection!, current, next);
  return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(command.new === true ? next : current), ok: 1 };
}

export const writeCommands: Record<string, CommandHandler> = { insert, update, delete: deleteCommand, findAndModify };
