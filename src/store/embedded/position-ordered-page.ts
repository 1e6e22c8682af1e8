/**
 * A sorted page read off natural order, when the index on the first sort field follows it
 * (CollectionIndex.followsNaturalOrder: documents created in the order of the field, as with a creation
 * time). The matches, taken in position order, are then in that field's order already: a descending page
 * comes from the last matches, an ascending one from the first. Whole groups of an equal first key are
 * taken until the page is full, and only they are sorted by the whole sort, so the page costs about its
 * size instead of a top-k pass over every match. PostgreSQL keeps the same fact as an index's correlation.
 * A sort by `_id` (the default order of a query) is read the same way while ids were created ascending.
 * The index lookups are not intersected first either: the positions of the smallest are read from the end
 * (or start) and tested against the others as they come (lookup-membership.ts), so a page of a rare term
 * and a common flag reads about keep ÷ (the flag's share) positions, however long the term's posting.
 */
import type { Filter, SortSpec, StoredDocument } from '../port.js';
import { planAccess } from './access-plan.js';
import { skipsDocuments } from './collection-index.js';
import type { CollectionState } from './collection-state.js';
import type { DocumentMatcher } from './find-documents.js';
import { lookupWalk } from './lookup-membership.js';
import { NO_DEADLINE, type ScanDeadline } from './scan-deadline.js';
import { compareValues, sortDocuments } from './sort-order.js';

/**
 * Candidates read beyond the page before it gives up (a residual filter that rarely matches, a long run of
 * deleted documents): the reader then takes another path, which may give the event loop turns as it scans.
 */
const STEPS_BEYOND_PAGE = 1024;

/**
 * The first `keep` documents matching `filter` in `sort` order, read in natural order as described above;
 * undefined when the first sort field does not follow natural order or the page gave up.
 * `compile` makes the matcher of the filter's part the indexes do not answer; `deadline` counts the reads.
 */
export function pageInPositionOrder(
  state: CollectionState,
  filter: Filter,
  sort: SortSpec,
  keep: number,
  compile: (residual: Filter) => DocumentMatcher,
  deadline: ScanDeadline = NO_DEADLINE,
): StoredDocument[] | undefined {
  const [first] = Object.entries(sort);
  if (!first || keep <= 0) return undefined;
  const [field, direction] = first;
  if (!followsNaturalOrder(state, field)) return undefined;
  const plan = planAccess(filter, undefined, state.indexSpecs());
  // The smallest lookup's positions, each tested against the other lookups only when reached: a page
  // stops after a few matches, so intersecting the whole postings first would cost more than the page.
  const walk = lookupWalk(plan, state);
  const count = walk ? walk.driver.length : state.positionLimit;
  const positionAt = walk ? (i: number) => walk.driver[i]! : (i: number) => i;
  const inLookups = walk ? walk.inOthers : () => true;
  const matcher = compile(plan.residual);
  const taken: StoredDocument[] = [];
  let boundary: unknown;
  let read = 0;
  for (let step = 0; step < count; step++) {
    // A deep page (a large offset) reads many documents: it still stops at the deadline. It never pauses,
    // as the positions it reads are the current state's.
    deadline.tick();
    const position = positionAt(direction === 1 ? step : count - 1 - step);
    // Positions the other lookups lack cost one membership test each, no more than intersecting would.
    if (!inLookups(position)) continue;
    if (read++ >= STEPS_BEYOND_PAGE + keep) return undefined;
    const document = state.documentAt(position);
    if (document === undefined || !matcher.test(document)) continue;
    // The page is full once the group of the first key that filled it is complete.
    if (taken.length >= keep && compareValues(document[field], boundary) !== 0) break;
    taken.push(document);
    if (taken.length === keep) boundary = document[field];
  }
  // sortDocuments keeps natural order among equals: hand it the documents in natural order.
  if (direction === -1) taken.reverse();
  return sortDocuments(taken, sort, keep).slice(0, keep);
}

/** Whether every document's `field` never decreases along natural order (each holding one value). */
function followsNaturalOrder(state: CollectionState, field: string): boolean {
  // Ids created in ascending order (ObjectIds) put natural order in `_id` order; an `_id` has no ties.
  if (field === '_id') return state.naturalOrderIsIdOrder;
  const index = state.lookupIndexFor(field);
  return index !== undefined && !skipsDocuments(index.spec) && index.followsNaturalOrder;
}
