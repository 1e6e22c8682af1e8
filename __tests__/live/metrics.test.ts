/**
 * Issue 15 follow-up: the subscription metrics, scraped from GET /metrics after subscriptions over
 * WebSocket whose effect is known exactly.
 */
import { activateSchema, gqlData } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { scrapeMetrics, sumOf, valueOf, type Sample } from '../observe/prometheus-text.js';
import { record, wsClient, type TestClient } from './ws-client.js';

const SCHEMA = `
type Note @withSubscription {
  id: ID!
  text: String! @id
  views: Int
}
`;

const NOTES = 'subscription { queryNote(order: { asc: text }) { text } }';
const RUNNING = 'autograph_subscriptions_running';
const RERUNS = 'autograph_subscription_reruns_total';
const RESULTS = 'autograph_subscription_results_total';
const REFUSED = 'autograph_subscriptions_refused_total';

let server: TestServer;
const clients: TestClient[] = [];

function client(): TestClient {
  const opened = wsClient(server.url);
  clients.push(opened);
  return opened;
}

beforeEach(async () => {
  server = await startTestServer({ subscriptions: { debounceMs: 5, maxPerConnection: 1 } });
  await activateSchema(server.url, SCHEMA);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((opened) => opened.dispose()));
  await server.close();
});

const grew = (before: readonly Sample[], after: readonly Sample[], name: string, labels: Record<string, string> = {}) =>
  sumOf(after, name, labels) - sumOf(before, name, labels);

test('reports running subscriptions, re-runs, and results delivered or skipped as unchanged', async () => {
  const before = await scrapeMetrics(server.url);
  expect(valueOf(before, RUNNING)).toBe(0);
  const subscriber = client();
  const feed = record(subscriber, { query: NOTES });
  expect(await feed.nextResult()).toEqual({ data: { queryNote: [] } });
  expect(valueOf(await scrapeMetrics(server.url), RUNNING)).toBe(1);

  await gqlData(server.url, 'mutation { addNote(input: [{ text: "a", views: 0 }]) { numUids } }');
  expect(await feed.nextResult()).toEqual({ data: { queryNote: [{ text: 'a' }] } });
  // A field the subscription does not select: a re-run whose result equals the last one sent.
  const reruns = server.app.liveRegistry.stats.reruns;
  await gqlData(server.url, 'mutation { updateNote(input: { filter: { text: { eq: "a" } }, set: { views: 1 } }) { numUids } }');
  await until(() => server.app.liveRegistry.stats.reruns === reruns + 1 && server.app.liveRegistry.stats.unchanged === 1);

  const during = await scrapeMetrics(server.url);
  expect(valueOf(during, RUNNING)).toBe(1);
  expect(grew(before, during, RERUNS)).toBe(2);
  expect(grew(before, during, RESULTS, { outcome: 'delivered' })).toBe(2);
  expect(grew(before, during, RESULTS, { outcome: 'unchanged' })).toBe(1);
  expect(feed.results).toHaveLength(2);

  await subscriber.dispose();
  await until(() => server.app.liveRegistry.size === 0);
  const after = await scrapeMetrics(server.url);
  expect(valueOf(after, RUNNING)).toBe(0);
  expect(grew(before, after, REFUSED)).toBe(0);
});

test('counts refused subscriptions by their error code', async () => {
  const before = await scrapeMetrics(server.url);
  const subscriber = client();
  const running = record(subscriber, { query: NOTES });
  await running.nextResult();

  const cases = [
    { payload: { query: 'subscription { queryNote { nope } }' }, code: 'GRAPHQL_VALIDATION_FAILED' },
    { payload: { query: '{ queryNote { text } }' }, code: 'BAD_REQUEST' },
    { payload: { query: NOTES }, code: 'TOO_MANY_SUBSCRIPTIONS' },
  ];
  for (const { payload, code } of cases) {
    const refused = record(subscriber, payload);
    await refused.ended();
    expect((refused.error as { extensions?: { code?: string } }[])[0]?.extensions?.code).toBe(code);
  }

  const after = await scrapeMetrics(server.url);
  expect(grew(before, after, REFUSED, { code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
  expect(grew(before, after, REFUSED, { code: 'BAD_REQUEST' })).toBe(1);
  expect(grew(before, after, REFUSED, { code: 'TOO_MANY_SUBSCRIPTIONS' })).toBe(1);
  expect(grew(before, after, REFUSED)).toBe(3);
  expect(valueOf(after, RUNNING)).toBe(1);
});
