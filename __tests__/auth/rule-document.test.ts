/** Rule texts → parsed rules (role checks and query rules), and the AuthRuleError each malformed text gets. */
import { print, type TypeNode, type ValueNode } from 'graphql';
import { AuthRuleError } from '../../src/auth/errors.js';
import { parseRule, type ParsedRule, type RuleSelection } from '../../src/auth/rule-document.js';

/** A parsed rule with its GraphQL nodes printed, so a table can state it as plain data. */
function printed(rule: ParsedRule): unknown {
  const text = (node: ValueNode | TypeNode | undefined) => (node === undefined ? undefined : print(node));
  const selection = (level: RuleSelection): unknown => ({
    filter: text(level.filter),
    fields: level.fields.map((field) => ({ name: field.name, ...(selection(field) as object) })),
  });
  if (rule.kind === 'role') return { kind: 'role', claim: rule.claim, operator: rule.operator, value: text(rule.value) };
  return {
    kind: 'query',
    queryField: rule.queryField,
    variables: rule.variables.map((variable) => ({ name: variable.name, type: text(variable.type), defaultValue: text(variable.defaultValue) })),
    root: selection(rule.root),
  };
}

function refusal(text: string): string {
  try {
    parseRule(text);
  } catch (error) {
    if (error instanceof AuthRuleError) return error.message;
    throw error;
  }
  throw new Error('the rule was accepted');
}

describe('parseRule: role checks', () => {
  test.each<[string, string, unknown]>([
    ['eq', '{ $ROLE: { eq: "ADMIN" } }', { kind: 'role', claim: 'ROLE', operator: 'eq', value: '"ADMIN"' }],
    ['in, without spaces', '{$ROLE:{in:["A", "B"]}}', { kind: 'role', claim: 'ROLE', operator: 'in', value: '["A", "B"]' }],
    ['regexp, over several lines', '{\n  $EMAIL: {\n    regexp: "/@example.com$/"\n  }\n}', { kind: 'role', claim: 'EMAIL', operator: 'regexp', value: '"/@example.com$/"' }],
    ['a claim name with underscores and digits, spaces around', '  { $_app_role2 : { eq: 2 } }  ', { kind: 'role', claim: '_app_role2', operator: 'eq', value: '2' }],
  ])('%s', (_case, text, expected) => {
    expect(printed(parseRule(text))).toEqual(expected);
  });

  test.each<[string, string, string]>([
    ['no condition object', '{ $ROLE: "ADMIN" }', 'role rule "{ $ROLE: \\"ADMIN\\" }": expected one condition like { eq: "ADMIN" } after $ROLE'],
    ['two conditions', '{ $ROLE: { eq: "A", in: ["B"] } }', 'role rule "{ $ROLE: { eq: \\"A\\", in: [\\"B\\"] } }": expected one condition like { eq: "ADMIN" } after $ROLE'],
    ['no condition at all', '{ $ROLE: {} }', 'role rule "{ $ROLE: {} }": expected one condition like { eq: "ADMIN" } after $ROLE'],
    ['an unknown operator', '{ $ROLE: { ne: "A" } }', 'role rule "{ $ROLE: { ne: \\"A\\" } }": unknown operator "ne" (known: eq, in, regexp)'],
    ['a condition that is not a GraphQL value', '{ $ROLE: { eq: } }', 'role rule "{ $ROLE: { eq: } }": the condition is not a GraphQL value (Syntax Error: Unexpected "}".)'],
  ])('%s: AuthRuleError', (_case, text, message) => {
    expect(refusal(text)).toBe(message);
  });
});

