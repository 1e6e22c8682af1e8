/**
 * Apollo Client 4 as a front-end uses it: `GraphQLWsLink` for subscriptions, `HttpLink` for the rest (a
 * split link), the persisted query link in front of both; and persisted queries by hash over graphql-ws.
 */
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { getMainDefinition } from '@apollo/client/utilities';
import { createHash } from 'node:crypto';
import { activateSchema } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { record, wsClient, type TestClient } from './ws-client.js';

const SCHEMA = `type Note @withSubscription {
  id: ID!
  text: String! @search(by: [hash])
}`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let server: TestServer;
const clients: TestClient[] = [];

beforeEach(async () => {
  server = await startTestServer({ subscriptions: { debounceMs: 5 } });
  await activateSchema(server.url, SCHEMA);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
  await server.close();
});

function apolloClient(): ApolloClient {
  const ws = wsClient(server.url);
  clients.push(ws);
  const isSubscription = ({ query }: ApolloLink.Operation) => {
    const definition = getMainDefinition(query);
    return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
  };
  return new ApolloClient({
    cache: new InMemoryCache(),
    link: createPersistedQueryLink({ sha256 }).concat(
      ApolloLink.split(isSubscription, new GraphQLWsLink(ws), new HttpLink({ uri: `${server.url}/graphql` })),
    ),
  });
}

test('useSubscription’s path: GraphQLWsLink receives the initial result and one per change', async () => {
  const client = apolloClient();
  const received: unknown[] = [];
  const errors: unknown[] = [];
  const subscription = client
    .subscribe({ query: gql`subscription Notes { queryNote(order: { asc: text }) { id text } }` })
    .subscribe({ next: (result) => received.push(result.data), error: (error) => errors.push(error) });
  await until(() => received.length === 1);
  expect(received[0]).toEqual({ queryNote: [] });

  const added = await client.mutate({ mutation: gql`mutation { addNote(input: [{ text: "hello" }]) { note { id text } } }` });
  const id = (added.data as { addNote: { note: Array<{ id: string }> } }).addNote.note[0]!.id;
  await until(() => received.length === 2);
  expect(received[1]).toEqual({ queryNote: [{ __typename: 'Note', id, text: 'hello' }] });
  expect(errors).toEqual([]);
  subscription.unsubscribe();
  await until(() => server.app.liveRegistry.size === 0);
});

test('a subscription by persisted query hash: unknown, then registered with its text, then by hash alone', async () => {
  const query = 'subscription { aggregateNote { count } }';
  const persisted = (withQuery: boolean) => ({
    ...(withQuery ? { query } : { query: '' }),
    extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
  });
  const ws = wsClient(server.url);
  clients.push(ws);

  const unknown = record(ws, persisted(false));
  await unknown.ended();
  expect(unknown.error).toEqual([{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }]);

  const registering = record(ws, persisted(true));
  expect(await registering.nextResult()).toEqual({ data: { aggregateNote: { count: 0 } } });
  const byHash = record(ws, persisted(false));
  expect(await byHash.nextResult()).toEqual({ data: { aggregateNote: { count: 0 } } });
});
