/**
 * `find` with Dgraph's order (objects without a value for a sort field come last) on MongoDB, which sorts
 * null and missing values before every other value ("Comparison/Sort Order" in the MongoDB manual: a
 * missing field sorts as null, and null sorts right after MinKey). Descending, that is already last.
 *
 * Ascending on one field (then fields that sort nulls last natively), the find runs as two plain finds
 * instead of an aggregation with a computed key, because a computed sort key can never come from an index:
 * first the documents with a value (`{ field: { $ne: null } }`, an index range scan that MongoDB can also
 * use for the sort), then, only when that part did not fill the page, the documents without one
 * (`{ field: null }`, which matches null and missing) in the order of the remaining sort fields, with the
 * skip carried over. Any other sort with an ascending field runs as the aggregation of query/nulls-last.ts.
 */
import { nullsLastPage, sortsNullsLastNatively } from '../../query/nulls-last.js';
import type { Filter, FindOptions, Pipeline, SortSpec } from '../port.js';

/** One plain `find`, as the driver takes it. */
export interface FindCommand {
  filter: Filter;
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Record<string, 1>;
}

/** How `find(filter, options)` runs on MongoDB. */
export type OrderedFindPlan =
  | { kind: 'find'; command: FindCommand }
  /** `withValue` holds the whole skip and limit; `withoutValue` gets what remains of them (runValueSplit). */
  | { kind: 'split'; withValue: FindCommand; withoutValue: FindCommand }
  | { kind: 'aggregate'; pipeline: Pipeline };

export function orderedFindPlan(filter: Filter, options: FindOptions): OrderedFindPlan {
  const { sort } = options;
  if (!sort || Object.keys(sort).length === 0 || sortsNullsLastNatively(sort)) {
    // Passed on as given: MongoDB reads skip 0 and limit 0 as none, like the embedded store.
    const { skip, limit } = options;
    return { kind: 'find', command: withProjection({ filter, ...(sort && { sort }), ...(skip !== undefined && { skip }), ...(limit !== undefined && { limit }) }, options) };
  }
  const [[first, direction], ...rest] = Object.entries(sort);
  const restSort: SortSpec = Object.fromEntries(rest);
  if (direction === 1 && first !== '_id' && sortsNullsLastNatively(restSort)) {
    return {
      kind: 'split',
      withValue: withWindow({ filter: and(filter, { [first]: { $ne: null } }), sort }, options),
      withoutValue: withProjection({ filter: and(filter, { [first]: null }), sort: restSort }, options),
    };
  }
  const pipeline: Pipeline = [{ $match: filter }, ...nullsLastPage(sort, options.skip, options.limit)];
  if (hasProjection(options)) pipeline.push({ $project: options.projection });
  return { kind: 'aggregate', pipeline };
}

/** What runs one part of a split: a find, and a count for when the skip passes every document with a value. */
export interface SplitPartRunner<T> {
  find(command: FindCommand): Promise<T[]>;
  count(filter: Filter): Promise<number>;
}

/**
 * The documents of a `split` plan: the page of those with a value, then, while the page has room, those
 * without. A limit of 0 or none means no limit, as in MongoDB. The skip left for the second part is the
 * skip minus the number of documents with a value; it is counted only when the first part came back empty
 * with a skip (otherwise it is known: a non-empty short first part means they are all behind us).
 */
export async function runValueSplit<T>(plan: { withValue: FindCommand; withoutValue: FindCommand }, run: SplitPartRunner<T>): Promise<T[]> {
  const { withValue, withoutValue } = plan;
  const skip = withValue.skip ?? 0;
  const limit = withValue.limit !== undefined && withValue.limit > 0 ? withValue.limit : undefined;
  const found = await run.find(withValue);
  if (limit !== undefined && found.length >= limit) return found;
  const skipLeft = found.length > 0 || skip === 0 ? 0 : Math.max(0, skip - (await run.count(withValue.filter)));
  const limitLeft = limit === undefined ? undefined : limit - found.length;
  const rest = await run.find(withWindow(withoutValue, { skip: skipLeft, limit: limitLeft }));
  return found.length === 0 ? rest : [...found, ...rest];
}

function and(filter: Filter, condition: Filter): Filter {
  return Object.keys(filter).length === 0 ? condition : { $and: [filter, condition] };
}

function hasProjection(options: Pick<FindOptions, 'projection'>): options is { projection: Record<string, 1> } {
  return options.projection !== undefined && Object.keys(options.projection).length > 0;
}

function withProjection(command: FindCommand, options: Pick<FindOptions, 'projection'>): FindCommand {
  return hasProjection(options) ? { ...command, projection: options.projection } : command;
}

/** `command` with the window of `options` (skip 0 and limit 0 or none left out) and its projection. */
function withWindow(command: FindCommand, options: Pick<FindOptions, 'skip' | 'limit' | 'projection'>): FindCommand {
  const windowed: FindCommand = { ...withProjection(command, options) };
  if (options.skip !== undefined && options.skip > 0) windowed.skip = options.skip;
  if (options.limit !== undefined && options.limit > 0) windowed.limit = options.limit;
  return windowed;
}
