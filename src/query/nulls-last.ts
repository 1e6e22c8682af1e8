import type { Pipeline, SortSpec } from '../store/port.js';

/**
 * Dgraph returns objects without a value for the sort field last, whatever the direction. MongoDB sorts
 * null (and missing) before every value: last already when descending, first when ascending. So each
 * ascending field except `_id` (never null) gets a temporary key, 1 when the field is null or missing and
 * 0 otherwise, sorted ascending just before it. The keys start with `__`, like every temporary field, and
 * `$unset` removes them again.
 */

const nullKeyOf = (field: string): string => `__null_${field.replace(/\./g, '_')}`;

/** The ascending fields that need a null key. */
function ascendingNullable(sort: SortSpec): string[] {
  return Object.entries(sort).filter(([field, direction]) => direction === 1 && field !== '_id').map(([field]) => field);
}

/** Whether `sort` already puts nulls last under MongoDB's own order (no ascending field but `_id`). */
export function sortsNullsLastNatively(sort: SortSpec): boolean {
  return ascendingNullable(sort).length === 0;
}

/**
 * `{ $sort: sort }` with nulls last in every direction: `$addFields` of the null keys, the `$sort` with
 * each key before its field, then (`$unset`) the keys dropped. Stages to place where `$sort` would go;
 * `$skip`/`$limit` may follow before `dropNullKeys`, so callers get both halves.
 */
export function nullsLastSort(sort: SortSpec): { sortStages: Pipeline; dropStages: Pipeline } {
  const nullable = ascendingNullable(sort);
  if (nullable.length === 0) return { sortStages: [{ $sort: sort }], dropStages: [] };
  const keys: Record<string, unknown> = {};
  for (const field of nullable) keys[nullKeyOf(field)] = { $cond: [{ $eq: [{ $ifNull: [`$${field}`, null] }, null] }, 1, 0] };
  const spec: SortSpec = {};
  for (const [field, direction] of Object.entries(sort)) {
    if (direction === 1 && field !== '_id') spec[nullKeyOf(field)] = 1;
    spec[field] = direction;
  }
  return { sortStages: [{ $addFields: keys }, { $sort: spec }], dropStages: [{ $unset: nullable.map(nullKeyOf) }] };
}

/** `$sort` + `$skip` + `$limit` with nulls last, temporary keys dropped at the end. */
export function nullsLastPage(sort: SortSpec, skip: number | undefined, limit: number | undefined): Pipeline {
  const { sortStages, dropStages } = nullsLastSort(sort);
  const stages: Pipeline = [...sortStages];
  if (skip !== undefined && skip > 0) stages.push({ $skip: skip });
  if (limit !== undefined && limit > 0) stages.push({ $limit: limit });
  return [...stages, ...dropStages];
}
