import { generateApi } from '../../src/api/generate.js';
import { subscribedQueries } from '../../src/resolve/subscriptions.js';
import { errorLines, typeOf, validModel } from './helpers.js';

/** Dgraph's `@withSubscription`: on types and interfaces, and on `@lambda` Query fields (Dgraph: `@custom(dql:)`). */
describe('@withSubscription in the schema', () => {
  const refused: Array<[rule: string, source: string, expected: string[]]> = [
    ['on a stored field', 'type T { id: ID! n: Int @withSubscription }', [
      '1:25 Type T; field n: @withSubscription is not allowed on a field (allowed there: @id, @search, @hasInverse, @external, @provides, @requires, @lambda, @custom, @deprecated, @default, @dgraph)',
    ]],
    ['on a mutation', 'type T { id: ID! }\ntype Mutation { bump: Int @lambda @withSubscription }', [
      '2:17 Type Mutation; field bump: @withSubscription applies to types and to @lambda Query fields, not to mutations',
    ]],
    ['on an @custom(http:) query', 'type T { id: ID! }\ntype Query { remote: Int @custom(http: { url: "http://x.test/n", method: GET }) @withSubscription }', [
      '2:14 Type Query; field remote: @withSubscription on a Query field needs @lambda: the changes behind an @custom(http:) call cannot be watched',
    ]],
    ['with an argument', 'type T @withSubscription(on: true) { id: ID! }', ['1:26 Type T: @withSubscription has no argument "on" (it takes no arguments)']],
    ['a Subscription type written by hand', 'type Subscription { x: Int @lambda }', [
      '1:6 Type Subscription: the Subscription type is generated: mark a type or a @lambda Query field @withSubscription',
    ]],
  ];

  it.each(refused)('refuses %s', (_rule, source, expected) => {
    expect(errorLines(source)).toEqual(expected);
  });

  it('marks the types and the @lambda queries that are subscribed, and no others', () => {
    const model = validModel(`
      type Task @withSubscription { id: ID! title: String }
      interface Named @withSubscription { name: String! @id }
      type Plain { id: ID! }
      type Query { taskCount: Int @lambda @withSubscription  other: Int @lambda }
    `);
    expect(typeOf(model, 'Task').withSubscription).toBe(true);
    expect(typeOf(model, 'Named').withSubscription).toBe(true);
    expect(typeOf(model, 'Plain').withSubscription).toBeUndefined();
    expect(model.customQueries.map((field) => [field.name, field.withSubscription === true])).toEqual([['taskCount', true], ['other', false]]);
    expect(subscribedQueries(model)).toEqual(['getTask', 'queryTask', 'aggregateTask', 'getNamed', 'queryNamed', 'aggregateNamed', 'taskCount']);
  });
});

describe('@generate(subscription: true), Dgraph\'s other spelling', () => {
  it('subscribes the queries the type generates, and no password check', () => {
    const model = validModel(`
      type Account @generate(query: { aggregate: false }, subscription: true) @secret(field: "pwd") { id: ID! login: String! @id }
      type Off @generate(subscription: false) { id: ID! }
    `);
    expect(typeOf(model, 'Account').withSubscription).toBe(true);
    expect(typeOf(model, 'Off').withSubscription).toBeUndefined();
    expect(subscribedQueries(model)).toEqual(['getAccount', 'queryAccount']);
    const subscription = /type Subscription \{\n[^}]*\}/.exec(generateApi(model).sdl)?.[0];
    expect(subscription?.split('\n').map((line) => line.trim().replace(/\(.*/, ''))).toEqual(['type Subscription {', 'getAccount', 'queryAccount', '}']);
  });
});

describe('@withSubscription in the generated API', () => {
  const subscriptionBlock = (sdl: string): string | undefined => /type Subscription \{\n[^}]*\}/.exec(sdl)?.[0];

  it('repeats the type’s get, query and aggregate fields with the same arguments, and the @lambda query', () => {
    const api = generateApi(validModel(`
      type Task @withSubscription { id: ID! title: String @search(by: [hash]) }
      type Note { id: ID! }
      type Query { taskCount(min: Int): Int @lambda @withSubscription }
    `));
    expect(subscriptionBlock(api.sdl)).toBe(
      [
        // The schema's own fields first, as Dgraph prints them.
        'type Subscription {',
        '  taskCount(min: Int): Int',
        '  getTask(id: ID!): Task',
        '  queryTask(filter: TaskFilter, order: TaskOrder, first: Int, offset: Int): [Task]',
        '  aggregateTask(filter: TaskFilter): TaskAggregateResult',
        '}',
      ].join('\n'),
    );
    expect(api.sdl).toContain('  queryTask(filter: TaskFilter, order: TaskOrder, first: Int, offset: Int): [Task]\n  aggregateTask');
    expect(subscriptionBlock(api.gatewaySdl)).toBe(subscriptionBlock(api.sdl));
  });

  it('has no Subscription type without @withSubscription', () => {
    expect(generateApi(validModel('type Task { id: ID! }')).sdl).not.toContain('Subscription');
  });

  it('keeps an extended type’s subscriptions out of the gateway view, like its queries', () => {
    const api = generateApi(validModel('extend type Item @key(fields: "id") @withSubscription { id: ID! @external n: Int }'));
    expect(subscriptionBlock(api.sdl)).toContain('queryItem(');
    expect(subscriptionBlock(api.gatewaySdl)).toBeUndefined();
  });
});
