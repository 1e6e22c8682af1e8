import { scanOperationSource } from '../../src/limits/source-scan';
import { valueDepth } from '../../src/limits/variable-depth';

const limits = { maxTokens: 20, maxNesting: 3 };

describe('scanOperationSource', () => {
  test.each<[string, string]>([
    ['within both limits', '{ a { b { c } } }'],
    ['brackets inside strings and comments do not count', '{ a(s: "{{{{[[[[") # ((((\n }'],
    ['a text the lexer cannot read is left to the parser', '{ a(s: "unterminated) }'],
  ])('%s: passes', (_name, text) => {
    expect(scanOperationSource(text, limits)).toBeUndefined();
  });

  test('too many tokens', () => {
    const error = scanOperationSource(`{ ${'a '.repeat(25)}}`, limits);
    expect(error?.message).toBe('the number of tokens in the operation is more than 20, over the limit 20; raise it with --max-tokens or MAX_TOKENS');
    expect(error?.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'maxTokens', http: { status: 400 } });
  });

  test('brackets nested too deep: the deepest nesting, located where the limit is passed', () => {
    const error = scanOperationSource('{ a(f: [[[1]]]) }', limits);
    expect(error?.message).toBe('the nesting of brackets { [ ( in the operation text is 5, over the limit 3; raise it with --max-nesting or MAX_NESTING');
    expect(error?.locations).toEqual([{ line: 1, column: 9 }]);
  });

  test('a nesting far past what graphql-js can parse is measured without recursion', () => {
    const error = scanOperationSource(`{ a(f: ${'['.repeat(100_000)}${']'.repeat(100_000)}) }`, { maxTokens: 1_000_000, maxNesting: 500 });
    expect(error?.message).toBe('the nesting of brackets { [ ( in the operation text is 100002, over the limit 500; raise it with --max-nesting or MAX_NESTING');
  });
});

describe('valueDepth', () => {
  test.each<[string, unknown, number]>([
    ['a scalar', 'x', 0],
    ['null', null, 0],
    ['an empty object', {}, 1],
    ['a not chain', { not: { not: { title: 'x' } } }, 3],
    ['and: [{ ... }] (object, list, object)', { and: [{ title: 'x' }] }, 3],
    ['the deepest branch counts', { a: 1, b: [[[1]]], c: { d: {} } }, 4],
  ])('%s', (_name, value, depth) => {
    expect(valueDepth(value)).toBe(depth);
  });

  test('100,000 levels, beyond any recursive walk', () => {
    let value: Record<string, unknown> = {};
    for (let i = 1; i < 100_000; i++) value = { not: value };
    expect(valueDepth(value)).toBe(100_000);
  });
});
