/**
 * `find` and `count` over a collection view. When the view sees the collection's current state, an
 * AccessPlan picks the candidates (for a sorted page: read off natural order when the sort field follows
 * it, or a walk of an ordered index) and counts come from the
 * index postings when they answer the whole filter; the candidates are tested with the compiled
 * predicate, and mingo only where that has no verdict.
 */
import { Query } from 'mingo';
import type { Filter, FindOptions, SortSpec, StoredDocument } from '../port.js';
import { planAccess } from './access-plan.js';
import type { CollectionState } from './collection-state.js';
import type { CollectionView } from './collection-view.js';
import { compilePredicate } from './compiled-filter.js';
import { cloneJson, isPlainObject } from './json-values.js';
import { withLinearRegex } from './linear-regex.js';
import { equalityMembership } from './lookup-membership.js';
import { pageByIds, primaryKeyLiterals } from './primary-key-filter.js';
import { pageInPositionOrder } from './position-ordered-page.js';
import { projectedCopier } from './projection.js';
import { walkBudget, walkInOrder } from './ordered-walk.js';
import { countCandidates } from './run-access-plan.js';
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
  const predicate = compilePredicate(filter);
  if (!predicate) return mingoQuery(collection, filter);
  // mingo only for the documents the predicate has no verdict on (a dotted path through an array).
  let generic: DocumentMatcher | undefined;
  return {
    test: (document) => predicate(document) ?? (generic ??= mingoQuery(collection, filter)).test(document),
  };
}

function mingoQuery(collection: string, filter: Filter): DocumentMatcher {
  try {
    const linear = withLinearRegex(filter);
    return new Query(linear.value, { scriptEnabled: false, ...linear.options });
  } catch (error) {
    throw new Error(`invalid filter for collection ${collection}: ${(error as Error).message}`);
  }
}

/** A primary-key filter (see primary-key-filter.ts) tested without compiling a mingo query, which costs tens of microseconds. */
function primaryKeyMatcher(filter: Filter): DocumentMatcher | undefined {
  const ids = primaryKeyLiterals(filter);
  if (!ids) return undefined;
  const wanted = new Set(ids);
  return { test: (document) => wanted.has(document._id) };
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
  const state = view.current;
  if (state && isPlainObject(filter)) {
    const plan = planAccess(filter, undefined, state.indexSpecs());
    if (plan.lookups.length > 0 && Object.keys(plan.residual).length === 0) return countCandidates(plan, state);
  }
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
  const sort = options.sort && Object.keys(options.sort).length > 0 ? options.sort : undefined;
  const copy = options.projection && Object.keys(options.projection).length > 0 ? projectedCopier(Object.keys(options.projection)) : cloneJson;
  const byIds = pageByIds(view, filter, sort, skip, limit);
  if (byIds) return byIds.map(copy);
  const state = view.current;
  const walked = sort && limit > 0 && state && isPlainObject(filter)
    ? pageInPositionOrder(state, filter, sort, skip + limit, (residual) => compileFilter(collection, residual), pace) ?? pageByOrderedIndex(state, collection, filter, sort, skip + limit)
    : undefined;
  let page: StoredDocument[];
  if (walked) {
    page = walked.slice(skip, skip + limit);
  } else if (sort) {
    const matches = await readMatchingDocuments(view, collection, filter, pace);
    const sorted = sortDocuments(matches, sort, limit > 0 ? skip + limit : undefined);
    page = sorted.slice(skip, limit > 0 ? skip + limit : undefined);
  } else {
    const { candidates, matcher } = candidatesOf(view, collection, filter);
    page = await firstMatches(candidates, matcher, pace, skip, limit);
  }
  return page.map(copy);
}

/**
 * The first `keep` matches in `sort` order from a walk of the ordered index on the first sort field, when
 * the plan has one and walking is estimated cheaper than sorting the candidates; undefined otherwise, or
 * when the walk gave up.
 */
function pageByOrderedIndex(state: CollectionState, collection: string, filter: Filter, sort: SortSpec, keep: number): StoredDocument[] | undefined {
  if (!isPlainObject(filter)) return undefined;
  const plan = planAccess(filter, sort, state.indexSpecs(), keep);
  const budget = walkBudget(plan, state);
  if (budget === undefined) return undefined;
  // The walk meets positions in the walked order, not through the lookups: each is tested for membership
  // in the equality lookups' postings, and its document against the rest of the filter.
  const { inLookups, remaining } = equalityMembership(plan, filter, state);
  const matcher = compileFilter(collection, remaining);
  return walkInOrder(plan, state, { admits: inLookups, test: (document) => matcher.test(document) }, sort, budget);
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
