/**
 * The store keeps JSON values only (what the write-ahead log can write and read back unchanged), so every
 * document is validated and copied on the way in and copied on the way out.
 */
import type { StoredDocument } from '../port.js';

/** A structural copy of a JSON value; stored documents are never handed out or taken in by reference. */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = cloneJson(value[i]);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, cloneJson((value as Record<string, unknown>)[key]));
  return copy as T;
}

/** Thrown when a document holds something JSON cannot represent (Date, undefined in an array, NaN, ...). */
export class InvalidDocumentError extends Error {
  constructor(collection: string, path: string, problem: string) {
    super(`invalid document for collection ${collection}: ${path} ${problem}; the embedded store keeps JSON values only`);
    this.name = 'InvalidDocumentError';
  }
}

/**
 * Validates and copies a document to be stored. Object keys holding `undefined` are dropped, as JSON would
 * drop them, so the in-memory state equals what a replay of the log produces.
 */
export function toStorableDocument(collection: string, document: unknown): StoredDocument {
  if (!isPlainObject(document)) {
    throw new InvalidDocumentError(collection, 'the document', `is ${describe(document)}, not an object`);
  }
  const id = document._id;
  if (typeof id !== 'string') {
    throw new InvalidDocumentError(collection, '_id', `is ${describe(id)}; _id must be a string`);
  }
  return copyValidated(collection, document, '') as StoredDocument;
}

/** `value` (found at `path`; '' for the document) copied once it is found valid. */
function copyValidated(collection: string, value: unknown, path: string): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new InvalidDocumentError(collection, path, `is ${value}, not a finite number`);
      return value;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const copy = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw new InvalidDocumentError(collection, `${path}[${i}]`, 'is undefined');
          copy[i] = copyChild(collection, item, path, i);
        }
        return copy;
      }
      if (!isPlainObject(value)) throw new InvalidDocumentError(collection, path || 'the document', `is ${describe(value)}`);
      const copy: Record<string, unknown> = {};
      // Own keys by `for...in`, as Object.keys lists them, without an array of them per document.
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const item = value[key];
        if (item === undefined) continue;
        setOwn(copy, key, copyChild(collection, item, path, key));
      }
      return copy;
    }
    default:
      throw new InvalidDocumentError(collection, path, `is ${describe(value)}`);
  }
}

/**
 * The value under `key` (a field name or an array index) of the object or array at `path`, copied once
 * found valid. Strings, booleans and finite numbers (most values) come back as they are, without the
 * path string that only an error or a nested value needs.
 */
function copyChild(collection: string, item: unknown, path: string, key: string | number): unknown {
  if (typeof item === 'string' || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item))) return item;
  return copyValidated(collection, item, typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);
}

/** Assigns like `target[key] = value`, except that a field named `__proto__` stays an ordinary field. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  // Realm-independent: objects made in a vm context or by structuredClone in a test sandbox have another
  // realm's Object.prototype, whose own prototype is null just like ours.
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a Date (store DateTime values as ISO-8601 strings)';
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'an unknown class'}`;
  if (typeof value === 'bigint') return 'a bigint';
  return `a ${typeof value}`;
}
