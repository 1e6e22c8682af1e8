/**
 * Value helpers with MongoDB's meaning: equality of index keys (type and value, as BSON compares them) and
 * values printed the way mongod prints them in error messages (`{ username: "ann" }`).
 */
import { BSON, ObjectId } from 'mongodb';

const { EJSON } = BSON;

export type Document = Record<string, unknown>;

export function isDocument(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof RegExp) && !isBsonValue(value);
}

function isBsonValue(value: object): boolean {
  return '_bsontype' in value;
}

/** A string equal for two values exactly when MongoDB treats them as the same index key. */
export function keyOf(value: unknown): string {
  return EJSON.stringify({ v: value === undefined ? null : value }, { relaxed: false });
}

/** A value as mongod's error messages show it: strings in double quotes, documents as `{ a: 1 }`. */
export function printValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (Array.isArray(value)) return `[ ${value.map(printValue).join(', ')} ]`;
  if (isDocument(value)) return printDocument(value);
  return EJSON.stringify(value);
}

export function printDocument(document: Document): string {
  const fields = Object.entries(document).map(([name, value]) => `${name}: ${printValue(value)}`);
  return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`;
}

/** The value at a dotted path; arrays on the way yield each element's value (a multikey path). */
export function valuesAtPath(document: unknown, path: string): unknown[] {
  const [head, ...rest] = path.split('.');
  if (Array.isArray(document)) return document.flatMap((element) => valuesAtPath(element, path));
  if (!isDocument(document) || !(head! in document)) return [];
  const value = document[head!];
  return rest.length === 0 ? [value] : valuesAtPath(value, rest.join('.'));
}
