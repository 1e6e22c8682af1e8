/**
 * `findPerKey` on the embedded store. With an index on the field (or the field `_id`), each key's
 * candidates are that key's postings: a page per key costs the documents holding the key, never every
 * document of every key, and only the documents of the pages are copied. In the default order (by `_id`)
 * the postings are walked in that order and the walk stops once the page is full, so a key's page reads
 * about `skip + limit` documents. With a projection, only the projected fields of the pages are copied.
 * Without such an index, one pass over the candidates of `{ field: { $in: keys } }` deals the matches out
 * to their keys.
 */
import type { Filter, PerKeyPage, SortSpec, StoredDocument } from '../port.js';
import type { CollectionView, DocumentSequence } from './collection-view.js';
import { compileFilter, matchingDocuments, type DocumentMatcher } from './find-documents.js';
import { MISSING, valuesAtPath } from './index-keys.js';
import { cloneJson, isPlainObject } from './json-values.js';
import { projectedCopier } from './projection.js';
import { sortDocuments } from './sort-order.js';

interface CheckedPage {
  sort: SortSpec;
  skip: number;
  /** Undefined: no limit. */
  limit: number | undefined;
  /** The projected paths; empty: whole documents. */
  projected: string[];
}

export function findPerKey(
  view: CollectionView,
  collection: string,
  field: string,
  keys: readonly string[],
  filter: Filter,
  page: PerKeyPage,
): Map<string, StoredDocument[]> {
  const where = `findPerKey on collection ${collection}`;
  if (typeof field !== 'string' || field.length === 0 || field.startsWith('$')) throw new Error(`${where}: field must be a field path, got ${JSON.stringify(field)}`);
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) throw new Error(`${where}: keys must be an array of strings`);
  if (!isPlainObject(filter)) throw new Error(`invalid filter for collection ${collection}: expected an object`);
  const checked = checkPage(where, page);
  const matcher = compileFilter(collection, filter);
  const distinctKeys = [...new Set(keys)];
  const selected = new Map<string, StoredDocument[]>();
  const rest: string[] = [];
  for (const key of distinctKeys) {
    const holding = view.documentsHolding(field, key);
    const found = holding && pageOfPostings(holding, { field, key, matcher, page: checked, inIdOrder: view.naturalOrderIsIdOrder });
    if (found) selected.set(key, found);
    else rest.push(key);
  }
  if (rest.length > 0) {
    const candidates = view.canLookUp(field) ? candidatesByPostings(view, field, rest) : candidatesByScan(view, collection, field, rest);
    for (const key of rest) {
      const matches = (candidates.get(key) ?? []).filter((document) => holdsKey(document, field, key) && matcher.test(document));
      selected.set(key, pageOf(matches, checked));
    }
  }
  const copy = checked.projected.length === 0 ? cloneJson : projectedCopier(checked.projected);
  return new Map(distinctKeys.map((key) => [key, selected.get(key)!.map(copy)]));
}

interface PostingsQuery {
  field: string;
  key: string;
  matcher: DocumentMatcher;
  page: CheckedPage;
  /** Whether natural order is `_id` order, so that the postings come in `_id` order already. */
  inIdOrder: boolean;
}

/**
 * A key's page straight from its postings (`holding`, in natural order), when the sort needs no natural
 * order to break ties (it ends in `_id`, as every sort of the service does); undefined otherwise. Sorted by
 * `_id` alone, the first matches are read off in natural order when that is `_id` order; otherwise a bounded
 * buffer keeps the first matches by id, testing only documents that would enter it.
 */
function pageOfPostings(holding: DocumentSequence, query: PostingsQuery): StoredDocument[] | undefined {
  const { page } = query;
  const sortFields = Object.keys(page.sort);
  if (!sortFields.includes('_id')) return undefined;
  const matches = (document: StoredDocument | undefined): document is StoredDocument =>
    document !== undefined && holdsKey(document, query.field, query.key) && query.matcher.test(document);
  const direction = sortFields.length === 1 ? page.sort._id! : undefined;
  if (direction === undefined) {
    const found: StoredDocument[] = [];
    for (let i = 0; i < holding.length; i++) {
      const document = holding.at(i);
      if (matches(document)) found.push(document);
    }
    return pageOf(found, page);
  }
  const end = page.limit === undefined ? holding.length : page.skip + page.limit;
  const found = query.inIdOrder ? firstInOrder(holding, direction, end, matches) : firstById(holding, direction, end, matches);
  return found.slice(page.skip);
}

