/** Rules on an interface apply to every implementing type, with each type's own rules on top. */
import { activateSchema, gql } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine, tokenFor } from './keys.js';

const SCHEMA = `
interface Owned @auth(query: { rule: """query($USER: String!) { queryOwned(filter: { owner: { eq: $USER } }) { __typename } }""" }) {
  owner: String! @search(by: [hash])
  text: String! @search(by: [hash])
}

type Note implements Owned {
  id: ID!
}

type Memo implements Owned @auth(query: { rule: """query { queryMemo(filter: { pinned: true }) { __typename } }""" }) {
  id: ID!
  pinned: Boolean @search
}

${authorizationLine()}
`;

let server: TestServer;
const alice = { 'X-Auth-Token': tokenFor({ USER: 'alice' }) };

async function data(query: string, headers: Record<string, string> = {}): Promise<Record<string, any>> {
  const { status, body } = await gql(server.url, query, undefined, headers);
  if (status !== 200 || body.errors) throw new Error(`HTTP ${status}: ${JSON.stringify(body)}`);
  return body.data as Record<string, any>;
}

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await data('mutation { addNote(input: [{ owner: "alice", text: "note a" }, { owner: "bob", text: "note b" }]) { numUids } }');
  await data(`mutation { addMemo(input: [
    { owner: "alice", text: "memo a pinned", pinned: true },
    { owner: "alice", text: "memo a", pinned: false },
    { owner: "bob", text: "memo b pinned", pinned: true }
  ]) { numUids } }`);
});

afterAll(async () => {
  await server?.close();
});

test('queryOwned spans both collections, each narrowed by its rules', async () => {
  const result = await data('{ queryOwned(order: { asc: text }) { text __typename } }', alice);
  expect(result.queryOwned).toEqual([{ text: 'memo a pinned', __typename: 'Memo' }, { text: 'note a', __typename: 'Note' }]);
});

test('aggregateOwned counts only what the caller may see', async () => {
  expect((await data('{ aggregateOwned { count } }', alice)).aggregateOwned).toEqual({ count: 2 });
  expect((await data('{ aggregateOwned { count } }')).aggregateOwned).toEqual({ count: 0 });
});

test('the implementing types\' own queries carry the interface rule', async () => {
  expect((await data('{ queryNote { text } }', alice)).queryNote).toEqual([{ text: 'note a' }]);
  expect((await data('{ queryMemo { text } }', alice)).queryMemo).toEqual([{ text: 'memo a pinned' }]);
});
