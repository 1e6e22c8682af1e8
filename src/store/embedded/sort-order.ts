/**
 * MongoDB's sort order for JSON values, used by `find` (mingo's $sort groups documents by every sort key,
 * which is slow on large collections). Types order as null (and missing) < numbers < strings < objects
 * < arrays < booleans; an array sorts by its smallest element ascending and its largest descending.
 * A sort puts null (and missing) keys last in both directions, as Dgraph orders results (the Store
 * port's contract). Equal keys keep natural order (the sort is stable).
 */
import type { SortSpec, StoredDocument } from '../port.js';
import { MISSING, valuesAtPath } from './index-keys.js';

const TYPE_RANK = { null: 1, number: 2, string: 3, object: 4, array: 5, boolean: 6 } as const;

function typeRank(value: unknown): number {
  if (value === null || value === undefined) return TYPE_RANK.null;
  if (Array.isArray(value)) return TYPE_RANK.array;
  switch (typeof value) {
    case 'number':
      return TYPE_RANK.number;
    case 'string':
      return TYPE_RANK.string;
    case 'boolean':
      return TYPE_RANK.boolean;
    default:
      return TYPE_RANK.object;
  }
}

export function compareValues(a: unknown, b: unknown): number {
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return rankA - rankB;
  switch (rankA) {
    case TYPE_RANK.null:
      return 0;
    case TYPE_RANK.number:
    case TYPE_RANK.string:
    case TYPE_RANK.boolean:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case TYPE_RANK.array:
      return compareSequences(a as unknown[], b as unknown[]);
    default:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>);
  }
}

function compareSequences(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareValues(a[i], b[i]);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** Field by field: first the names, then the values, as MongoDB compares embedded documents. */
function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  for (let i = 0; i < Math.min(keysA.length, keysB.length); i++) {
    const name = keysA[i]! < keysB[i]! ? -1 : keysA[i]! > keysB[i]! ? 1 : 0;
    if (name !== 0) return name;
    const value = compareValues(a[keysA[i]!], b[keysB[i]!]);
    if (value !== 0) return value;
  }
  return keysA.length - keysB.length;
}

const isNullKey = (value: unknown): boolean => value === null || value === undefined;

/** Two sort keys in the order of a sort field with `direction`: nulls after every value either way. */
export function compareSortKeys(a: unknown, b: unknown, direction: 1 | -1): number {
  const aNull = isNullKey(a);
  if (aNull !== isNullKey(b)) return aNull ? 1 : -1;
  return direction === 1 ? compareValues(a, b) : -compareValues(a, b);
}

/** The value a document sorts by on `path`: with several candidates (arrays), the extreme one for the direction. */
function sortKey(document: StoredDocument, path: string, direction: 1 | -1): unknown {
  if (!path.includes('.')) {
    // The common case, a top-level field holding a scalar, without collecting values into an array.
    const value = document[path];
    if (!Array.isArray(value)) return value === undefined ? null : value;
  }
  const values = valuesAtPath(document, path);
  if (values.length === 1 && !Array.isArray(values[0])) return values[0] === MISSING ? null : values[0];
  const candidates: unknown[] = [];
  for (const value of values) {
    if (value === MISSING) candidates.push(null);
    else if (Array.isArray(value)) {
      if (value.length === 0) candidates.push(null);
      else candidates.push(...value);
    } else candidates.push(value);
  }
  let best = candidates[0];
  for (let i = 1; i < candidates.length; i++) {
    const order = compareValues(candidates[i], best);
    if (direction === 1 ? order < 0 : order > 0) best = candidates[i];
  }
  return best;
}

/**
 * The documents in sort order; with `keep`, only the first `keep` of them (a bounded insertion buffer
 * then replaces the full sort, which matters for "top 10 of 100,000").
 */
export function sortDocuments(documents: readonly StoredDocument[], spec: SortSpec, keep?: number): StoredDocument[] {
  if (documents.length <= 1) return documents.slice(0, keep);
  const fields = Object.entries(spec);
  type Keyed = { document: StoredDocument; keys: unknown[] };
  const compare = (a: Keyed, b: Keyed): number => {
    for (let i = 0; i < fields.length; i++) {
      const order = compareSortKeys(a.keys[i], b.keys[i], fields[i]![1]);
      if (order !== 0) return order;
    }
    return 0;
  };
  const keyOf = (document: StoredDocument): Keyed => ({ document, keys: fields.map(([path, direction]) => sortKey(document, path, direction)) });

  if (keep !== undefined && keep * 8 < documents.length) {
    const [firstPath, firstDirection] = fields[0]!;
    // Read in the direction of the first sort field: documents are often stored in the order of a
    // time-like field (creation), so the best ones come first and the rest lose to the worst kept one at
    // once, instead of every document entering the buffer (a newest-first page read oldest first).
    const backwards = firstDirection === -1;
    const best: Keyed[] = [];
    for (let i = backwards ? documents.length - 1 : 0; backwards ? i >= 0 : i < documents.length; i += backwards ? -1 : 1) {
      const document = documents[i]!;
      // Most documents lose to the worst kept one on the first field alone: skip building their other keys.
      if (best.length === keep) {
        if (compareSortKeys(sortKey(document, firstPath, firstDirection), best[keep - 1]!.keys[0], firstDirection) > 0) continue;
      }
      const keyed = keyOf(document);
      // Equal documents keep natural order: read forwards, a newcomer goes after its equals (and loses a
      // tie with the worst kept one); read backwards, before them (and wins it).
      if (best.length === keep) {
        const order = compare(keyed, best[keep - 1]!);
        if (order > 0 || (order === 0 && !backwards)) continue;
      }
      let low = 0;
      let high = best.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        const order = compare(keyed, best[middle]!);
        if (order < 0 || (order === 0 && backwards)) high = middle;
        else low = middle + 1;
      }
      best.splice(low, 0, keyed);
      if (best.length > keep) best.pop();
    }
    return best.map((entry) => entry.document);
  }
  const keyed = documents.map(keyOf);
  keyed.sort(compare);
  return keyed.map((entry) => entry.document);
}
