import { createHash } from 'node:crypto';
import { sha256Hex } from '../../src/persisted/index.js';
import { countRoundTrips, type RoundTripCounter } from '../../src/store/counting.js';
import { TASK_USER_SCHEMA } from '../fixtures/schemas';
import { activateSchema, gql, gqlData, gqlGet } from '../helpers/gql';
import { startCountingTestServer, startTestServer, type TestServer } from '../helpers/server';
import { parsePrometheusText, scrapeMetrics, sumOf, valueOf, type Sample } from './prometheus-text';

/** Issue 16: Prometheus metrics scraped from GET /metrics, after requests whose effect is known exactly. */

const REQUESTS = 'autograph_graphql_requests_total';
const DURATION_COUNT = 'autograph_graphql_request_duration_seconds_count';
const STORE_CALLS = 'autograph_store_call_duration_seconds_count';

let server: TestServer;
let counter: RoundTripCounter;

beforeAll(async () => {
  ({ server, counter } = await startCountingTestServer());
  await activateSchema(server.url, TASK_USER_SCHEMA);
  await gqlData(server.url, 'mutation Seed { addTask(input: [{ title: "write", completed: false, user: { username: "ada", name: "Ada" } }]) { numUids } }');
});

afterAll(() => server.close());

/** How much each sample grew between two scrapes (samples absent before count from 0). */
function growth(before: readonly Sample[], after: readonly Sample[], name: string, labels: Record<string, string>): number {
  return sumOf(after, name, labels) - sumOf(before, name, labels);
}

