import { errorLines, typeOf, validModel } from './helpers.js';

/** Dgraph's `@lambdaOnMutate(add:, update:, delete:)` rules (graphql/schema/rules.go, gqlschema_test.yml). */
describe('@lambdaOnMutate in the schema', () => {
  const refused: Array<[rule: string, source: string, expected: string[]]> = [
    ['values other than true/false, with Dgraph\'s message at the argument', 'type TwitterUser @lambdaOnMutate(add: true, update: badValue, delete: "false") {\n  id: ID!\n  name: String\n}', [
      '1:45 Type TwitterUser; update argument in @lambdaOnMutate directive can only be true/false, found: `badValue`.',
      '1:63 Type TwitterUser; delete argument in @lambdaOnMutate directive can only be true/false, found: `"false"`.',
    ]],
    ['an unknown argument', 'type T @lambdaOnMutate(upsert: true) { id: ID! }', [
      '1:24 Type T: @lambdaOnMutate has no argument "upsert" (known: add, update, delete)',
    ]],
    ['on a field', 'type T { id: ID! n: Int @lambdaOnMutate(add: true) }', [
      '1:25 Type T; field n: @lambdaOnMutate is not allowed on a field (allowed there: @id, @search, @hasInverse, @external, @provides, @requires, @lambda, @custom, @deprecated, @default, @dgraph)',
    ]],
  ];

  it.each(refused)('refuses %s', (_rule, source, expected) => {
    expect(errorLines(source)).toEqual(expected);
  });

  it('is allowed on types and interfaces; an argument left out is false', () => {
    const model = validModel(`
      interface Post @lambdaOnMutate(add: true, delete: false) { id: ID! title: String }
      type Question implements Post @lambdaOnMutate(add: true, update: true) { questionText: String }
      type Plain { id: ID! }
    `);
    expect(typeOf(model, 'Post').lambdaOnMutate).toEqual({ add: true, update: false, delete: false });
    expect(typeOf(model, 'Question').lambdaOnMutate).toEqual({ add: true, update: true, delete: false });
    expect(typeOf(model, 'Plain').lambdaOnMutate).toBeUndefined();
  });
});
