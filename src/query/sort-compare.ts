import type { SortSpec } from '../store/port.js';

/**
 * MongoDB's order for the values this service stores (missing/null, numbers, strings, arrays, booleans),
 * so that JavaScript can order documents exactly as the store would.
 */
function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  if (Array.isArray(value)) return 4;
  if (typeof value === 'object') return 3;
  if (typeof value === 'boolean') return 5;
  return 6;
}

/** Two stored values in MongoDB's order. */
export function compareValues(a: unknown, b: unknown): number {
  const rankDifference = typeRank(a) - typeRank(b);
  if (rankDifference !== 0) return rankDifference;
  // Equal ranks: `b` has the type of `a`.
  if (typeof a === 'number') return a - (b as number);
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  if (typeof a === 'boolean') return Number(a) - Number(b);
  return 0;
}

const isNull = (value: unknown): boolean => value === undefined || value === null;

/**
 * Compares two documents by a sort spec; for `Array#sort`. A null or missing value comes after every
 * value in both directions, as Dgraph orders results (and as the stores sort, see nulls-last.ts).
 */
export function compareBySort(a: Record<string, unknown>, b: Record<string, unknown>, sort: SortSpec): number {
  for (const [field, direction] of Object.entries(sort)) {
    const aNull = isNull(a[field]);
    if (aNull !== isNull(b[field])) return aNull ? 1 : -1;
    const difference = compareValues(a[field], b[field]);
    if (difference !== 0) return difference * direction;
  }
  return 0;
}