describe('GET /metrics', () => {
  it('answers the Prometheus text format', async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parsePrometheusText(await response.text());
    expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('counts requests by operation type, operation name and outcome, and times each', async () => {
    const before = await scrapeMetrics(server.url);
    await gqlData(server.url, 'query ListTasks { queryTask { title } }');
    await gqlData(server.url, 'query ListTasks { queryTask { title } }');
    await gqlData(server.url, '{ queryUser { username } }');
    const invalid = await gql(server.url, 'query Broken { queryTask { nope } }');
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const badInput = await gql(server.url, 'query Get($id: ID!) { getTask(id: $id) { title } }', {});
    expect(badInput.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    await gqlData(server.url, 'mutation Rename { updateTask(input: { filter: {}, set: { title: "read" } }) { numUids } }');
    const after = await scrapeMetrics(server.url);

    const grew = (labels: Record<string, string>) => growth(before, after, REQUESTS, labels);
    expect(grew({ operation_type: 'query', operation_name: 'ListTasks', outcome: 'ok' })).toBe(2);
    expect(grew({ operation_type: 'query', operation_name: '', outcome: 'ok' })).toBe(1);
    // An operation that did not validate is reported without its (client-chosen) name.
    expect(grew({ operation_type: 'unknown', operation_name: '', outcome: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
    expect(grew({ operation_name: 'Broken' })).toBe(0);
    expect(grew({ operation_type: 'query', operation_name: 'Get', outcome: 'BAD_USER_INPUT' })).toBe(1);
    expect(grew({ operation_type: 'mutation', operation_name: 'Rename', outcome: 'ok' })).toBe(1);
    expect(grew({})).toBe(6);
    expect(growth(before, after, DURATION_COUNT, { operation_type: 'query', operation_name: 'ListTasks' })).toBe(2);
    expect(growth(before, after, DURATION_COUNT, {})).toBe(6);
  });

  it('counts an HTTP-level refusal of /graphql by its error code', async () => {
    const before = await scrapeMetrics(server.url);
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(response.status).toBe(400);
    const after = await scrapeMetrics(server.url);
    expect(growth(before, after, REQUESTS, { operation_type: 'unknown', operation_name: '', outcome: 'BAD_REQUEST' })).toBe(1);
    expect(growth(before, after, REQUESTS, {})).toBe(1);
  });

  it('counts the store round trips of requests by Store method, as many as the store received', async () => {
    const before = await scrapeMetrics(server.url);
    counter.reset();
    await gqlData(server.url, '{ queryUser { username tasks { title } } }');
    await gqlData(server.url, '{ aggregateTask { count } }');
    const calls = { ...counter.byOperation };
    const after = await scrapeMetrics(server.url);
    expect(Object.keys(calls).length).toBeGreaterThan(0);
    for (const method of ['find', 'findPerKey', 'count', 'aggregate', 'insertMany', 'updateMany', 'deleteMany']) {
      expect({ method, calls: growth(before, after, STORE_CALLS, { method }) }).toEqual({ method, calls: calls[method] ?? 0 });
    }
  });

  it('counts persisted query misses, registrations and hits', async () => {
    const query = 'query Titles { queryTask { title } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256Hex(query) } };
    const before = await scrapeMetrics(server.url);
    const miss = await gqlGet(server.url, { extensions });
    expect(miss.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const register = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, extensions }),
    });
    expect(register.status).toBe(200);
    expect((await gqlGet(server.url, { extensions })).body.errors).toBeUndefined();
    expect((await gqlGet(server.url, { extensions })).body.errors).toBeUndefined();
    const after = await scrapeMetrics(server.url);
    const persisted = (result: string) => growth(before, after, 'autograph_persisted_queries_total', { result });
    expect([persisted('miss'), persisted('register'), persisted('hit')]).toEqual([1, 1, 2]);
    expect(growth(before, after, REQUESTS, { operation_type: 'unknown', outcome: 'PERSISTED_QUERY_NOT_FOUND' })).toBe(1);
    expect(growth(before, after, REQUESTS, { operation_type: 'query', operation_name: 'Titles', outcome: 'ok' })).toBe(3);
  });

  it('reports the active schema revision as a hash of its text, and the new one after an upload', async () => {
    const revisionOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
    const first = await scrapeMetrics(server.url);
    expect(first.filter((sample) => sample.name === 'autograph_schema_info')).toEqual([
      { name: 'autograph_schema_info', labels: { revision: revisionOf(TASK_USER_SCHEMA) }, value: 1 },
    ]);
    const changed = `${TASK_USER_SCHEMA}\ntype Note {\n  id: ID!\n  text: String\n}\n`;
    await activateSchema(server.url, changed);
    const second = await scrapeMetrics(server.url);
    expect(second.filter((sample) => sample.name === 'autograph_schema_info')).toEqual([
      { name: 'autograph_schema_info', labels: { revision: revisionOf(changed) }, value: 1 },
    ]);
    await activateSchema(server.url, TASK_USER_SCHEMA);
  });

  it('keeps at most 100 operation names as label values; later ones are counted as "other"', async () => {
    const before = await scrapeMetrics(server.url);
    const namesBefore = new Set(before.filter((sample) => sample.name === REQUESTS).map((sample) => sample.labels.operation_name));
    const fresh = 100 - [...namesBefore].filter((name) => name !== '' && name !== 'other').length;
    for (let i = 0; i < fresh + 3; i += 1) {
      await gqlData(server.url, `query Screen${i} { aggregateTask { count } }`);
    }
    const after = await scrapeMetrics(server.url);
    expect(growth(before, after, REQUESTS, { operation_name: 'other' })).toBe(3);
    expect(growth(before, after, REQUESTS, { operation_name: `Screen${fresh - 1}` })).toBe(1);
    expect(growth(before, after, REQUESTS, { operation_name: `Screen${fresh}` })).toBe(0);
  });
});

describe('/metrics access and switch', () => {
  it('with a metrics token, asks for it (401 UNAUTHENTICATED) and serves the scrape that sends it', async () => {
    const guarded = await startTestServer({ metricsToken: 'scrape-me', adminToken: 'admin-secret' });
    try {
      const missing = await fetch(`${guarded.url}/metrics`);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="autograph-metrics"');
      expect(await missing.json()).toEqual({
        errors: [{ message: '/metrics needs the header "Authorization: Bearer <metrics token>"', extensions: { code: 'UNAUTHENTICATED' } }],
      });
      const adminToken = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer admin-secret' } });
      expect(adminToken.status).toBe(401);
      expect(await adminToken.json()).toEqual({ errors: [{ message: 'the metrics token is not valid', extensions: { code: 'UNAUTHENTICATED' } }] });
      const samples = await scrapeMetrics(guarded.url, { authorization: 'Bearer scrape-me' });
      expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    } finally {
      await guarded.close();
    }
  });

  it('with metrics off, /metrics is not a route and requests are still answered', async () => {
    const quiet = await startTestServer({ metrics: false });
    try {
      await activateSchema(quiet.url, TASK_USER_SCHEMA);
      expect(await gqlData(quiet.url, '{ queryTask { title } }')).toEqual({ queryTask: [] });
      const response = await fetch(`${quiet.url}/metrics`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('NOT_FOUND');
    } finally {
      await quiet.close();
    }
  });
});
