/**
 * What find, update and delete do to documents, with mingo as the evaluator: matching, sorting and
 * projecting a read; applying an update (operators, replacement or pipeline); building an upserted document.
 */
import { ObjectId } from 'mongodb';
import { Query, update as applyUpdateOperators } from 'mingo';
import { CommandError } from './errors';
import { copyDocument, runPipeline } from './pipeline';
import { isDocument, keyOf, type Document } from './values';

export interface ReadWindow {
  sort?: Document;
  skip?: number;
  limit?: number;
  projection?: Document;
}

export function compileFilter(filter: unknown): Query {
  if (filter !== undefined && !isDocument(filter)) throw new CommandError('TypeMismatch', "BSON field 'filter' is the wrong type, expected type 'object'");
  try {
    return new Query(filter ?? {}, { scriptEnabled: false });
  } catch (error) {
    throw new CommandError('BadValue', `invalid query: ${(error as Error).message}`);
  }
}

/** The documents of `all` matching `filter`, sorted, windowed and projected as a find returns them. */
export function readDocuments(all: Document[], filter: unknown, window: ReadWindow): Document[] {
  const query = compileFilter(filter);
  try {
    let cursor = query.find<Document>(all, window.projection);
    if (window.sort && Object.keys(window.sort).length > 0) cursor = cursor.sort(window.sort as Record<string, 1 | -1>);
    if (window.skip) cursor = cursor.skip(window.skip);
    if (window.limit) cursor = cursor.limit(window.limit);
    return cursor.all();
  } catch (error) {
    throw new CommandError('BadValue', `error processing query: ${(error as Error).message}`);
  }
}

export function matchingDocuments(all: Document[], filter: unknown): Document[] {
  const query = compileFilter(filter);
  return all.filter((document) => query.test(document));
}

export type UpdateSpec = Document | Document[];

export function checkUpdateSpec(update: unknown): UpdateSpec {
  if (Array.isArray(update) && update.every(isDocument)) return update;
  if (isDocument(update)) {
    const keys = Object.keys(update);
    const operators = keys.filter((key) => key.startsWith('$'));
    if (operators.length > 0 && operators.length < keys.length) {
      throw new CommandError('FailedToParse', `Unknown modifier: ${keys.find((key) => !key.startsWith('$'))}. Expected a valid update modifier or pipeline-style update specified as an array`);
    }
    return update;
  }
  throw new CommandError('FailedToParse', 'Update argument must be either an object or an array');
}

/** The document after `update`, as a new object; `current` is left as it was. */
export function updatedDocument(current: Document, update: UpdateSpec, filter: unknown, arrayFilters: unknown): Document {
  let next: Document;
  if (Array.isArray(update)) {
    next = runPipeline([copyDocument(current)], update, () => [])[0] ?? {};
  } else if (isReplacement(update)) {
    next = { _id: current._id, ...withoutId(update, current._id) };
  } else {
    next = copyDocument(current);
    try {
      applyUpdateOperators(next, update, Array.isArray(arrayFilters) ? (arrayFilters as Document[]) : undefined, isDocument(filter) ? filter : undefined, {
        cloneMode: 'deep',
        queryOptions: { scriptEnabled: false },
      });
    } catch (error) {
      throw new CommandError('BadValue', `update failed: ${(error as Error).message}`);
    }
  }
  if (keyOf(next._id) !== keyOf(current._id)) {
    throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return next;
}

/** The document an upsert inserts: the filter's equality fields, then the update applied to them. */
export function upsertedDocument(filter: unknown, update: UpdateSpec, arrayFilters: unknown): Document {
  const seed: Document = isDocument(filter) ? equalityFields(filter) : {};
  if (!('_id' in seed)) {
    const fromReplacement = !Array.isArray(update) && isReplacement(update) ? update._id : undefined;
    seed._id = fromReplacement ?? new ObjectId();
  }
  const { _id, ...rest } = seed;
  return updatedDocument({ _id, ...rest }, update, undefined, arrayFilters);
}

function isReplacement(update: Document): boolean {
  return !Object.keys(update).some((key) => key.startsWith('$'));
}

function withoutId(replacement: Document, currentId: unknown): Document {
  const { _id, ...rest } = replacement;
  if (_id !== undefined && keyOf(_id) !== keyOf(currentId)) {
    throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return rest;
}

function equalityFields(filter: Document): Document {
  const fields: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) if (isDocument(part)) Object.assign(fields, equalityFields(part));
    } else if (!key.startsWith('$') && !key.includes('.') && !(isDocument(value) && Object.keys(value).some((k) => k.startsWith('$')))) {
      fields[key] = value;
    } else if (!key.startsWith('$') && !key.includes('.') && isDocument(value) && '$eq' in value) {
      fields[key] = value.$eq;
    }
  }
  return fields;
}
