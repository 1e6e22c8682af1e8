/**
 * Index keys: what a document contributes to an index, encoded as collision-free strings so a plain Map
 * can serve as a hash index. Arrays contribute one key per element (MongoDB "multikey" indexes).
 */

/** Marks a path that is absent from a document. */
export const MISSING = Symbol('missing');
type FieldValue = unknown;

/** Every value found at a dotted path, descending into arrays the way MongoDB queries do. */
export function valuesAtPath(document: unknown, path: string): FieldValue[] {
  if (!path.includes('.')) {
    const value = document !== null && typeof document === 'object' && !Array.isArray(document)
      ? (document as Record<string, unknown>)[path]
      : undefined;
    if (!Array.isArray(document)) return [value === undefined ? MISSING : value];
  }
  const found: FieldValue[] = [];
  collect(document, path.split('.'), 0, found);
  if (found.length === 0) found.push(MISSING);
  return found;
}

function collect(current: unknown, segments: string[], depth: number, found: FieldValue[]): void {
  if (depth === segments.length) {
    found.push(current);
    return;
  }
  if (Array.isArray(current)) {
    const segment = segments[depth]!;
    if (/^\d+$/.test(segment) && Number(segment) < current.length) {
      collect(current[Number(segment)], segments, depth + 1, found);
      return;
    }
    for (const item of current) {
      if (item !== null && typeof item === 'object' && !Array.isArray(item)) collect(item, segments, depth, found);
    }
    return;
  }
  if (current === null || typeof current !== 'object') {
    found.push(MISSING);
    return;
  }
  const next = (current as Record<string, unknown>)[segments[depth]!];
  if (next === undefined) {
    found.push(MISSING);
    return;
  }
  collect(next, segments, depth + 1, found);
}

/** The key of one scalar (or embedded document) value. */
export function encodeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `s:${value}`;
    case 'number':
      return `n:${String(value)}`;
    case 'boolean':
      return value ? 'b:1' : 'b:0';
    default:
      if (value === null || value === undefined) return 'null';
      return `o:${JSON.stringify(value)}`;
  }
}

/** The value behind a key of `encodeValue` (`null` for the null key, which also stands for absence). */
export function decodeKey(key: string): unknown {
  if (key === 'null') return null;
  switch (key[0]) {
    case 's':
      return key.slice(2);
    case 'n':
      return Number(key.slice(2));
    case 'b':
      return key === 'b:1';
    case 'o':
      return JSON.parse(key.slice(2));
    default:
      // 'a:[]', the key of an empty array
      return [];
  }
}

/** Whether a filter value can be looked up in a hash index by `encodeValue` (no null: it also matches absence). */
export function isIndexableLiteral(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

export interface KeyedValue {
  key: string;
  /** The raw value(s) behind the key, reported in duplicate-key errors. */
  value: unknown;
}

/** Arrays of at most this many values are freed of repeated keys by a linear search, longer ones with a Set. */
const LINEAR_DEDUPE_MAX = 16;

/**
 * The keys a document holds in an index over the top-level field `field` (no dot), without a partial
 * filter: what `indexKeysOf` gives, as bare strings. A field holding one value (or null, or nothing) gives
 * its one key as a string, with no array made (an insert of 100 documents into a collection with five
 * indexes asks this 500 times); an array gives one key per distinct element (`a:[]` when empty); a sparse
 * index's missing field gives none.
 */
export function plainFieldKeys(document: Readonly<Record<string, unknown>>, field: string, sparse: boolean): string | string[] {
  const value = document[field];
  if (value === undefined) return sparse ? [] : 'null';
  if (!Array.isArray(value)) return encodeValue(value);
  if (value.length === 0) return ['a:[]'];
  const keys: string[] = [];
  if (value.length <= LINEAR_DEDUPE_MAX) {
    for (const item of value) {
      const key = encodeValue(item);
      if (!keys.includes(key)) keys.push(key);
    }
    return keys;
  }
  const seen = new Set<string>();
  for (const item of value) {
    const key = encodeValue(item);
    if (!seen.has(key)) {
      seen.add(key);
      keys.push(key);
    }
  }
  return keys;
}

/**
 * The keys a document contributes to an index over `fields`. Sparse indexes skip documents lacking every
 * indexed field; otherwise absence is indexed as null (as in MongoDB, so two documents lacking a uniquely
 * indexed field collide).
 */
export function indexKeysOf(document: unknown, fields: string[], sparse: boolean): KeyedValue[] {
  if (fields.length === 1) {
    // The common case (one field holding one scalar) without the general path's intermediate arrays.
    const values = valuesAtPath(document, fields[0]!);
    if (values.length === 1) {
      const value = values[0];
      if (value === MISSING) return sparse ? [] : [{ key: 'null', value: null }];
      if (!Array.isArray(value)) return [{ key: encodeValue(value), value }];
    }
  }
  const perField = fields.map((field) => fieldKeys(document, field));
  if (sparse && perField.every((keys) => keys.every((k) => k.value === MISSING))) return [];
  const normalized = perField.map((keys) =>
    keys.map((k) => (k.value === MISSING ? { key: 'null', value: null } : k)),
  );
  if (fields.length === 1) return dedupe(normalized[0]!);
  return dedupe(cartesian(normalized).map((combination) => ({
    key: JSON.stringify(combination.map((k) => k.key)),
    value: Object.fromEntries(fields.map((field, i) => [field, combination[i]!.value])),
  })));
}

function fieldKeys(document: unknown, field: string): KeyedValue[] {
  const keys: KeyedValue[] = [];
  for (const value of valuesAtPath(document, field)) {
    if (value === MISSING) keys.push({ key: 'null', value: MISSING });
    else if (Array.isArray(value)) {
      if (value.length === 0) keys.push({ key: 'a:[]', value: [] });
      for (const item of value) keys.push({ key: encodeValue(item), value: item });
    } else keys.push({ key: encodeValue(value), value });
  }
  return keys;
}

function cartesian(lists: KeyedValue[][]): KeyedValue[][] {
  return lists.reduce<KeyedValue[][]>(
    (combinations, list) => combinations.flatMap((prefix) => list.map((item) => [...prefix, item])),
    [[]],
  );
}

function dedupe(keys: KeyedValue[]): KeyedValue[] {
  const seen = new Set<string>();
  return keys.filter((k) => (seen.has(k.key) ? false : (seen.add(k.key), true)));
}