describe('parseRule: query rules', () => {
  test('variables with their types and defaults, filters and nested selections', () => {
    const text = 'query($USER: String! = "guest", $IDS: [ID!]) { queryTask(filter: { id: $IDS }) { __typename title user(filter: { username: { eq: $USER } }) { team { name } } } }';
    expect(printed(parseRule(text))).toEqual({
      kind: 'query',
      queryField: 'queryTask',
      variables: [
        { name: 'USER', type: 'String!', defaultValue: '"guest"' },
        { name: 'IDS', type: '[ID!]', defaultValue: undefined },
      ],
      root: {
        filter: '{id: $IDS}',
        fields: [
          { name: 'title', filter: undefined, fields: [] },
          {
            name: 'user',
            filter: '{username: {eq: $USER}}',
            fields: [{ name: 'team', filter: undefined, fields: [{ name: 'name', filter: undefined, fields: [] }] }],
          },
        ],
      },
    });
  });

  test('a rule without variables, filter or selections besides __typename', () => {
    expect(printed(parseRule('{ queryTask { __typename } }'))).toEqual({ kind: 'query', queryField: 'queryTask', variables: [], root: { filter: undefined, fields: [] } });
  });

  test('a query rule is of kind query, and keeps no source locations (a cached rule would hold every token of its text)', () => {
    const rule = parseRule('query($USER: String!) { queryTask(filter: { owner: { eq: $USER } }) { user { __typename } } }');
    expect(rule.kind).toBe('query');
    if (rule.kind !== 'query') return;
    expect([rule.variables[0]?.type.loc, rule.root.filter?.loc]).toEqual([undefined, undefined]);
    expect(rule.root.filter).toBeDefined();
  });

  test('the same text is parsed once: later calls answer the cached rule', () => {
    const text = 'query { queryNote(filter: { shared: true }) { __typename } }';
    expect(parseRule(text)).toBe(parseRule(text));
  });

  test.each<[string, string, string]>([
    ['not GraphQL', 'query { queryTask {', 'the rule is not a valid GraphQL query: Syntax Error: Expected Name, found <EOF>.'],
    ['a mutation', 'mutation { addTask(input: []) { numUids } }', 'a rule must be exactly one query operation (no mutations, subscriptions or fragment definitions)'],
    ['a subscription', 'subscription { queryTask { id } }', 'a rule must be exactly one query operation (no mutations, subscriptions or fragment definitions)'],
    ['two queries', 'query A { queryTask { id } } query B { queryTask { id } }', 'a rule must be exactly one query operation (no mutations, subscriptions or fragment definitions)'],
    ['a fragment definition first', 'fragment F on Task { id } query { queryTask { ...F } }', 'a rule must be exactly one query operation (no mutations, subscriptions or fragment definitions)'],
    ['a fragment definition alone', 'fragment F on Task { id }', 'a rule must be exactly one query operation (no mutations, subscriptions or fragment definitions)'],
    ['two query fields', '{ queryTask { id } queryUser { id } }', 'a rule selects exactly one query field such as queryTask; found 2'],
    ['only __typename', '{ __typename }', 'a rule selects exactly one query field such as queryTask; found 0'],
    ['a get field', '{ getTask { id } }', 'a rule must select a query<Type> field; found getTask'],
    ['an argument other than filter', '{ queryTask(first: 1) { id } }', 'queryTask: rules take only a filter argument, found "first"'],
    ['an argument beside the filter', '{ queryTask(filter: {}, order: { asc: title }) { id } }', 'queryTask: rules take only a filter argument, found "order"'],
    ['a fragment spread in a field', '{ queryTask { ...F } }', 'queryTask: fragments are not supported in rules; select fields directly'],
    ['an inline fragment at the top', '{ ... on Query { queryTask { id } } }', 'the rule: fragments are not supported in rules; select fields directly'],
    ['text before a role check', 'x { $ROLE: { eq: "ADMIN" } }', 'the rule is not a valid GraphQL query: Syntax Error: Unexpected Name "x".'],
    ['text after a role check', '{ $ROLE: { eq: "ADMIN" } } x', 'the rule is not a valid GraphQL query: Syntax Error: Expected Name, found "$".'],
  ])('%s: AuthRuleError', (_case, text, message) => {
    expect(refusal(text)).toBe(message);
  });
});
