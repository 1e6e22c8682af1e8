import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { parseDateTime } from '../query/date-time.js';
import { dgraphDateTimeText } from './date-time-text.js';

/**
 * `DateTime` travels as text in one of Dgraph's forms (query/date-time.ts), is stored as
 * `Date#toISOString()` (UTC) and answered as Dgraph answers it (date-time-text.ts). `Int64` travels as a
 * JSON number or a numeric string.
 */

function toIsoDateTime(value: unknown): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new GraphQLError('DateTime cannot represent an invalid Date');
    return value.toISOString();
  }
  if (typeof value !== 'string') {
    throw new GraphQLError(`DateTime must be a string like "2026-01-31T12:00:00Z", got ${JSON.stringify(value)}`);
  }
  const parsed = parseDateTime(value);
  if (!parsed.ok) throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}: ${parsed.problem}`);
  return parsed.iso;
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An RFC 3339 date-time, e.g. "2026-01-31T12:00:00Z"; returned in UTC, in whole seconds.',
  serialize: (value) => dgraphDateTimeText(toIsoDateTime(value)),
  parseValue: toIsoDateTime,
  parseLiteral(node: ValueNode) {
    if (node.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string literal', { nodes: node });
    return toIsoDateTime(node.value);
  },
});

function toInt64(value: unknown): number {
  // Dgraph's coercion error for a number with a fraction (graphql/schema/validation_rules.go).
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) {
    throw new GraphQLError(`Type mismatched for Value \`${value}\`, expected:\`Int64\``);
  }
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
    if (node.kind === Kind.FLOAT) throw new GraphQLError(`Type mismatched for Value \`${node.value}\`, expected: Int64, got: 'Float'`, { nodes: node });
    if (node.kind !== Kind.INT && node.kind !== Kind.STRING) {
      throw new GraphQLError('Int64 must be an integer or a numeric string', { nodes: node });
    }
    return toInt64(node.value);
  },
});
