/** A `@lambda` query marked `@withSubscription` (Dgraph: `@custom(dql:)`): re-run when stored data changes. */
import { loadLambda } from '../custom-e2e/lambda-upload.js';
import { activateSchema, gqlData } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { record, wsClient, type TestClient } from './ws-client.js';

const SCHEMA = `type Note {
  id: ID!
  text: String!
}
type Query {
  noteCount: Int @lambda @withSubscription
}`;

const SCRIPT = `self.addGraphQLResolvers({
  'Query.noteCount': async ({ graphql }) => (await graphql('{ aggregateNote { count } }')).data.aggregateNote.count,
});`;

let server: TestServer;
let client: TestClient;

beforeEach(async () => {
  server = await startTestServer({ subscriptions: { debounceMs: 5 } });
  await loadLambda(server.url, SCRIPT);
  await activateSchema(server.url, SCHEMA);
  client = wsClient(server.url);
});

afterEach(async () => {
  await client.dispose();
  await server.close();
});

test('sends the lambda’s answer at start and again after a write to any type it may read', async () => {
  const feed = record(client, { query: 'subscription { noteCount }' });
  expect(await feed.nextResult()).toEqual({ data: { noteCount: 0 } });
  await gqlData(server.url, 'mutation { addNote(input: [{ text: "a" }, { text: "b" }]) { numUids } }');
  expect(await feed.nextResult()).toEqual({ data: { noteCount: 2 } });
});
