import { buildSchemaModel } from '../../src/sdl/build.js';
import { DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from '../../src/sdl/limits.js';

const nested = (depth: number): string => `type A { id: ID! name: String @search(by: ${'['.repeat(depth)}hash${']'.repeat(depth)}) }`;
const types = (count: number, fieldsEach = 1): string =>
  Array.from({ length: count }, (_, i) => `type T${i} { id: ID! ${Array.from({ length: fieldsEach - 1 }, (_, j) => `f${j}: String`).join(' ')} }`).join('\n');

/** Each type after a scalar definition: the text scan does not count them (it counts a lower bound). */
const afterScalars = (count: number, fieldsEach: number): string =>
  Array.from({ length: count }, (_, i) => `scalar S${i}\ntype T${i} { id: ID! ${Array.from({ length: fieldsEach - 1 }, (_, j) => `f${j}: String`).join(' ')} }`).join('\n');

const SMALL: SchemaLimits = { maxBytes: 2000, maxTypes: 3, maxFields: 8, maxDepth: 5 };

describe('schema size limits', () => {
  test.each<[string, string, SchemaLimits, Array<{ message: string; locations: Array<{ line: number; column: number }> }>]>([
    ['text over the byte limit', `type A { id: ID! note: String }\n${'#'.repeat(2000)}`, SMALL, [
      { message: 'the schema is 2032 bytes, more than the limit of 2000 (raise it with --schema-max-bytes)', locations: [] },
    ]],
    ['bytes count UTF-8, not characters', `"${'é'.repeat(990)}"\ntype A { id: ID! }`, SMALL, [
      { message: 'the schema is 2001 bytes, more than the limit of 2000 (raise it with --schema-max-bytes)', locations: [] },
    ]],
    ['lists nested past the depth limit (type braces and argument parentheses count), at the first bracket too deep', nested(5), SMALL, [
      { message: 'brackets nested more than 5 deep (the limit; raise it with --schema-max-depth)', locations: [{ line: 1, column: 46 }] },
    ]],
    ['5,000 nested lists: refused, not a stack overflow', nested(5000), DEFAULT_SCHEMA_LIMITS, [
      { message: 'brackets nested more than 32 deep (the limit; raise it with --schema-max-depth)', locations: [{ line: 1, column: 73 }] },
    ]],
    ['brackets inside block strings do not count', `type A @auth(query: { rule: """${'['.repeat(50)}""" }) { id: ID! }`, SMALL, [
      { message: 'Type A: @auth query: the rule is not a valid GraphQL query: Syntax Error: Unexpected "[".', locations: [{ line: 1, column: 29 }] },
    ]],
    ['more types than the limit, refused before the parse', types(4), SMALL, [
      { message: 'the schema has more than 3 types and interfaces (the limit; raise it with --schema-max-types)', locations: [] },
    ]],
    ['more fields than the limit, refused before the parse', types(2, 5), SMALL, [
      { message: 'the schema has more than 8 fields (the limit; raise it with --schema-max-fields)', locations: [] },
    ]],
    ['10,000 types under the default limits', types(10_000), DEFAULT_SCHEMA_LIMITS, [
      { message: 'the schema has more than 500 types and interfaces (the limit; raise it with --schema-max-types)', locations: [] },
    ]],
    ['types the text scan cannot place (after a scalar) are counted exactly after the parse', afterScalars(4, 1), SMALL, [
      { message: 'the schema has 4 types and interfaces, more than the limit of 3 (raise it with --schema-max-types)', locations: [] },
    ]],
    ['and so are their fields', afterScalars(2, 5), SMALL, [
      { message: 'the schema has 10 fields, more than the limit of 8 (raise it with --schema-max-fields)', locations: [] },
    ]],
  ])('%s', (_name, source, limits, errors) => {
    expect(buildSchemaModel(source, limits)).toEqual({ errors });
  });

  test('accepts a schema exactly at the type and field limits', () => {
    const built = buildSchemaModel(`${types(2, 3)}\ntype B { id: ID! name: String @search(by: [hash]) }`, SMALL);
    expect(built.errors).toEqual([]);
    expect([...built.model!.types.keys()]).toEqual(['T0', 'T1', 'B']);
  });

  test('nesting exactly at the depth limit, twice, is not refused for depth', () => {
    const messages = buildSchemaModel(`${nested(3)}\ntype B { id: ID! x: String @search(by: [[[hash]]]) }`, SMALL).errors.map((error) => error.message);
    expect(messages).toEqual([
      'Type A; field name: @search(by: [a list]) is not an index (known: hash, exact, term, fulltext, ngram, trigram, regexp, int, int64, float, bool, day, month, year, hour)',
      'Type B; field x: @search(by: [a list]) is not an index (known: hash, exact, term, fulltext, ngram, trigram, regexp, int, int64, float, bool, day, month, year, hour)',
    ]);
  });
});
