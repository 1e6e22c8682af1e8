import { gql, uploadSchema } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine, tokenFor } from './keys.js';

/**
 * A rule whose `regexp` filter takes its pattern from a claim: the schema is accepted at upload (the check
 * stands the claim in with a pattern), and each caller sees the objects its own pattern matches.
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
