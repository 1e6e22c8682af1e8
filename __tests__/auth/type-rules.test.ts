import { ANONYMOUS, AuthRuleError, authPlan, checkAuthRules, isUnrestricted, rulesFor, type AuthResult } from '../../src/auth/index.js';
import { authorizationLine } from './keys.js';
import { modelOf } from './schema.js';

const SCHEMA = `
interface Owned @auth(query: { rule: "query($USER: String!) { queryOwned(filter: { owner: { eq: $USER } }) { __typename } }" }) {
  owner: String! @search(by: [hash])
}

type Note implements Owned @auth(query: { rule: "query { queryNote(filter: { shared: true }) { __typename } }" }, delete: { rule: "{ $ROLE: { eq: \\"ADMIN\\" } }" }) {
  id: ID!
  shared: Boolean @search
}

type Memo implements Owned {
  id: ID!
}

type Open {
  id: ID!
}
`;

const alice: AuthResult = { authenticated: true, variables: { USER: 'alice' } };
const admin: AuthResult = { authenticated: true, variables: { ROLE: 'ADMIN' } };

describe('authPlan: the rules of a type for an operation', () => {
  const model = modelOf(SCHEMA);

  test('a type\'s own rule AND the rules of its interfaces', () => {
    expect(authPlan(model, 'Note', 'query', alice)).toEqual({ lookups: [], match: { shared: { $eq: true }, owner: { $eq: 'alice' } } });
    expect(authPlan(model, 'Memo', 'query', alice)).toEqual({ lookups: [], match: { owner: { $eq: 'alice' } } });
  });

  test('an operation without a rule is open; the role rule decides delete', () => {
    expect(authPlan(model, 'Note', 'update', ANONYMOUS)).toEqual({ lookups: [], match: {} });
    expect(authPlan(model, 'Note', 'delete', admin)).toEqual({ lookups: [], match: {} });
    expect(authPlan(model, 'Note', 'delete', alice)).toEqual({ lookups: [], match: { _id: { $in: [] } } });
    expect(isUnrestricted(model, 'Note', 'update', ANONYMOUS)).toBe(true);
    expect(isUnrestricted(model, 'Note', 'query', alice)).toBe(false);
  });

  test('a type without @auth is open when the schema is not closed by default', () => {
    expect(authPlan(model, 'Open', 'query', ANONYMOUS)).toEqual({ lookups: [], match: {} });
  });

  test('each call gets its own copy of a cached plan', () => {
    const first = authPlan(model, 'Note', 'query', alice);
    (first.match as Record<string, unknown>).tampered = true;
    expect(authPlan(model, 'Note', 'query', alice).match).not.toHaveProperty('tampered');
  });
});

describe('authPlan with ClosedByDefault', () => {
  const model = modelOf(`${SCHEMA}\n${authorizationLine({ closedByDefault: true })}\n`);

  test('a type without @auth matches nothing for anonymous callers, everything for authenticated ones', () => {
    for (const operation of ['query', 'add', 'update', 'delete'] as const) {
      expect(authPlan(model, 'Open', operation, ANONYMOUS)).toEqual({ lookups: [], match: { _id: { $in: [] } } });
      expect(isUnrestricted(model, 'Open', operation, ANONYMOUS)).toBe(false);
      expect(authPlan(model, 'Open', operation, alice)).toEqual({ lookups: [], match: {} });
    }
  });

  test('types with @auth keep their own rules', () => {
    expect(authPlan(model, 'Note', 'update', ANONYMOUS)).toEqual({ lookups: [], match: {} });
    expect(authPlan(model, 'Memo', 'query', ANONYMOUS)).toEqual({ lookups: [], match: { _id: { $in: [] } } });
  });
});

describe('checkAuthRules: rule problems are schema errors at upload', () => {
  test('a valid schema has none', () => {
    expect(checkAuthRules(modelOf(SCHEMA))).toEqual([]);
  });

  test('each broken rule is reported with its type, operation and location', () => {
    const model = modelOf(`
type Task @auth(
  query: { rule: "query { queryUser { __typename } }" },
  update: { and: [{ rule: "query($N: Int!) { queryTask(filter: { nope: { eq: $N } }) { id } }" }, { rule: "{ $ROLE: { eq: \\"A\\" } }" }] }
) {
  id: ID!
  title: String
}
type User @auth(delete: { rule: "query { queryUser(filter: { name: { eq: \\"x\\" } }) { name } }" }) {
  id: ID!
  name: String
}
`);
    expect(checkAuthRules(model)).toEqual([
      { message: '@auth query rule of Task: the @auth rule for Task must select queryTask; found queryUser', locations: [{ line: 2, column: 6 }] },
      { message: expect.stringMatching(/^@auth update rule of Task: .*"nope"/), locations: [{ line: 2, column: 6 }] },
      { message: expect.stringMatching(/^@auth delete rule of User: .*User\.name cannot be filtered/), locations: [{ line: 9, column: 6 }] },
    ]);
  });

  test('an interface\'s rule is checked against each implementing type', () => {
    const model = modelOf(`
interface Owned @auth(query: { rule: "query { queryOwned { missing } }" }) {
  owner: String
}
type Note implements Owned {
  id: ID!
}
`);
    expect(checkAuthRules(model).map((error) => error.message)).toEqual([
      '@auth query rule of Owned (as implemented by Note): queryOwned: type Note has no field "missing"',
    ]);
  });
});

