import { authorizationLine, tokenFor } from '../auth/keys';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/** A lambda's graphql() runs as the caller: with the caller's token, under the schema's @auth rules. */

const HEADER = 'X-Auth-Token';
const OWNER_RULE = 'query($USER: String!) { queryNote(filter: { owner: { eq: $USER } }) { __typename } }';

const SCHEMA = `
type Note @auth(query: { rule: """${OWNER_RULE}""" }) {
  id: ID!
  owner: String! @search(by: [hash])
  text: String!
}

type Query {
  myNoteTexts: [String] @lambda
}

${authorizationLine({ header: HEADER })}
`;

const alice = { [HEADER]: tokenFor({ USER: 'alice' }) };
const bob = { [HEADER]: tokenFor({ USER: 'bob' }) };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, `self.addGraphQLResolvers({
    'Query.myNoteTexts': async ({ graphql }) => {
      const answer = await graphql('{ queryNote(order: { asc: text }) { text } }');
      if (answer.errors) throw new Error(answer.errors[0].message);
      return answer.data.queryNote.map((note) => note.text);
    },
  });`);
  // Note has no add rule, so anyone may add.
  const { body } = await gql(server.url, `mutation { addNote(input: [
    { owner: "alice", text: "alice: first" },
    { owner: "alice", text: "alice: second" },
    { owner: "bob", text: "bob: only" }
  ]) { numUids } }`);
  expect(body).toEqual({ data: { addNote: { numUids: 3 } } });
});

afterAll(() => server.close());

test('alice\'s lambda sees only alice\'s notes, bob\'s only bob\'s', async () => {
  expect((await gql(server.url, '{ myNoteTexts }', undefined, alice)).body).toEqual({ data: { myNoteTexts: ['alice: first', 'alice: second'] } });
  expect((await gql(server.url, '{ myNoteTexts }', undefined, bob)).body).toEqual({ data: { myNoteTexts: ['bob: only'] } });
});

test('an anonymous caller\'s lambda sees no notes', async () => {
  expect((await gql(server.url, '{ myNoteTexts }')).body).toEqual({ data: { myNoteTexts: [] } });
});
