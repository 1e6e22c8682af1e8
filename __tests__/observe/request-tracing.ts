import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadLambda } from '../custom-e2e/lambda-upload';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, TEST_BACKEND_KIND, type TestServer } from '../helpers/server';
import { until } from '../helpers/wait';
import { scrapeMetrics, sumOf } from './prometheus-text';

/**
 * Issue 16: OpenTelemetry spans, collected by a tracer provider the test file registers (the service itself
 * uses only the API): one per request, store call, lambda call and @custom call, in the caller's trace, and
 * the trace context sent on to the @custom target. Run once with the SDK's provider (tracing.test.ts) and
 * once with the one the CLI exports through (tracing-lean.test.ts).
 */

/** Registers a provider (without a context manager, as the CLI does) whose spans end up in `exporter`. */
export type RegisterProvider = (exporter: InMemorySpanExporter) => { shutdown(): Promise<void> };

export function describeRequestTracing(registerProvider: RegisterProvider): void {
  const exporter = new InMemorySpanExporter();
  const provider = registerProvider(exporter);

  const CALLER_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
  const CALLER_SPAN_ID = 'b7ad6b7169203331';
  const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

  let target: Server;
  let targetHost: string;
  const targetHeaders: IncomingHttpHeaders[] = [];
  let server: TestServer;

  beforeAll(async () => {
    target = createServer((req, res) => {
      targetHeaders.push(req.headers);
      const broken = req.url === '/broken';
      res.writeHead(broken ? 500 : 200, { 'content-type': 'application/json' });
      res.end(broken ? '"no"' : '"from the target"');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
    server = await startTestServer({ customAllow: ['127.0.0.1'] });
    await activateSchema(server.url, `
type Task {
  id: ID!
  title: String! @search(by: [term])
}

type Query {
  remote: String @custom(http: { url: "http://${targetHost}/remote", method: GET })
  broken: String @custom(http: { url: "http://${targetHost}/broken", method: GET })
  greeting: String @lambda
  failing: String @lambda
}
`);
    await loadLambda(server.url, `self.addGraphQLResolvers({
    'Query.greeting': async () => 'hello',
    'Query.failing': async () => { throw new Error('script failure'); },
  });`);
    const added = await gql(server.url, 'mutation { addTask(input: [{ title: "one" }, { title: "two" }]) { numUids } }');
    expect(added.body.errors).toBeUndefined();
  });

  afterAll(async () => {
    await server.close();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
    await provider.shutdown();
  });

  beforeEach(() => {
    exporter.reset();
    targetHeaders.length = 0;
  });

  /** The spans of the request whose server span has `requestId`, once that span has ended. */
  async function spansOfRequest(requestId: string): Promise<{ root: ReadableSpan; all: ReadableSpan[] }> {
    const isRoot = (span: ReadableSpan) => span.attributes['autograph.request_id'] === requestId;
    await until(() => exporter.getFinishedSpans().some(isRoot));
    const root = exporter.getFinishedSpans().find(isRoot)!;
    return { root, all: exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === root.spanContext().traceId) };
  }

  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  describe('spans of a request', () => {
    it('continues the caller traceparent: request, store, lambda and @custom spans, and the target gets the same trace', async () => {
      const response = await gql(server.url, 'query Mixed { queryTask { title } remote greeting }', undefined, {
        traceparent: `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01`,
        'x-request-id': 'trace-test-1',
      });
      expect(response.body).toEqual({ data: { queryTask: [{ title: 'one' }, { title: 'two' }], remote: 'from the target', greeting: 'hello' } });
      const { root, all } = await spansOfRequest('trace-test-1');

      expect(root.name).toBe('POST /graphql');
      expect(root.kind).toBe(SpanKind.SERVER);
      expect(root.spanContext().traceId).toBe(CALLER_TRACE_ID);
      expect(parentOf(root)).toBe(CALLER_SPAN_ID);
      expect(root.attributes).toEqual({
        'http.request.method': 'POST',
        'url.path': '/graphql',
        'autograph.request_id': 'trace-test-1',
        'http.response.status_code': 200,
        'graphql.operation.type': 'query',
        'graphql.operation.name': 'Mixed',
      });
      expect(root.status.code).toBe(SpanStatusCode.UNSET);

      const rootId = root.spanContext().spanId;
      const store = all.filter((span) => span.name === 'find Task');
      expect(store).toHaveLength(1);
      expect(parentOf(store[0]!)).toBe(rootId);
      expect(store[0]!.kind).toBe(SpanKind.CLIENT);
      expect(store[0]!.attributes).toEqual({ 'db.system.name': TEST_BACKEND_KIND, 'db.collection.name': 'Task', 'db.operation.name': 'find' });

      const lambda = all.filter((span) => span.name === 'lambda Query.greeting');
      expect(lambda).toHaveLength(1);
      expect(parentOf(lambda[0]!)).toBe(rootId);

      const custom = all.filter((span) => span.kind === SpanKind.CLIENT && span.name === 'GET');
      expect(custom).toHaveLength(1);
      expect(parentOf(custom[0]!)).toBe(rootId);
      expect(custom[0]!.attributes).toEqual({
        'http.request.method': 'GET',
        'server.address': '127.0.0.1',
        'server.port': Number(targetHost.split(':')[1]),
        'url.full': `http://${targetHost}/remote`,
        'http.response.status_code': 200,
      });

      // The target sees the caller's trace, with the @custom call's span as its parent.
      expect(targetHeaders).toHaveLength(1);
      const sent = TRACEPARENT.exec(String(targetHeaders[0]!.traceparent));
      expect(sent?.slice(1)).toEqual([CALLER_TRACE_ID, custom[0]!.spanContext().spanId]);
    });

    it('starts a new trace when the request carries no traceparent', async () => {
      await gql(server.url, '{ remote }', undefined, { 'x-request-id': 'trace-test-2' });
      const { root } = await spansOfRequest('trace-test-2');
      expect(parentOf(root)).toBeUndefined();
      expect(root.spanContext().traceId).not.toBe(CALLER_TRACE_ID);
      expect(TRACEPARENT.exec(String(targetHeaders[0]!.traceparent))?.[1]).toBe(root.spanContext().traceId);
    });

    it('records no span of a request the caller sampled out, and still sends its trace on, flagged not sampled', async () => {
      const unsampledTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const response = await gql(server.url, 'query Unsampled { queryTask { title } remote greeting }', undefined, {
        traceparent: `00-${unsampledTraceId}-${CALLER_SPAN_ID}-00`,
      });
      expect(response.body.data).toEqual({ queryTask: [{ title: 'one' }, { title: 'two' }], remote: 'from the target', greeting: 'hello' });
      expect(targetHeaders).toHaveLength(1);
      const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/.exec(String(targetHeaders[0]!.traceparent));
      expect(sent?.[1]).toBe(unsampledTraceId);
      expect(sent?.[2]).not.toBe(CALLER_SPAN_ID);

      // A sampled request after it: once its spans are in, the unsampled one's would be too.
      await gql(server.url, '{ queryTask { title } }', undefined, { 'x-request-id': 'trace-test-after-unsampled' });
      await spansOfRequest('trace-test-after-unsampled');
      expect(exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === unsampledTraceId)).toEqual([]);
    });

    it('marks failed lambda and @custom calls on their spans and in the failure counters', async () => {
      const before = await scrapeMetrics(server.url);
      const response = await gql(server.url, 'query Failing { broken failing }', undefined, { 'x-request-id': 'trace-test-3' });
      expect(response.body.errors?.map((error) => error.extensions?.code).sort()).toEqual(['CUSTOM_HTTP_FAILED', 'LAMBDA_FAILED']);
      const { root, all } = await spansOfRequest('trace-test-3');
      const after = await scrapeMetrics(server.url);

      expect(root.status.code).toBe(SpanStatusCode.ERROR);
      expect(all.find((span) => span.name === 'lambda Query.failing')?.status.code).toBe(SpanStatusCode.ERROR);
      const custom = all.find((span) => span.name === 'GET');
      expect([custom?.status.code, custom?.attributes['http.response.status_code']]).toEqual([SpanStatusCode.ERROR, 500]);

      const grew = (name: string, labels: Record<string, string>) => sumOf(after, name, labels) - sumOf(before, name, labels);
      expect(grew('autograph_lambda_call_failures_total', { resolver: 'Query.failing' })).toBe(1);
      expect(grew('autograph_lambda_call_duration_seconds_count', { resolver: 'Query.failing' })).toBe(1);
      expect(grew('autograph_custom_http_call_failures_total', { host: targetHost })).toBe(1);
      expect(grew('autograph_custom_http_call_duration_seconds_count', { host: targetHost })).toBe(1);
      expect(grew('autograph_graphql_requests_total', { operation_name: 'Failing', outcome: 'server_error' })).toBe(1);
    });

    it('counts successful lambda and @custom calls without failures', async () => {
      const before = await scrapeMetrics(server.url);
      await gql(server.url, '{ remote greeting }');
      await gql(server.url, '{ remote }');
      const after = await scrapeMetrics(server.url);
      const grew = (name: string, labels: Record<string, string>) => sumOf(after, name, labels) - sumOf(before, name, labels);
      expect(grew('autograph_custom_http_call_duration_seconds_count', { host: targetHost })).toBe(2);
      expect(grew('autograph_custom_http_call_failures_total', {})).toBe(0);
      expect(grew('autograph_lambda_call_duration_seconds_count', { resolver: 'Query.greeting' })).toBe(1);
      expect(grew('autograph_lambda_call_failures_total', {})).toBe(0);
    });
  });
}
