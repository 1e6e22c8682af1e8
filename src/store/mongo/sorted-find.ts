/**
 * `find` with Dgraph's order on MongoDB: a sort with an ascending field (other than `_id`) would put the
 * documents without a value first, so such a find runs as an aggregation that sorts them last
 * (query/nulls-last.ts); every other find stays a plain `find`, which can walk an index for its sort.
 */
import { nullsLastPage, sortsNullsLastNatively } from '../../query/nulls-last.js';
import type { Filter, FindOptions, Pipeline } from '../port.js';

/** The aggregation that answers `find(filter, options)` with nulls last, or undefined when a plain find does. */
export function nullsLastFindPipeline(filter: Filter, options: FindOptions): Pipeline | undefined {
  const { sort } = options;
  if (!sort || Object.keys(sort).length === 0 || sortsNullsLastNatively(sort)) return undefined;
  const pipeline: Pipeline = [{ $match: filter }, ...nullsLastPage(sort, options.skip, options.limit)];
  if (options.projection && Object.keys(options.projection).length > 0) pipeline.push({ $project: options.projection });
  return pipeline;
}
