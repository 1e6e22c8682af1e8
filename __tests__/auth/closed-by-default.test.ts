/** An HS256 schema with `ClosedByDefault: true`, over HTTP. */
import { activateSchema, gql } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine, tokenFor } from './keys.js';

const SCHEMA = `
type Note @auth(query: { rule: """query($USER: String!) { queryNote(filter: { owner: { eq: $USER } }) { __typename } }""" }) {
  id: ID!
  owner: String! @search(by: [hash])
  text: String
}

type Tag {
  id: ID!
  label: String! @search(by: [hash])
}

${authorizationLine({ algo: 'HS256', header: 'Authorization', closedByDefault: true })}
`;

const hs = (claims: Record<string, unknown>) => ({ authorization: `Bearer ${tokenFor(claims, { algorithm: 'HS256' })}` });

let server: TestServer;

async function data(query: string, headers: Record<string, string> = {}): Promise<Record<string, any>> {
  const { status, body } = await gql(server.url, query, undefined, headers);
  if (status !== 200 || body.errors) throw new Error(`HTTP ${status}: ${JSON.stringify(body)}`);
  return body.data as Record<string, any>;
}

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
});

afterAll(async () => {
  await server?.close();
});

test('a type without @auth is closed to anonymous callers: adds are refused, reads see nothing', async () => {
  const { body } = await gql(server.url, 'mutation { addTag(input: [{ label: "x" }]) { numUids } }');
  expect(body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  await data('mutation { addTag(input: [{ label: "red" }]) { numUids } }', hs({ USER: 'alice' }));
  expect((await data('{ queryTag { label } }')).queryTag).toEqual([]);
  expect((await data('{ aggregateTag { count } }')).aggregateTag).toEqual({ count: 0 });
  expect((await data('mutation { deleteTag(filter: {}) { numUids } }')).deleteTag.numUids).toBe(0);
});

test('an HS256 token opens it; the header is the standard Authorization header with Bearer', async () => {
  expect((await data('{ queryTag { label } }', hs({ USER: 'alice' }))).queryTag).toEqual([{ label: 'red' }]);
});

test('a type with @auth follows its rules, for anonymous callers too', async () => {
  await data('mutation { addNote(input: [{ owner: "alice", text: "mine" }, { owner: "bob", text: "his" }]) { numUids } }');
  expect((await data('{ queryNote { text } }', hs({ USER: 'bob' }))).queryNote).toEqual([{ text: 'his' }]);
  expect((await data('{ queryNote { text } }')).queryNote).toEqual([]);
});

test('an RS256 token where HS256 is configured: 401', async () => {
  const { status, body } = await gql(server.url, '{ queryTag { label } }', undefined, { authorization: `Bearer ${tokenFor({ USER: 'alice' })}` });
  expect(status).toBe(401);
  expect(body.errors?.[0]).toMatchObject({ message: 'invalid token in header Authorization: invalid algorithm', extensions: { code: 'UNAUTHENTICATED' } });
});
