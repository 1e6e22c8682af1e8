import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/**
 * `DateTime` travels as an RFC 3339 string and is stored as `Date#toISOString()` (UTC), so that string
 * order is time order on every backend. `Int64` travels as a JSON number or a numeric string.
 */

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by `count` decimal digits of `text` from `start`, or -1 if one is not a digit. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Whether `text` already is what `new Date(text).toISOString()` gives back: `YYYY-MM-DDTHH:MM:SS.sssZ`
 * naming a real day and time (no 24:00, no second 60, no February 30). Most values sent are, and this
 * check costs a fraction of parsing a Date; any other text goes through Date as before.
 */
function isCanonicalUtc(text: string): boolean {
  if (text.length !== 24 || text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.' || text[23] !== 'Z') {
    return false;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 0 || hour < 0 || minute < 0 || second < 0 || digitsAt(text, 20, 3) < 0) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return days !== undefined && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59;
}

function toIsoDateTime(value: unknown): string {
  if (typeof value === 'string' && isCanonicalUtc(value)) return value;
  if (typeof value !== 'string' && !(value instanceof Date)) {
    throw new GraphQLError(`DateTime must be a string like "2026-01-31T12:00:00Z", got ${JSON.stringify(value)}`);
  }
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}: not an RFC 3339 date-time`);
  }
  return date.toISOString();
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An RFC 3339 date-time, e.g. "2026-01-31T12:00:00Z"; returned in UTC.',
  serialize: toIsoDateTime,
  parseValue: toIsoDateTime,
  parseLiteral(node: ValueNode) {
    if (node.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string literal', { nodes: node });
    return toIsoDateTime(node.value);
  },
});

function toInt64(value: unknown): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) {
    throw new GraphQLError(`Int64 cannot represent ${JSON.stringify(value)}: not an integer`);
  }
  if (!Number.isSafeInteger(number)) {
    throw new GraphQLError(`Int64 value ${JSON.stringify(value)} is outside ±2^53-1, the range kept exactly`);
  }
  return number;
}

export const Int64Scalar = new GraphQLScalarType({
  name: 'Int64',
  description: 'A 64-bit integer, given as a number or a numeric string; exact within ±2^53-1.',
  serialize: toInt64,
  parseValue: toInt64,
  parseLiteral(node: ValueNode) {
    if (node.kind !== Kind.INT && node.kind !== Kind.STRING) {
      throw new GraphQLError('Int64 must be an integer or a numeric string', { nodes: node });
    }
    return toInt64(node.value);
  },
});
