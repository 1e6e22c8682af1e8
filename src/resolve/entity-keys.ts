import type { FieldModel, KeyModel, TypeModel } from '../sdl/model.js';
import type { Filter, StoredDocument } from '../store/port.js';
import { storedPath } from '../query/schema-facts.js';

/**
 * A `@key` as a store lookup: which stored field each part of the key reads, how a representation's
 * value for it is found, and the filter that finds a batch of representations in one query. Pure.
 */
export interface KeyLookup {
  key: KeyModel;
  /** The key is the type's identity (`type.key`): an extended type's object exists by it alone. */
  isIdentity: boolean;
  /** The key's values in a representation, as one string (the batch key), or undefined when one is missing. */
  valueOf(representation: Readonly<Record<string, unknown>>): string | undefined;
  /** The same string for a stored document. */
  valueOfDocument(document: StoredDocument): string;
  /** One filter matching every batched value (each the string `valueOf` gave). */
  filterFor(values: readonly string[]): Filter;
}

interface KeyPart {
  /** Where the value sits in a representation: `["sku"]`, `["variation", "id"]`. */
  path: string[];
  /** The stored field holding it: `_id` for the identity, the relation field for `variation { id }`. */
  storedField: string;
  field: FieldModel;
}

export function keyLookupOf(type: TypeModel, key: KeyModel): KeyLookup {
  const parts: KeyPart[] = key.selection.map((item) => {
    const field = type.fieldsByName.get(item.name)!;
    const nested = item.selections?.[0]?.name;
    if (nested !== undefined) return { path: [item.name, nested], storedField: storedPath(field), field };
    const isDocumentId = field.isIdField || (type.extended && field.name === type.key);
    return { path: [item.name], storedField: isDocumentId ? '_id' : storedPath(field), field };
  });
  const isIdentity = key.selection.length === 1 && !key.selection[0]!.selections && key.selection[0]!.name === type.key;

  const valueOf = (representation: Readonly<Record<string, unknown>>): string | undefined => {
    const values: unknown[] = [];
    for (const part of parts) {
      const value = storedValueOf(part, valueAt(representation, part.path));
      if (value === undefined) return undefined;
      values.push(value);
    }
    return JSON.stringify(values);
  };
  return {
    key,
    isIdentity,
    valueOf,
    valueOfDocument: (document) => JSON.stringify(parts.map((part) => document[part.storedField] ?? null)),
    filterFor(batch) {
      const tuples = batch.map((value) => JSON.parse(value) as unknown[]);
      if (parts.length === 1) return { [parts[0]!.storedField]: { $in: tuples.map((tuple) => tuple[0]) } };
      return { $or: tuples.map((tuple) => Object.fromEntries(parts.map((part, index) => [part.storedField, tuple[index]]))) };
    },
  };
}

function valueAt(object: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let value: unknown = object;
  for (const name of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/**
 * A representation's value as the store holds it (ids and relations as strings, `DateTime` as its ISO
 * form, numbers as numbers), or undefined when it is missing or cannot be such a value.
 */
function storedValueOf(part: KeyPart, value: unknown): string | number | boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (part.storedField === '_id' || part.path.length > 1) return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  const { of } = part.field;
  if (of.kind === 'scalar' && (of.scalar === 'Int' || of.scalar === 'Int64' || of.scalar === 'Float')) {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
  }
  if (of.kind === 'scalar' && of.scalar === 'DateTime') {
    const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return Number.isNaN(time) ? undefined : new Date(time).toISOString();
  }
  if (of.kind === 'scalar' && of.scalar === 'Boolean') return typeof value === 'boolean' ? value : undefined;
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
