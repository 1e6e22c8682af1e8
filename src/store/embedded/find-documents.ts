/** `find` and `count` over a collection view, evaluated by mingo on the index-narrowed candidates. */
import { Query } from 'mingo';
import type { Filter, FindOptions, StoredDocument } from '../port.js';
import type { CollectionView } from './collection-view.js';
import { cloneJson, isPlainObject } from './json-values.js';
import { withLinearRegex } from './linear-regex.js';
import { projectDocument } from './projection.js';
import { NO_DEADLINE, type ScanDeadline } from './scan-deadline.js';
import { sortDocuments } from './sort-order.js';

export interface DocumentMatcher {
  test(document: StoredDocument): boolean;
}

/** Compiles a MongoDB query document; a malformed one fails here with the collection named. */
export function compileFilter(collection: string, filter: Filter): DocumentMatcher {
  if (!isPlainObject(filter)) throw new Error(`invalid filter for collection ${collection}: expected an object`);
  if (Object.keys(filter).length === 0) return { test: () => true };
  const byId = primaryKeyMatcher(filter);
  if (byId) return byId;
  try {
    const linear = withLinearRegex(filter);
    return new Query(linear.value, { scriptEnabled: false, ...linear.options });
  } catch (error) {
    throw new Error(`invalid filter for collection ${collection}: ${(error as Error).message}`);
  }
}

/**
 * `{ _id: "a" }`, `{ _id: { $eq: "a" } }` or `{ _id: { $in: ["a", "b"] } }` (the lookups by id that most
 * requests make): since a stored `_id` is always a string, such a filter matches exactly the documents
 * whose `_id` is one of those strings. Tested that way, it skips compiling a mingo query, which costs
 * tens of microseconds per call (mingo copies its whole operator table for every query).
 */
function primaryKeyMatcher(filter: Filter): DocumentMatcher | undefined {
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return undefined;
  const ids = primaryKeyLiterals(filter._id);
  if (!ids) return undefined;
  const wanted = new Set(ids);
  return { test: (document) => wanted.has(document._id) };
}

function primaryKeyLiterals(condition: unknown): string[] | undefined {
  if (typeof condition === 'string') return [condition];
  if (!isPlainObject(condition)) return undefined;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return undefined;
  if (operators[0] === '$eq' && typeof condition.$eq === 'string') return [condition.$eq];
  const list = condition.$in;
  if (operators[0] === '$in' && Array.isArray(list) && list.every((id) => typeof id === 'string')) return list as string[];
  return undefined;
}

/**
 * The candidates of `filter` (see CollectionView.select) and the matcher of what they still have to meet.
 * The candidates are a snapshot: a write replaces documents and the arrays that list them, never changes
 * them, so a read may pause between slices of its scan and still see one state.
 */
function candidatesOf(view: CollectionView, collection: string, filter: Filter): { candidates: readonly StoredDocument[]; matcher: DocumentMatcher } {
  if (!isPlainObject(filter)) throw new Error(`invalid filter for collection ${collection}: expected an object`);
  // What the indexes answered are literal conditions, which always compile: a malformed filter still fails.
  const { documents, residual } = view.select(filter);
  return { candidates: documents, matcher: compileFilter(collection, residual) };
}

/** The stored documents matching `filter`, in natural order (shared references: do not hand out). Never pauses. */
export function matchingDocuments(view: CollectionView, collection: string, filter: Filter, deadline: ScanDeadline = NO_DEADLINE): StoredDocument[] {
  const { candidates, matcher } = candidatesOf(view, collection, filter);
  return candidates.filter((document) => {
    deadline.tick();
    return matcher.test(document);
  });
}

/**
 * Calls `visit` with each candidate that matches, in order, until it answers false; counts every
 * candidate tested against `pace`, and gives the event loop a turn when the pace says so.
 */
async function eachMatch(
  candidates: readonly StoredDocument[],
  matcher: DocumentMatcher,
  pace: ScanDeadline,
  visit: (document: StoredDocument) => boolean,
): Promise<void> {
  for (const document of candidates) {
    if (pace.tick()) await pace.turn();
    if (matcher.test(document) && !visit(document)) return;
  }
}

/** Like matchingDocuments, for a read that may pause between slices of its scan. */
export async function readMatchingDocuments(view: CollectionView, collection: string, filter: Filter, pace: ScanDeadline): Promise<StoredDocument[]> {
  const { candidates, matcher } = candidatesOf(view, collection, filter);
  const matches: StoredDocument[] = [];
  await eachMatch(candidates, matcher, pace, (document) => matches.push(document) > 0);
  return matches;
}

export async function countDocuments(view: CollectionView, collection: string, filter: Filter, pace: ScanDeadline = NO_DEADLINE): Promise<number> {
  if (isPlainObject(filter) && Object.keys(filter).length === 0) return view.size();
  const { candidates, matcher } = candidatesOf(view, collection, filter);
  let count = 0;
  await eachMatch(candidates, matcher, pace, () => ++count > 0);
  return count;
}

/** Copies of the matching documents after sort, skip, limit and projection. */
export async function findDocuments(
  view: CollectionView,
  collection: string,
  filter: Filter,
  options: FindOptions = {},
  pace: ScanDeadline = NO_DEADLINE,
): Promise<StoredDocument[]> {
  const { skip, limit } = checkFindOptions(collection, options);
  const { candidates, matcher } = candidatesOf(view, collection, filter);
  let page: StoredDocument[];
  if (options.sort && Object.keys(options.sort).length > 0) {
    const matches: StoredDocument[] = [];
    await eachMatch(candidates, matcher, pace, (document) => matches.push(document) > 0);
    const sorted = sortDocuments(matches, options.sort, limit > 0 ? skip + limit : undefined);
    page = sorted.slice(skip, limit > 0 ? skip + limit : undefined);
  } else {
    page = await firstMatches(candidates, matcher, pace, skip, limit);
  }
  const projected = Object.keys(options.projection ?? {});
  if (projected.length > 0) page = page.map((document) => projectDocument(document, projected));
  return page.map(cloneJson);
}

/** Without a sort, stop scanning as soon as the page is full. */
async function firstMatches(candidates: readonly StoredDocument[], matcher: DocumentMatcher, pace: ScanDeadline, skip: number, limit: number): Promise<StoredDocument[]> {
  const page: StoredDocument[] = [];
  let toSkip = skip;
  await eachMatch(candidates, matcher, pace, (document) => {
    if (toSkip > 0) {
      toSkip--;
      return true;
    }
    page.push(document);
    return limit === 0 || page.length < limit;
  });
  return page;
}

function checkFindOptions(collection: string, options: FindOptions): { skip: number; limit: number } {
  const skip = options.skip ?? 0;
  const limit = options.limit ?? 0;
  if (!Number.isInteger(skip) || skip < 0) {
    throw new Error(`invalid find options for collection ${collection}: skip must be a non-negative integer, got ${skip}`);
  }
  if (!Number.isInteger(limit) || limit < 0) {
    throw new Error(`invalid find options for collection ${collection}: limit must be a non-negative integer, got ${limit}`);
  }
  for (const [field, direction] of Object.entries(options.sort ?? {})) {
    if (direction !== 1 && direction !== -1) {
      throw new Error(`invalid sort for collection ${collection}: ${field} must be 1 or -1, got ${JSON.stringify(direction)}`);
    }
  }
  for (const [field, include] of Object.entries(options.projection ?? {})) {
    if (include !== 1) {
      throw new Error(`invalid projection for collection ${collection}: only inclusion (${field}: 1) is supported`);
    }
  }
  return { skip, limit };
}
