import { SCALAR_NAMES } from './model.js';

/**
 * Dgraph's reserved words (graphql/schema/rules.go, isReservedKeyWord): no type, field, `@dgraph(type:)`
 * or `@dgraph(pred:)` may take them. The built-in scalars (Dgraph's geo types and `Password` among them:
 * schemas written for Dgraph know them as types), the root types, `uid` (Dgraph's identity predicate), and
 * `as` in any case (DQL's variable keyword).
 */
const RESERVED: ReadonlySet<string> = new Set([
  ...SCALAR_NAMES, 'Password', 'Point', 'Polygon', 'MultiPolygon', 'Query', 'Mutation', 'Subscription', 'uid',
]);

export function isReservedWord(name: string): boolean {
  return RESERVED.has(name) || name.toLowerCase() === 'as';
}

/** Dgraph's message for a type (or enum, input, union) taking a reserved word as its name. */
export function reservedTypeNameMessage(name: string, kind: string): string {
  return `${name} is a reserved word, so you can't declare a ${kind} with this name. Pick a different name for the ${kind}.`;
}

/** Dgraph's message for a field named with a reserved word (after `Type T; field f: `). */
export function reservedFieldNameMessage(name: string): string {
  return `${name} is a reserved keyword and you cannot declare a field with this name`;
}
