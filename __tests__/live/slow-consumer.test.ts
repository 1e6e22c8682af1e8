/**
 * Issue 15 follow-up: a subscriber that stops reading while many writes happen. Its socket is paused (the
 * TCP window fills, so the server's sends stop completing); the service must not queue a result per write
 * for it, and once it reads again it must get the latest data.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { activateSchema, gqlData } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { record, wsUrl } from './ws-client.js';

const SCHEMA = `
type Item @withSubscription {
  id: ID!
  n: Int! @search
  version: Int
  blob: String
}
`;

const ITEMS = 200;
/** Each result is about ITEMS × BLOB_BYTES: large enough that a few of them fill the socket buffers. */
const BLOB_BYTES = 10_000;
const WRITES = 60;
/** More results than the kernel's socket buffers on loopback (a few MB) can hold of results this size. */
const MAX_RESULTS_WHILE_PAUSED = 12;

const ALL_ITEMS = '{ queryItem(order: { asc: n }) { n version blob } }';

let server: TestServer;
let client: Client | undefined;

beforeEach(async () => {
  server = await startTestServer({ subscriptions: { debounceMs: 0 } });
  await activateSchema(server.url, SCHEMA);
  const items = Array.from({ length: ITEMS }, (_, n) => ({ n, version: 0, blob: String(n % 10).repeat(BLOB_BYTES) }));
  await gqlData(server.url, 'mutation($items: [AddItemInput!]!) { addItem(input: $items) { numUids } }', { items });
});

afterEach(async () => {
  await client?.dispose();
  await server.close();
});

/** A graphql-ws client whose WebSocket the test can pause and resume, as a client that stops reading. */
function pausableClient(): { client: Client; socket: () => WebSocket } {
  let opened: WebSocket | undefined;
  const Capturing = class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols);
      opened = this;
    }
  };
  const made = createClient({ url: wsUrl(server.url), webSocketImpl: Capturing, retryAttempts: 0, lazy: true });
  return {
    client: made,
    socket: () => {
      if (!opened) throw new Error('the client has not opened its WebSocket yet');
      return opened;
    },
  };
}

test('a paused subscriber costs a bounded number of runs and results, then gets the final data', async () => {
  const pausable = pausableClient();
  client = pausable.client;
  const feed = record(client, { query: `subscription ${ALL_ITEMS}` });
  const initial = await feed.nextResult();
  expect(initial.data?.queryItem).toHaveLength(ITEMS);

  const registry = server.app.liveRegistry;
  const before = { ...registry.stats };
  pausable.socket().pause();
  for (let version = 1; version <= WRITES; version++) {
    const batchesSeen = registry.stats.batches;
    await gqlData(server.url, 'mutation($v: Int) { updateItem(input: { filter: { n: { eq: 0 } }, set: { version: $v } }) { numUids } }', { v: version });
    // Each write reaches the registry before the next (a polled change feed on a loaded machine would otherwise
    // hand over several writes as one batch, and the test would no longer show many batches against few runs).
    await until(() => registry.stats.batches > batchesSeen);
  }
  const paused = { ...registry.stats };
  const batches = paused.batches - before.batches;
  const reruns = paused.reruns - before.reruns;
  const delivered = paused.delivered - before.delivered;
  // The writes reached the registry as many batches, but a stalled subscriber is not re-run for each.
  expect(batches).toBeGreaterThan(MAX_RESULTS_WHILE_PAUSED * 2);
  expect(reruns).toBeLessThanOrEqual(MAX_RESULTS_WHILE_PAUSED);
  expect(delivered).toBeLessThanOrEqual(MAX_RESULTS_WHILE_PAUSED);
  expect(feed.results.length).toBe(1);

  pausable.socket().resume();
  const final = await gqlData(server.url, ALL_ITEMS);
  expect(final.queryItem[0].version).toBe(WRITES);
  await until(() => JSON.stringify(feed.results.at(-1)?.data) === JSON.stringify(final));
  expect(registry.stats.delivered - before.delivered).toBe(feed.results.length - 1);
  expect(feed.results.length - 1).toBeLessThanOrEqual(MAX_RESULTS_WHILE_PAUSED + 1);
});
