import { Kind, parse } from 'graphql';
import { scanSchemaText, type TextScan, type TextScanLimits } from '../../src/sdl/text-scan.js';

const OPEN: TextScanLimits = { maxTypes: 1000, maxFields: 1000, maxDepth: 32 };

/** The exact counts checkSchemaDocument takes after the parse. */
function exactCounts(source: string): { types: number; fields: number } {
  let types = 0;
  let fields = 0;
  for (const definition of parse(source).definitions) {
    if (
      definition.kind === Kind.OBJECT_TYPE_DEFINITION ||
      definition.kind === Kind.OBJECT_TYPE_EXTENSION ||
      definition.kind === Kind.INTERFACE_TYPE_DEFINITION ||
      definition.kind === Kind.INTERFACE_TYPE_EXTENSION
    ) {
      types++;
      fields += definition.fields?.length ?? 0;
    }
  }
  return { types, fields };
}

const CASES: Array<[string, string, TextScan]> = [
  ['one type, its fields', 'type A { id: ID! name: String }', { types: 1, fields: 2 }],
  ['interfaces and extensions count like types', 'interface I { id: ID! }\ntype A implements I { id: ID! n: Int }\nextend type A { m: Int }', { types: 3, fields: 4 }],
  ['a field with arguments counts once', 'type Query { tasks(first: Int, filter: F): [String] }', { types: 1, fields: 1 }],
  ['directive names are not fields', 'type A @key(fields: "id") { id: ID! @id name: String @search(by: [hash]) @dgraph(pred: "n") }', { types: 1, fields: 2 }],
  ['descriptions before types and fields', '"""A type"""\ntype A {\n  "the id"\n  id: ID!\n  """a name""" name: String\n}', { types: 1, fields: 2 }],
  ['input fields, enum values and schema roots are not counted', 'input I { a: Int b: Int }\nenum E { X Y }\nschema { query: Q }\ntype Q { q: Int }', { types: 1, fields: 1 }],
  ['after a union, a type named `type` is missed (a lower bound)', 'union U = type\ntype type { a: Int }', { types: 0, fields: 0 }],
  ['a type after a scalar is missed (a lower bound), its fields still count', 'type A { a: Int }\nscalar S\ntype B { b: Int }', { types: 1, fields: 1 }],
  ['input fields after a type without braces are not counted as its fields', 'extend type A @key(fields: "id")\ninput I { a: Int b: Int }', { types: 1, fields: 0 }],
  ['a type without braces, then a type', 'type A implements B & C\ntype D { d: Int }', { types: 1, fields: 1 }],
  ['keywords inside strings and comments are not counted', '# type X { a: Int }\ntype A @auth(query: { rule: "type B { b: Int }" }) { a: Int }', { types: 1, fields: 1 }],
  ['nesting past the limit stops the scan at that bracket', 'type A { a: Int }\ntype B { b: String @search(by: [[[[hash]]]]) }', { tooDeepAt: { line: 2, column: 34 }, types: 2, fields: 2 }],
  ['a lexer error ends the scan with what it counted (the parser reports the error)', 'type A { a: Int }\ntype B { b: "unterminated }', { types: 2, fields: 2 }],
];

describe('scanSchemaText', () => {
  test.each(CASES)('%s', (_name, source, expected) => {
    expect(scanSchemaText(source, { ...OPEN, maxDepth: 4 })).toEqual(expected);
  });

  test.each(CASES.filter(([name]) => !name.includes('lexer error') && !name.includes('nesting')))('never counts more than the parser: %s', (_name, source) => {
    const scan = scanSchemaText(source, OPEN);
    const exact = exactCounts(source);
    expect(scan.types).toBeLessThanOrEqual(exact.types);
    expect(scan.fields).toBeLessThanOrEqual(exact.fields);
  });

  const manyTypes = Array.from({ length: 10_000 }, (_, i) => `type T${i} { id: ID! name: String }`).join('\n');

  test.each<[string, TextScanLimits, TextScan]>([
    ['stops at the first type past the type limit', { maxTypes: 500, maxFields: 100_000, maxDepth: 32 }, { types: 501, fields: 1000 }],
    ['stops at the first field past the field limit', { maxTypes: 100_000, maxFields: 99, maxDepth: 32 }, { types: 50, fields: 100 }],
    ['reads everything when no limit is passed', { maxTypes: 10_000, maxFields: 20_000, maxDepth: 32 }, { types: 10_000, fields: 20_000 }],
  ])('10,000 types: %s', (_name, limits, expected) => {
    expect(scanSchemaText(manyTypes, limits)).toEqual(expected);
  });
});
