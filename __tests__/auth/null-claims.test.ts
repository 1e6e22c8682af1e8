import { activateSchema, gql } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine, tokenFor } from './keys.js';

/**
 * A claim present but null is no value: a rule that needs it matches nothing. (Used as null, the owner
 * rule's `eq: null` would mean "objects without an owner", and such a token would see those.)
 */
const SCHEMA = `
type Memo @auth(query: { rule: """query($USER: String!) { queryMemo(filter: { owner: { eq: $USER } }) { __typename } }""" }) {
  id: ID!
  text: String! @search(by: [hash])
  owner: String @search(by: [hash])
}
${authorizationLine({ header: 'X-Auth-Token' })}
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  const { body } = await gql(server.url, 'mutation { addMemo(input: [{ text: "mine", owner: "alice" }, { text: "nobody\'s" }]) { numUids } }', undefined, {
    'X-Auth-Token': tokenFor({ USER: 'alice' }),
  });
  expect(body).toEqual({ data: { addMemo: { numUids: 2 } } });
});

afterAll(async () => {
  await server?.close();
});

test.each<[string, Record<string, unknown>, string[]]>([
  ['the owner sees their memo', { USER: 'alice' }, ['mine']],
  ['a null USER claim sees nothing, not the memos without an owner', { USER: null }, []],
  ['no USER claim sees nothing', { ROLE: 'x' }, []],
])('%s', async (_name, claims, texts) => {
  const { status, body } = await gql(server.url, '{ queryMemo(order: { asc: text }) { text } aggregateMemo { count } }', undefined, { 'X-Auth-Token': tokenFor(claims) });
  expect(status).toBe(200);
  expect(body).toEqual({ data: { queryMemo: texts.map((text) => ({ text })), aggregateMemo: { count: texts.length } } });
});