describe('rulesFor, authPlan and isUnrestricted over more shapes of types', () => {
  const model = modelOf(`
interface Named {
  name: String @search(by: [hash])
}
interface Owned @auth(query: { rule: "query($USER: String!) { queryOwned(filter: { owner: { eq: $USER } }) { __typename } }" }) {
  owner: String! @search(by: [hash])
}
type Solo @auth(query: { rule: "{ $ROLE: { eq: \\"ADMIN\\" } }" }) {
  id: ID!
}
type Plain implements Named {
  id: ID!
}
type Both implements Named & Owned @auth(query: { rule: "{ $ROLE: { eq: \\"ADMIN\\" } }" }) {
  id: ID!
}
`);
  const bob: AuthResult = { authenticated: true, variables: { USER: 'bob' } };

  test('rulesFor: the type\'s own rule first, then its interfaces\' (an interface without @auth adds none)', () => {
    const both = model.types.get('Both')!;
    expect(rulesFor(model, both, 'query')).toEqual([{ rule: '{ $ROLE: { eq: "ADMIN" } }' }, { rule: 'query($USER: String!) { queryOwned(filter: { owner: { eq: $USER } }) { __typename } }' }]);
    expect(rulesFor(model, both, 'delete')).toEqual([]);
    expect(rulesFor(model, model.types.get('Plain')!, 'query')).toEqual([]);
  });

  test.each<[string, string, AuthResult, unknown]>([
    ['a type with its own rule and no interface, for a caller it refuses', 'Solo', bob, { lookups: [], match: { _id: { $in: [] } } }],
    ['a type with its own rule and no interface, for a caller it lets in', 'Solo', admin, { lookups: [], match: {} }],
    ['a type whose only interface has no @auth', 'Plain', ANONYMOUS, { lookups: [], match: {} }],
    ['own rule and an interface rule together', 'Both', { authenticated: true, variables: { USER: 'bob', ROLE: 'ADMIN' } }, { lookups: [], match: { owner: { $eq: 'bob' } } }],
    ['the cached plan for one caller is not served to another', 'Both', { authenticated: true, variables: { USER: 'carol', ROLE: 'ADMIN' } }, { lookups: [], match: { owner: { $eq: 'carol' } } }],
  ])('authPlan: %s', (_case, typeName, caller, plan) => {
    expect(authPlan(model, typeName, 'query', caller)).toEqual(plan);
  });

  test('the same caller on another operation gets that operation\'s plan', () => {
    expect(authPlan(model, 'Solo', 'query', bob)).toEqual({ lookups: [], match: { _id: { $in: [] } } });
    expect(authPlan(model, 'Solo', 'update', bob)).toEqual({ lookups: [], match: {} });
  });

  test('an unknown type: authPlan refuses it, isUnrestricted has nothing to restrict', () => {
    expect(() => authPlan(model, 'Nope', 'query', bob)).toThrow(new AuthRuleError('unknown type Nope'));
    expect(isUnrestricted(model, 'Nope', 'query', bob)).toBe(true);
  });

  test.each<[string, string, boolean]>([
    ['Solo', 'query', false],
    ['Solo', 'add', true],
    ['Plain', 'query', true],
    ['Both', 'query', false],
  ])('isUnrestricted(%s, %s) → %s', (typeName, operation, unrestricted) => {
    expect(isUnrestricted(model, typeName, operation as 'query', ANONYMOUS)).toBe(unrestricted);
  });

  test('ClosedByDefault: a type without @auth is unrestricted for an authenticated caller only', () => {
    const closed = modelOf(`type Open {\n  id: ID!\n}\n${authorizationLine({ closedByDefault: true })}\n`);
    expect(isUnrestricted(closed, 'Open', 'query', bob)).toBe(true);
    expect(isUnrestricted(closed, 'Open', 'query', ANONYMOUS)).toBe(false);
    expect(isUnrestricted(modelOf('type Open {\n  id: ID!\n}\n'), 'Open', 'query', ANONYMOUS)).toBe(true);
  });

  test('ClosedByDefault: a type whose only interface has no @auth is closed to anonymous callers too', () => {
    const closed = modelOf(`interface Named {\n  name: String\n}\ntype Plain implements Named {\n  id: ID!\n}\n${authorizationLine({ closedByDefault: true })}\n`);
    expect(authPlan(closed, 'Plain', 'query', ANONYMOUS)).toEqual({ lookups: [], match: { _id: { $in: [] } } });
    expect(isUnrestricted(closed, 'Plain', 'query', ANONYMOUS)).toBe(false);
    expect(authPlan(closed, 'Plain', 'query', bob)).toEqual({ lookups: [], match: {} });
  });
});
