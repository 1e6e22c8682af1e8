/**
 * A sorted page read off natural order, when the index on the first sort field follows it
 * (CollectionIndex.followsNaturalOrder: documents created in the order of the field, as with a creation
 * time). The matches, taken in position order, are then in that field's order already: a descending page
 * comes from the last matches, an ascending one from the first. Whole groups of an equal first key are
 * taken until the page is full, and only they are sorted by the whole sort, so the page costs about its
 * size instead of a top-k pass over every match. PostgreSQL keeps the same fact as an index's correlation.
 */
import type { Filter, SortSpec, StoredDocument } from '../port.js';
import { planAccess } from './access-plan.js';
import { skipsDocuments } from './collection-index.js';
import type { CollectionState } from './collection-state.js';
import type { DocumentMatcher } from './find-documents.js';
import { candidatePositions } from './run-access-plan.js';
import { NO_DEADLINE, type ScanDeadline } from './scan-deadline.js';
import { compareValues, sortDocuments } from './sort-order.js';

/**
 * Positions read beyond the page before it gives up (a residual filter that rarely matches, a long run of
 * deleted documents): the reader then takes another path, which may give the event loop turns as it scans.
 */
const STEPS_BEYOND_PAGE = 1024;

/**
 * The first `keep` documents matching `filter` in `sort` order, read in natural order as described above;
 * undefined when the first sort field's index does not follow natural order or the page gave up.
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
  if (!first || first[0] === '_id' || keep <= 0) return undefined;
  const [field, direction] = first;
  const index = state.lookupIndexFor(field);
  if (!index || skipsDocuments(index.spec) || !index.followsNaturalOrder) return undefined;
  const plan = planAccess(filter, undefined, state.indexSpecs());
  const positions = candidatePositions(plan, state);
  const count = positions ? positions.length : state.positionLimit;
  const positionAt = positions ? (i: number) => positions[i]! : (i: number) => i;
  const matcher = compile(plan.residual);
  const taken: StoredDocument[] = [];
  let boundary: unknown;
  for (let step = 0; step < count; step++) {
    if (step >= STEPS_BEYOND_PAGE + keep) return undefined;
    // A deep page (a large offset) reads many documents: it still stops at the deadline. It never pauses,
    // as the positions it reads are the current state's.
    deadline.tick();
    const document = state.documentAt(positionAt(direction === 1 ? step : count - 1 - step));
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