/** The first `count` documents passing `accept`, reading `documents` (already in `_id` order) forwards or backwards. */
function firstInOrder(documents: DocumentSequence, direction: 1 | -1, count: number, accept: (document: StoredDocument | undefined) => document is StoredDocument): StoredDocument[] {
  const found: StoredDocument[] = [];
  for (let i = direction === 1 ? 0 : documents.length - 1; found.length < count && i >= 0 && i < documents.length; i += direction) {
    const document = documents.at(i);
    if (accept(document)) found.push(document);
  }
  return found;
}

/** The first `count` documents passing `accept` in `_id` order (`direction`), without sorting all of them. */
function firstById(documents: DocumentSequence, direction: 1 | -1, count: number, accept: (document: StoredDocument | undefined) => document is StoredDocument): StoredDocument[] {
  const before = (a: StoredDocument, b: StoredDocument): boolean => (direction === 1 ? a._id < b._id : a._id > b._id);
  const best: StoredDocument[] = [];
  if (count <= 0) return best;
  for (let i = 0; i < documents.length; i++) {
    const document = documents.at(i);
    if (document === undefined || (best.length === count && !before(document, best[count - 1]!))) continue;
    if (!accept(document)) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (before(document, best[middle]!)) high = middle;
      else low = middle + 1;
    }
    best.splice(low, 0, document);
    if (best.length > count) best.pop();
  }
  return best;
}

/** Each key's documents from the index on `field` (or by `_id`), in natural order. */
function candidatesByPostings(view: CollectionView, field: string, keys: readonly string[]): Map<string, readonly StoredDocument[]> {
  return new Map(keys.map((key) => [key, view.byFieldValues(field, [key]) ?? []]));
}

/** Each key's documents out of one selection of all keys, in natural order. */
function candidatesByScan(view: CollectionView, collection: string, field: string, keys: readonly string[]): Map<string, StoredDocument[]> {
  const byKey = new Map<string, StoredDocument[]>(keys.map((key) => [key, []]));
  for (const document of matchingDocuments(view, collection, { [field]: { $in: [...keys] } })) {
    for (const key of keysHeld(document, field)) byKey.get(key)?.push(document);
  }
  return byKey;
}

/** The string values `field` holds in `document` (array elements one by one), each once. */
function keysHeld(document: StoredDocument, field: string): Set<string> {
  const held = new Set<string>();
  for (const value of valuesAtPath(document, field)) {
    if (typeof value === 'string') held.add(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') held.add(item);
  }
  return held;
}

/** MongoDB equality of `field` with a string: the value itself, or an element of an array value. */
function holdsKey(document: StoredDocument, field: string, key: string): boolean {
  for (const value of valuesAtPath(document, field)) {
    if (value === MISSING) continue;
    if (value === key || (Array.isArray(value) && value.includes(key))) return true;
  }
  return false;
}

function pageOf(matches: StoredDocument[], page: CheckedPage): StoredDocument[] {
  const end = page.limit === undefined ? undefined : page.skip + page.limit;
  const ordered = Object.keys(page.sort).length > 0 ? sortDocuments(matches, page.sort, end) : matches;
  return ordered.slice(page.skip, end);
}

function checkPage(where: string, page: PerKeyPage): CheckedPage {
  if (page === null || typeof page !== 'object') throw new Error(`${where}: the page must be an object like { sort, skip, limit }`);
  const skip = page.skip ?? 0;
  const limit = page.limit ?? 0;
  if (!Number.isInteger(skip) || skip < 0) throw new Error(`${where}: skip must be a non-negative integer, got ${skip}`);
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`${where}: limit must be a non-negative integer, got ${limit}`);
  const sort = page.sort ?? {};
  for (const [path, direction] of Object.entries(sort)) {
    if (direction !== 1 && direction !== -1) throw new Error(`${where}: sort ${path} must be 1 or -1, got ${JSON.stringify(direction)}`);
  }
  const projection = page.projection ?? {};
  if (!isPlainObject(projection)) throw new Error(`${where}: the projection must be an object like { field: 1 }`);
  for (const [path, include] of Object.entries(projection)) {
    if (include !== 1) throw new Error(`${where}: projection ${path} must be 1 (only inclusion is supported), got ${JSON.stringify(include)}`);
  }
  return { sort, skip, limit: limit === 0 ? undefined : limit, projected: Object.keys(projection) };
}
