import type { Filter } from '../store/port.js';

/** Building MongoDB query documents from parts, keeping them as flat as MongoDB allows. */

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

const isOperatorDocument = (value: unknown): value is Record<string, unknown> =>
  isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => key.startsWith('$'));

/** Matches no document: `_id` in nothing. A fresh object each time, since callers may extend it. */
export const matchNothing = (): Filter => ({ _id: { $in: [] } });

export const isMatchAll = (filter: Filter): boolean => Object.keys(filter).length === 0;

/**
 * All of `conditions`. Merged into one document when their paths differ, or when they test the same path
 * with different operators (`{ n: { $gte: 1 } }` + `{ n: { $lte: 5 } }` → `{ n: { $gte: 1, $lte: 5 } }`);
 * otherwise `$and`. Match-all parts (`{}`) drop out.
 */
export function allOf(conditions: Filter[]): Filter {
  const parts = conditions.filter((condition) => !isMatchAll(condition));
  if (parts.length === 0) return {};
  if (parts.length === 1) return parts[0];
  const merged: Filter = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (!(key in merged)) {
        merged[key] = value;
        continue;
      }
      const existing = merged[key];
      const mergeable = !key.startsWith('$') && isOperatorDocument(existing) && isOperatorDocument(value)
        && Object.keys(value).every((operator) => !(operator in existing));
      if (!mergeable) return { $and: parts };
      merged[key] = { ...existing, ...value };
    }
  }
  return merged;
}

/** Any of `conditions`; a single one stands alone, nested `$or`s are flattened, none matches nothing. */
export function anyOf(conditions: Filter[]): Filter {
  if (conditions.length === 0) return matchNothing();
  if (conditions.some(isMatchAll)) return {};
  const flat = conditions.flatMap((condition) => {
    const keys = Object.keys(condition);
    return keys.length === 1 && keys[0] === '$or' ? (condition.$or as Filter[]) : [condition];
  });
  return flat.length === 1 ? flat[0] : { $or: flat };
}

export function noneOf(condition: Filter): Filter {
  return isMatchAll(condition) ? matchNothing() : { $nor: [condition] };
}
