/**
 * Issue 16: with the CLI's provider, a request without a caller's trace context is sampled before any span
 * is made (LeanTracerProvider.sampleRoot). One the sampler drops records nothing, yet its `@custom` calls
 * still pass a trace context on, flagged not sampled, so the called service follows the decision; a caller's
 * sampled `traceparent` still decides for its request.
 */
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { trace } from '@opentelemetry/api';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LeanTracerProvider } from '../../src/observe/lean-tracer.js';
import { registerTracerProvider } from '../../src/observe/otlp-tracing.js';
import { samplerOf } from '../../src/observe/trace-sampler.js';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { until } from '../helpers/wait';

const CALLER_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN_ID = 'b7ad6b7169203331';

const exporter = new InMemorySpanExporter();
// Records only the traces a caller sampled: every request without a traceparent is dropped.
const provider = new LeanTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'autograph' }),
  sampler: samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }),
  spanProcessor: new SimpleSpanProcessor(exporter),
});
let target: Server;
const targetHeaders: IncomingHttpHeaders[] = [];
let server: TestServer;

beforeAll(async () => {
  registerTracerProvider(provider);
  target = createServer((req, res) => {
    targetHeaders.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('"from the target"');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({ customAllow: ['127.0.0.1'] });
  await activateSchema(server.url, `
type Task {
  id: ID!
  title: String!
}

type Query {
  remote: String @custom(http: { url: "http://127.0.0.1:${(target.address() as AddressInfo).port}/remote", method: GET })
}
`);
});

afterAll(async () => {
  await server.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  await provider.shutdown();
  trace.disable();
});

beforeEach(() => {
  exporter.reset();
  targetHeaders.length = 0;
});

it('records no span of a dropped request and sends a new trace on, flagged not sampled', async () => {
  const response = await gql(server.url, 'query Dropped { queryTask { title } remote }', undefined, { 'x-request-id': 'dropped-1' });
  expect(response.body).toEqual({ data: { queryTask: [], remote: 'from the target' } });
  expect(targetHeaders).toHaveLength(1);
  const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/.exec(String(targetHeaders[0]!.traceparent));
  expect(sent).not.toBeNull();
  expect(sent![1]).not.toBe('0'.repeat(32));
  expect(sent![2]).not.toBe('0'.repeat(16));

  // A sampled request after it: once its spans are in, the dropped one's would be too.
  await gql(server.url, '{ queryTask { title } }', undefined, { traceparent: `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01`, 'x-request-id': 'sampled-1' });
  await until(() => exporter.getFinishedSpans().some((span) => span.attributes['autograph.request_id'] === 'sampled-1'));
  expect(exporter.getFinishedSpans().filter((span) => span.spanContext().traceId !== CALLER_TRACE_ID)).toEqual([]);
  expect(exporter.getFinishedSpans().map((span) => span.name).sort()).toEqual(['POST /graphql', 'find Task']);
});

it('gives two dropped requests different trace ids, each the same on every call of the request', async () => {
  await gql(server.url, '{ a: remote b: remote }');
  await gql(server.url, '{ remote }');
  const traceIds = targetHeaders.map((headers) => String(headers.traceparent).split('-')[1]);
  expect(traceIds).toHaveLength(3);
  expect(traceIds[0]).toBe(traceIds[1]);
  expect(traceIds[2]).not.toBe(traceIds[0]);
});

it('lets a caller sampled traceparent decide: its request is recorded and its trace sent on', async () => {
  await gql(server.url, '{ remote }', undefined, { traceparent: `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01`, 'x-request-id': 'sampled-2' });
  await until(() => exporter.getFinishedSpans().some((span) => span.attributes['autograph.request_id'] === 'sampled-2'));
  const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(targetHeaders[0]!.traceparent));
  expect(sent?.[1]).toBe(CALLER_TRACE_ID);
});
