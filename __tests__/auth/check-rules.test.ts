/** `checkAuthRules`: every rule compiled at upload with stand-in claims, so broken rules are schema errors. */
import { checkAuthRules } from '../../src/auth/index.js';
import { modelOf } from './schema.js';

const NOPE = (variable: string, type: string) => `query($${variable}: ${type}) { queryItem(filter: { nope: { eq: $${variable} } }) { __typename } }`;
const NOPE_ERROR = 'the @auth rule for Item: ItemFilter: type Item has no field "nope"';

const itemSchema = (auth: string) => `
enum Level { LOW HIGH }
type Item @auth(${auth}) {
  id: ID!
  name: String @search(by: [hash])
}
`;

describe('checkAuthRules', () => {
  test('every declared variable gets a stand-in of its type, so well-typed rules raise nothing', () => {
    const rule = 'query($I: Int!, $L: Int64, $F: Float, $B: Boolean!, $D: DateTime, $S: [String!]!, $ID: ID, $E: Level, $NAME: String!) '
      + '{ queryItem(filter: { name: { eq: $NAME } }) { __typename } }';
    expect(checkAuthRules(modelOf(itemSchema(`query: { rule: "${rule}" }`)))).toEqual([]);
  });

  test('a DateTime variable stands in as a date the filter accepts', () => {
    const model = modelOf(`
type Event @auth(query: { rule: "query($SINCE: DateTime!) { queryEvent(filter: { at: { ge: $SINCE } }) { __typename } }" }) {
  id: ID!
  at: DateTime @search(by: [hour])
}
`);
    expect(checkAuthRules(model)).toEqual([]);
  });

  test('a String variable stands in as a regular expression, so a regexp filter on a claim compiles', () => {
    const model = modelOf(`
type Item @auth(query: { rule: "query($PATTERN: String!) { queryItem(filter: { name: { regexp: $PATTERN } }) { __typename } }" }) {
  id: ID!
  name: String @search(by: [regexp])
}
`);
    expect(checkAuthRules(model)).toEqual([]);
  });

  test('a list variable stands in as a list holding a value of its item type, which an id filter refuses unless it is an ID', () => {
    const ids = (type: string) => itemSchema(`query: { rule: "query($IDS: ${type}) { queryItem(filter: { id: $IDS }) { __typename } }" }`);
    expect(checkAuthRules(modelOf(ids('[ID!]!')))).toEqual([]);
    expect(checkAuthRules(modelOf(ids('[Int!]!')))).toEqual([
      { message: '@auth query rule of Item: the @auth rule for Item: ItemFilter.id: expected a list of IDs, got [1]', locations: [{ line: 3, column: 6 }] },
    ]);
  });

  const ITEM_WITH_NUMBER = (auth: string) => `
type Item @auth(${auth}) {
  id: ID!
  name: String @search(by: [hash])
  n: Int @search
}
`;

  test.each<[string, string, string[]]>([
    [
      'declared as Int! and as String! in two queries of one rule',
      'query: { and: [{ rule: "query($X: Int!) { queryItem(filter: { n: { eq: $X } }) { __typename } }" }, { rule: "query($X: String!) { queryItem(filter: { name: { eq: $X } }) { __typename } }" }] }',
      ['@auth query rule of Item: $X is declared as Int! and as String!, which no one claim can fit'],
    ],
    [
      'declared as ID!, as Int and as [Int!] (an integer fits all three)',
      'query: { or: [{ rule: "query($X: ID!) { queryItem { __typename } }" }, { rule: "query($X: Int) { queryItem(filter: { n: { eq: $X } }) { __typename } }" }, { rule: "query($X: [Int!]) { queryItem { __typename } }" }] }',
      [],
    ],
    [
      'declared as String and as ID under not',
      'query: { and: [{ rule: "query($X: String) { queryItem(filter: { name: { eq: $X } }) { __typename } }" }, { not: { rule: "query($X: ID) { queryItem { __typename } }" } }] }',
      [],
    ],
  ])('a variable %s', (_case, auth, messages) => {
    expect(checkAuthRules(modelOf(ITEM_WITH_NUMBER(auth)))).toEqual(messages.map((message) => ({ message, locations: [{ line: 2, column: 6 }] })));
  });

  test.each<[string, string, string[]]>([
    ['a broken rule under and', `query: { and: [{ rule: "{ $R: { eq: 1 } }" }, { rule: "${NOPE('X', 'String!')}" }] }`, [`@auth query rule of Item: ${NOPE_ERROR}`]],
    ['a broken rule under or', `add: { or: [{ rule: "{ $R: { eq: 1 } }" }, { rule: "${NOPE('X', 'Int!')}" }] }`, [`@auth add rule of Item: ${NOPE_ERROR}`]],
    ['a broken rule under not', `update: { not: { rule: "${NOPE('X', 'Boolean')}" } }`, [`@auth update rule of Item: ${NOPE_ERROR}`]],
    ['a list variable', `delete: { rule: "${NOPE('X', '[ID!]')}" }`, [`@auth delete rule of Item: ${NOPE_ERROR}`]],
    ['a DateTime variable', `password: { rule: "${NOPE('X', 'DateTime!')}" }`, [`@auth password rule of Item: ${NOPE_ERROR}`]],
    ['a float and an Int64 variable', `query: { rule: "query($A: Float, $B: Int64) { queryItem(filter: { nope: { eq: $A }, name: { eq: $B } }) { __typename } }" }`, [`@auth query rule of Item: ${NOPE_ERROR}`]],
    [
      'every operation, reported in the order query, add, update, delete, password',
      ['password', 'delete', 'update', 'add', 'query'].map((operation) => `${operation}: { rule: "${NOPE('X', 'String')}" }`).join(', '),
      ['query', 'add', 'update', 'delete', 'password'].map((operation) => `@auth ${operation} rule of Item: ${NOPE_ERROR}`),
    ],
  ])('%s', (_case, auth, messages) => {
    expect(checkAuthRules(modelOf(itemSchema(auth)))).toEqual(messages.map((message) => ({ message, locations: [{ line: 3, column: 6 }] })));
  });

  test('a rule text that does not parse (which the schema builder refuses first) is reported, not thrown', () => {
    const model = modelOf(itemSchema('query: { rule: "{ queryItem { __typename } }" }'));
    const item = model.types.get('Item')!;
    const broken = { ...model, types: new Map([['Item', { ...item, auth: { query: { rule: 'query { queryItem {' } } }]]) };
    expect(checkAuthRules(broken)).toEqual([
      { message: '@auth query rule of Item: the rule is not a valid GraphQL query: Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 3, column: 6 }] },
    ]);
  });
});
