/**
 * Two service instances over one store: a write through either reaches the subscribers of both. On the
 * embedded store they share the store object (one process); on MongoDB (MONGODB_URI, or the wire test
 * server, a standalone without change streams) the second opens its own connection to the same database
 * and hears the first one's writes through the change feed (change streams, or the polled write counters).
 */
import { MongoStore, openMongoStore } from '../../src/store/mongo/mongo-store.js';
import type { Store } from '../../src/store/port.js';
import { activateSchema, gqlData } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { overriding } from '../helpers/store-wrap.js';
import { until } from '../helpers/wait.js';
import { record, wsClient, type TestClient } from './ws-client.js';

const SCHEMA = `type Note @withSubscription {
  id: ID!
  text: String! @search(by: [hash])
}`;

let first: TestServer;
let second: TestServer;
const clients: TestClient[] = [];

/** A second store on the first one's data. */
async function secondStore(store: Store): Promise<Store> {
  if (store instanceof MongoStore) {
    return openMongoStore(process.env.MONGODB_URI!, { dbName: store.databaseName, changePollMS: 20 });
  }
  // One process, one embedded store: the second service borrows it and leaves closing it to the first.
  return overriding(store, { close: async () => undefined });
}

beforeEach(async () => {
  first = await startTestServer({ subscriptions: { debounceMs: 5 } });
  await activateSchema(first.url, SCHEMA);
  second = await startTestServer({ store: await secondStore(first.store), subscriptions: { debounceMs: 5 } });
  await until(() => second.app.active !== undefined);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
  await second.close();
  await first.close();
});

function subscribeTo(server: TestServer) {
  const client = wsClient(server.url);
  clients.push(client);
  return record(client, { query: 'subscription { queryNote(order: { asc: text }) { text } }' });
}

test('a write through one instance reaches the subscribers of both', async () => {
  const onFirst = subscribeTo(first);
  const onSecond = subscribeTo(second);
  expect(await onFirst.nextResult()).toEqual({ data: { queryNote: [] } });
  expect(await onSecond.nextResult()).toEqual({ data: { queryNote: [] } });

  await gqlData(first.url, 'mutation { addNote(input: [{ text: "from first" }]) { numUids } }');
  expect(await onSecond.nextResult()).toEqual({ data: { queryNote: [{ text: 'from first' }] } });
  expect(await onFirst.nextResult()).toEqual({ data: { queryNote: [{ text: 'from first' }] } });

  await gqlData(second.url, 'mutation { addNote(input: [{ text: "from second" }]) { numUids } }');
  const both = { data: { queryNote: [{ text: 'from first' }, { text: 'from second' }] } };
  expect(await onFirst.nextResult()).toEqual(both);
  expect(await onSecond.nextResult()).toEqual(both);
});
