/**
 * `findPerKey` on MongoDB: one database-level aggregation. `$documents` turns the keys into input rows and
 * a concise correlated `$lookup` (localField/foreignField plus a pipeline, MongoDB 5.0+; `$documents`
 * needs 5.1+) finds each key's documents through the index on `field`, then sorts, skips and limits them
 * inside the sub-pipeline, so the server stops at each key's page. MongoDB's `$lookup` performance notes
 * recommend exactly this shape: the equality on an indexed foreignField, the rest in the sub-pipeline.
 * (`$group` + `$slice` or `$setWindowFields` would read every match of every key before trimming.)
 */
import { nullsLastPage } from '../../query/nulls-last.js';
import type { Filter, PerKeyPage, Pipeline, StoredDocument } from '../port.js';

/** The field of the input rows holding the key, and the one the page lands in. */
const KEY = 'key';
const PAGE = 'page';

export function perKeyPipeline(collection: string, field: string, keys: readonly string[], filter: Filter, page: PerKeyPage): Pipeline {
  const distinctKeys = [...new Set(keys)];
  const subPipeline: Pipeline = [];
  if (Object.keys(filter).length > 0) subPipeline.push({ $match: filter });
  if (page.sort && Object.keys(page.sort).length > 0) {
    // Nulls last in both directions, as `find` sorts (sorted-find.ts).
    subPipeline.push(...nullsLastPage(page.sort, page.skip, page.limit));
  } else {
    if (page.skip !== undefined && page.skip > 0) subPipeline.push({ $skip: page.skip });
    if (page.limit !== undefined && page.limit > 0) subPipeline.push({ $limit: page.limit });
  }
  // Last, so the sort and the filter still see every field; the server then sends only what was asked for.
  if (page.projection && Object.keys(page.projection).length > 0) subPipeline.push({ $project: page.projection });
  return [
    { $documents: distinctKeys.map((key) => ({ [KEY]: key })) },
    { $lookup: { from: collection, localField: KEY, foreignField: field, pipeline: subPipeline, as: PAGE } },
  ];
}

/** The rows of `perKeyPipeline` → each key's page (every key of `keys` present, [] when it found nothing). */
export function readPerKeyRows(rows: readonly Record<string, unknown>[], keys: readonly string[]): Map<string, StoredDocument[]> {
  const pages = new Map<string, StoredDocument[]>(keys.map((key) => [key, []]));
  for (const row of rows) {
    const documents = row[PAGE];
    if (typeof row[KEY] === 'string' && Array.isArray(documents)) pages.set(row[KEY], documents as StoredDocument[]);
  }
  return pages;
}
