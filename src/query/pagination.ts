import { QueryArgumentError } from './errors.js';

/** Documented defaults: a list without `first` returns at most DEFAULT_PAGE_SIZE objects. */
export const DEFAULT_PAGE_SIZE = 1000;
/** Documented defaults: `first` above MAX_PAGE_SIZE is refused. */
export const MAX_PAGE_SIZE = 10000;

export interface PageLimits {
  defaultPageSize: number;
  maxPageSize: number;
}

export interface PageArgs {
  first?: number | null;
  offset?: number | null;
}

/** `limit` is never 0 by accident: `first: 0` gives 0, meaning an empty page (MongoDB reads limit 0 as "no limit", so check it). */
export interface Page {
  skip: number;
  limit: number;
}

function count(name: string, value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new QueryArgumentError(`${name} must be an integer, got ${JSON.stringify(value)}`);
  if (value < 0) throw new QueryArgumentError(`${name} must not be negative, got ${value}`);
  return value;
}

/** `{ first, offset }` → `{ skip, limit }`, with the default page size when `first` is not given. */
export function compilePage(args: PageArgs, limits: Partial<PageLimits> = {}): Page {
  const maxPageSize = limits.maxPageSize ?? MAX_PAGE_SIZE;
  const defaultPageSize = Math.min(limits.defaultPageSize ?? DEFAULT_PAGE_SIZE, maxPageSize);
  const first = count('first', args.first);
  const offset = count('offset', args.offset);
  if (first !== undefined && first > maxPageSize) throw new QueryArgumentError(`first must be at most ${maxPageSize}, got ${first}`);
  return { skip: offset ?? 0, limit: first ?? defaultPageSize };
}
