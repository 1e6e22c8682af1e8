/**
 * How a stored value is written in an export line: as plain JSON, except for the values JSON cannot hold
 * exactly, each written as a one-key object whose key starts with `$` (no field of a generated schema
 * does):
 *
 * | value                                   | written as                               |
 * |-----------------------------------------|------------------------------------------|
 * | -0, NaN, Infinity, -Infinity            | `{"$float": "-0"}` (`"NaN"`, ...)        |
 * | a 64-bit integer beyond ±(2^53-1) (a MongoDB Long, a bigint) | `{"$int64": "9007199254740993"}` |
 * | a date (a BSON date written by another tool) | `{"$date": "2026-01-31T12:00:00.000Z"}` |
 * | a MongoDB ObjectId                      | `{"$oid": "65a1..."}`                    |
 * | an object with a key starting with `$`  | `{"$object": { ...the object... }}`      |
 *
 * Autograph itself stores only JSON values (DateTime as ISO text, Int64 within ±(2^53-1), ids as text),
 * so an export of its own data is plain JSON but for -0; the tags keep data written by other tools exact.
 */
import { ObjectId } from 'mongodb';

const FLOAT_TAG = '$float';
const INT64_TAG = '$int64';
const DATE_TAG = '$date';
const OBJECT_ID_TAG = '$oid';
const OBJECT_TAG = '$object';

/** A value the format cannot write (a BSON Decimal128 or binary, a function, ...); `path` says where. */
export class UnsupportedValueError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'UnsupportedValueError';
  }
}

/** One document as the JSON text of its export line. */
export function encodeDocument(document: Record<string, unknown>): string {
  return JSON.stringify(needsTags(document) ? encodeValue(document, '') : document);
}

/** The document of an export line's parsed JSON; throws UnsupportedValueError for a malformed tag. */
export function decodeDocument(parsed: Record<string, unknown>): Record<string, unknown> {
  return decodeValue(parsed, '') as Record<string, unknown>;
}

/** Whether `value` holds anything plain JSON would not write back exactly (the common case is no). */
function needsTags(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return false;
    case 'number':
      return !Number.isFinite(value) || Object.is(value, -0);
    case 'object': {
      if (value === null) return false;
      if (Array.isArray(value)) {
        for (const item of value) if (needsTags(item)) return true;
        return false;
      }
      if (!isPlainObject(value)) return true;
      for (const key in value) {
        if (key.charCodeAt(0) === 36 /* $ */ || needsTags((value as Record<string, unknown>)[key])) return true;
      }
      return false;
    }
    default:
      return true;
  }
}

function encodeValue(value: unknown, path: string): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Object.is(value, -0)) return { [FLOAT_TAG]: '-0' };
      return Number.isFinite(value) ? value : { [FLOAT_TAG]: String(value) };
    case 'bigint':
      return Number.isSafeInteger(Number(value)) ? Number(value) : { [INT64_TAG]: value.toString() };
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map((item, i) => encodeValue(item, `${path}[${i}]`));
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw new UnsupportedValueError(pathOrDocument(path), 'is an invalid date');
        return { [DATE_TAG]: value.toISOString() };
      }
      const bsonType = (value as { _bsontype?: unknown })._bsontype;
      if (bsonType === 'Long') return encodeValue(BigInt(String(value)), path);
      if (bsonType === 'ObjectId') return { [OBJECT_ID_TAG]: (value as ObjectId).toHexString() };
      if (bsonType === 'Double' || bsonType === 'Int32') return encodeValue((value as { valueOf(): number }).valueOf(), path);
      if (!isPlainObject(value)) {
        throw new UnsupportedValueError(pathOrDocument(path), `is a ${typeof bsonType === 'string' ? `BSON ${bsonType}` : 'non-JSON object'}, which an export cannot hold`);
      }
      const encoded: Record<string, unknown> = {};
      let hasDollarKey = false;
      for (const key of Object.keys(value)) {
        hasDollarKey ||= key.startsWith('$');
        setOwn(encoded, key, encodeValue((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key));
      }
      return hasDollarKey ? { [OBJECT_TAG]: encoded } : encoded;
    }
    default:
      throw new UnsupportedValueError(pathOrDocument(path), `is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}, which an export cannot hold`);
  }
}

function decodeValue(value: unknown, path: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = decodeValue(value[i], `${path}[${i}]`);
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0]!.startsWith('$')) return decodeTag(keys[0]!, record[keys[0]!], path);
  for (const key of keys) {
    if (key.startsWith('$')) throw new UnsupportedValueError(pathOrDocument(path), `has the key "${key}": keys starting with "$" are written inside {"${OBJECT_TAG}": ...}`);
    setOwn(record, key, decodeValue(record[key], path ? `${path}.${key}` : key));
  }
  return record;
}

function decodeTag(tag: string, content: unknown, path: string): unknown {
  const where = pathOrDocument(path);
  switch (tag) {
    case FLOAT_TAG:
      if (content === '-0') return -0;
      if (content === 'NaN') return NaN;
      if (content === 'Infinity') return Infinity;
      if (content === '-Infinity') return -Infinity;
      throw new UnsupportedValueError(where, `has {"${FLOAT_TAG}": ${JSON.stringify(content)}}; expected "-0", "NaN", "Infinity" or "-Infinity"`);
    case INT64_TAG: {
      if (typeof content !== 'string' || !/^-?(0|[1-9][0-9]*)$/.test(content)) {
        throw new UnsupportedValueError(where, `has {"${INT64_TAG}": ${JSON.stringify(content)}}; expected a decimal integer in a string`);
      }
      const integer = BigInt(content);
      if (integer > 0x7fffffffffffffffn || integer < -0x8000000000000000n) throw new UnsupportedValueError(where, `has {"${INT64_TAG}": "${content}"}, outside the 64-bit range`);
      return Number.isSafeInteger(Number(integer)) ? Number(integer) : integer;
    }
    case DATE_TAG: {
      const time = typeof content === 'string' ? Date.parse(content) : NaN;
      if (Number.isNaN(time)) throw new UnsupportedValueError(where, `has {"${DATE_TAG}": ${JSON.stringify(content)}}; expected an ISO-8601 date-time`);
      return new Date(time);
    }
    case OBJECT_ID_TAG:
      if (typeof content !== 'string' || !/^[0-9a-f]{24}$/i.test(content)) {
        throw new UnsupportedValueError(where, `has {"${OBJECT_ID_TAG}": ${JSON.stringify(content)}}; expected 24 hexadecimal digits`);
      }
      return new ObjectId(content);
    case OBJECT_TAG: {
      if (!isPlainObject(content)) throw new UnsupportedValueError(where, `has {"${OBJECT_TAG}": ${JSON.stringify(content)}}; expected an object`);
      for (const key of Object.keys(content)) setOwn(content, key, decodeValue(content[key], path ? `${path}.${key}` : key));
      return content;
    }
    default:
      throw new UnsupportedValueError(where, `has the key "${tag}": keys starting with "$" are written inside {"${OBJECT_TAG}": ...}`);
  }
}

function pathOrDocument(path: string): string {
  return path === '' ? 'the document' : path;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Like `target[key] = value`, except that a field named `__proto__` stays an ordinary field. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
