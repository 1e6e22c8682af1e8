import { gql, uploadSchema } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine, tokenFor } from './keys.js';

/**
 * Uploads whose @auth rules take claims as variables: the schema-time check stands each claim in with a
 * value of its declared type. A rule whose `regexp` filter takes its pattern from a claim is accepted (the
 * stand-in is a pattern), and each caller sees the objects its own pattern matches; a variable declared
 * with two types no one claim can fit is a schema error.
 */
const SCHEMA = `
type Note @auth(query: { rule: """query($PATTERN: String!) { queryNote(filter: { title: { regexp: $PATTERN } }) { __typename } }""" }) {
  id: ID!
  title: String! @search(by: [regexp, hash])
}
${authorizationLine()}
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

test('the schema is accepted, and each caller sees the titles its PATTERN claim matches', async () => {
  const upload = await uploadSchema(server.url, SCHEMA);
  expect(upload).toMatchObject({ status: 200, body: { data: { types: ['Note'] } } });
  expect(upload.body.errors).toBeUndefined();
  const added = await gql(server.url, 'mutation { addNote(input: [{ title: "alpha" }, { title: "beta" }, { title: "alps" }]) { numUids } }');
  expect(added.body).toEqual({ data: { addNote: { numUids: 3 } } });
  const titles = async (claims: Record<string, unknown>) =>
    (await gql(server.url, '{ queryNote(order: { asc: title }) { title } }', undefined, { 'X-Auth-Token': tokenFor(claims) })).body;
  expect(await titles({ PATTERN: '/^al/' })).toEqual({ data: { queryNote: [{ title: 'alpha' }, { title: 'alps' }] } });
  expect(await titles({ PATTERN: '/ET/i' })).toEqual({ data: { queryNote: [{ title: 'beta' }] } });
  expect(await titles({})).toEqual({ data: { queryNote: [] } });
});

test('a variable declared as Int! in one query of a rule and as String! in another: 400 BAD_SCHEMA naming it', async () => {
  const conflicting = `
type Item @auth(query: { and: [
  { rule: """query($X: Int!) { queryItem(filter: { n: { eq: $X } }) { __typename } }""" },
  { rule: """query($X: String!) { queryItem(filter: { name: { eq: $X } }) { __typename } }""" }
] }) {
  id: ID!
  name: String @search(by: [hash])
  n: Int @search
}
${authorizationLine()}
`;
  const upload = await uploadSchema(server.url, conflicting);
  expect(upload.status).toBe(400);
  expect(upload.body).toEqual({
    errors: [{
      message: '@auth query rule of Item: $X is declared as Int! and as String!, which no one claim can fit',
      locations: [{ line: 2, column: 6 }],
      extensions: { code: 'BAD_SCHEMA' },
    }],
  });
});
