/**
 * Filters that name documents by `_id` only: `{ _id: "a" }`, `{ _id: { $eq: "a" } }` or
 * `{ _id: { $in: ["a", "b"] } }`, the lookups by id that most requests make (`getT(id:)`, a stored
 * relation's children). Since a stored `_id` is always a string and unique, such a filter matches exactly
 * the documents whose `_id` is one of those strings: they are read by id, with no access plan, no
 * candidate scan and no query compiled.
 */
import type { Filter, SortSpec, StoredDocument } from '../port.js';
import type { CollectionView } from './collection-view.js';
import { isPlainObject } from './json-values.js';
import { sortDocuments } from './sort-order.js';

/** The ids a filter names when it is a primary-key filter (see above); undefined for any other filter. */
export function primaryKeyLiterals(filter: Filter): string[] | undefined {
  if (!isPlainObject(filter)) return undefined;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return undefined;
  const condition = filter._id;
  if (typeof condition === 'string') return [condition];
  if (!isPlainObject(condition)) return undefined;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return undefined;
  if (operators[0] === '$eq' && typeof condition.$eq === 'string') return [condition.$eq];
  const list = condition.$in;
  if (operators[0] === '$in' && Array.isArray(list) && list.every((id) => typeof id === 'string')) return list as string[];
  return undefined;
}

/**
 * The page `find` answers for a primary-key filter, read by id; undefined when the filter is not one, or
 * when the answer's order would depend on natural order (several ids and a sort that can tie, or no sort),
 * which only a scan of the candidates in natural order gives. Shared references: the caller copies them.
 */
export function pageByIds(view: CollectionView, filter: Filter, sort: SortSpec | undefined, skip: number, limit: number): StoredDocument[] | undefined {
  const ids = primaryKeyLiterals(filter);
  if (!ids) return undefined;
  const distinct = ids.length <= 1 ? ids : [...new Set(ids)];
  // `_id` among the sort keys makes the order total: no two documents tie, whatever order they come in.
  if (distinct.length > 1 && !(sort && '_id' in sort)) return undefined;
  const found: StoredDocument[] = [];
  for (const id of distinct) {
    const document = view.get(id);
    if (document) found.push(document);
  }
  const ordered = sort && found.length > 1 ? sortDocuments(found, sort) : found;
  return skip === 0 && (limit === 0 || limit >= ordered.length) ? ordered : ordered.slice(skip, limit > 0 ? skip + limit : undefined);
}
