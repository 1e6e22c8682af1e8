import { authorizationLine, tokenFor } from '../auth/keys';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/**
 * A nested object a lambda answers with an ID gets the fields it lacks from its stored object only when
 * the caller's @auth rules let the caller see that object: naming an ID reveals nothing.
 */

const HEADER = 'X-Auth-Token';
const OWNER_RULE = 'query($USER: String!) { queryNote(filter: { owner: { eq: $USER } }) { __typename } }';

const SCHEMA = `
type Note @auth(query: { rule: """${OWNER_RULE}""" }) {
  id: ID!
  owner: String! @search(by: [hash])
  text: String
}

type Shelf {
  id: ID!
  notes: [Note]
}

type Query {
  shelfOf(noteIds: [ID!]!): Shelf @lambda
}

${authorizationLine({ header: HEADER })}
`;

const alice = { [HEADER]: tokenFor({ USER: 'alice' }) };

let server: TestServer;
const noteIds: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, `self.addGraphQLResolvers({
    'Query.shelfOf': ({ args }) => ({ notes: args.noteIds.map((id) => ({ id })) }),
  });`);
  const { body } = await gql(server.url, 'mutation { addNote(input: [{ owner: "alice", text: "alice\'s" }, { owner: "bob", text: "bob\'s" }]) { numUids } }');
  expect(body).toEqual({ data: { addNote: { numUids: 2 } } });
  for (const note of await server.store.collection('Note').find({})) noteIds[note.owner as string] = note._id;
});

afterAll(() => server.close());

test('the caller sees the stored fields of the objects its rules allow, and only the answered ones of the others', async () => {
  const { body } = await gql(server.url, 'query($ids: [ID!]!) { shelfOf(noteIds: $ids) { notes { id text } } }', { ids: [noteIds.alice, noteIds.bob] }, alice);
  expect(body).toEqual({ data: { shelfOf: { notes: [{ id: noteIds.alice, text: 'alice\'s' }, { id: noteIds.bob, text: null }] } } });
});
