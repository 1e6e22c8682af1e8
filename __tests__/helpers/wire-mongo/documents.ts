/**
 * What find, update and delete do to documents, with mingo as the evaluator: matching, sorting and
 * projecting a read; applying an update (operators, replacement or pipeline); building an upserted document.
 */
import { ObjectId } from 'mongodb';
import { Query, update as applyUpdateOperators } from 'mingo';
import { compare } from 'mingo/util';
import { CommandError } from './errors';
import { copyDocument, runPipeline } from './pipeline';
import { isDocument, keyOf, valuesAtPath, type Document } from './values';

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
    const matches = sortDocuments(all.filter((document) => query.test(document)), window.sort);
    let cursor = new Query({}).find<Document>(matches, window.projection);
    if (window.skip) cursor = cursor.skip(window.skip);
    if (window.limit) cursor = cursor.limit(window.limit);
    return cursor.all();
  } catch (error) {
    throw new CommandError('BadValue', `error processing query: ${(error as Error).message}`);
  }
}

/**
 * MongoDB's sort: an array field sorts by its smallest element ascending and by its largest descending
 * (mingo compares arrays as whole values), so each document is sorted by such a key, computed first.
 */
function sortDocuments(documents: Document[], sort: Document | undefined): Document[] {
  const fields = Object.entries(sort ?? {});
  if (fields.length === 0) return documents;
  for (const [field, direction] of fields) {
    if (direction !== 1 && direction !== -1) throw new CommandError('BadValue', `$sort key ordering must be 1 (for ascending) or -1 (for descending); field ${field}`);
  }
  const keyed = documents.map((document, position) => ({
    position,
    ...Object.fromEntries(fields.map(([field, direction], i) => [`k${i}`, sortKey(document, field, direction as 1 | -1)])),
  }));
  const order = Object.fromEntries(fields.map(([, direction], i) => [`k${i}`, direction])) as Record<string, 1 | -1>;
  return new Query({}).find<Document & { position: number }>(keyed).sort(order).all().map((row) => documents[row.position]!);
}

function sortKey(document: Document, field: string, direction: 1 | -1): unknown {
  const values = valuesAtPath(document, field).flatMap((value) => (Array.isArray(value) ? value : [value]));
  if (values.length === 0) return null;
  return values.reduce((best, value) => (compare(value, best) * direction < 0 ? value : best));
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
      applyUpdateOperators(next, withoutIdKept(update, current._id), Array.isArray(arrayFilters) ? (arrayFilters as Document[]) : undefined, isDocument(filter) ? filter : undefined, {
        cloneMode: 'deep',
        queryOptions: { scriptEnabled: false },
      });
    } catch (error) {
      const message = (error as Error).message;
      if (message.includes("immutable field '_id'")) throw immutableIdError();
      throw new CommandError('BadValue', `update failed: ${message}`);
    }
  }
  if (keyOf(next._id) !== keyOf(current._id)) throw immutableIdError();
  return next;
}

function immutableIdError(): CommandError {
  return new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
}

/** `$set: { _id: <its current value> }` is allowed by MongoDB (mingo refuses any `_id` assignment): dropped here. */
function withoutIdKept(update: Document, currentId: unknown): Document {
  const set = update.$set;
  if (!isDocument(set) || !('_id' in set) || keyOf(set._id) !== keyOf(currentId)) return update;
  const { _id, ...rest } = set;
  return { ...update, $set: rest };
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
  if (_id !== undefined && keyOf(_id) !== keyOf(currentId)) throw immutableIdError();
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
