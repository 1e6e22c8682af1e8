import { SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { warmUpSpanRecording, WARM_UP_SPAN_NAME } from '../../src/observe/recording-warm-up.js';
import { rootSamplingProvider } from '../../src/observe/tracer.js';

/**
 * The start-up warm-up of span recording (otlp-tracing.ts): it must run the recording path on traces shaped
 * as a request's, and touch nothing of the service's tracing.
 */

const resource = resourceFromAttributes({ 'service.name': 'test' });

it('records each synthetic trace as a request span with two store-call children, all sampled and named as warm-up', () => {
  const spans: ReadableSpan[] = [];
  const collecting: SpanProcessor = { onStart: () => undefined, onEnd: (span) => spans.push(span), forceFlush: async () => undefined, shutdown: async () => undefined };
  warmUpSpanRecording(resource, 3, collecting);
  expect(spans).toHaveLength(9);
  expect(new Set(spans.map((span) => span.name))).toEqual(new Set([WARM_UP_SPAN_NAME]));
  expect(spans.every((span) => span.spanContext().traceFlags === TraceFlags.SAMPLED && span.resource === resource)).toBe(true);
  const traces = new Map<string, typeof spans>();
  for (const span of spans) traces.set(span.spanContext().traceId, [...(traces.get(span.spanContext().traceId) ?? []), span]);
  expect(traces.size).toBe(3);
  for (const inTrace of traces.values()) {
    const servers = inTrace.filter((span) => span.kind === SpanKind.SERVER);
    expect(servers).toHaveLength(1);
    const [server] = servers;
    expect(server!.parentSpanContext).toBeUndefined();
    expect(server!.attributes).toEqual(expect.objectContaining({ 'url.path': '/graphql', 'http.response.status_code': 200, 'graphql.operation.type': 'query' }));
    const clients = inTrace.filter((span) => span.kind === SpanKind.CLIENT);
    expect(clients.map((span) => span.parentSpanContext?.spanId)).toEqual([server!.spanContext().spanId, server!.spanContext().spanId]);
    expect(clients[0]!.attributes).toEqual({ 'db.system.name': 'embedded', 'db.collection.name': 'Task', 'db.operation.name': 'find' });
  }
});

it('registers no tracer provider, so the service keeps the one it registers (or none)', () => {
  const before = trace.getTracerProvider();
  warmUpSpanRecording(resource, 600);
  expect(trace.getTracerProvider()).toBe(before);
  expect(rootSamplingProvider()).toBeUndefined();
  expect(trace.getTracer('autograph').startSpan('after').isRecording()).toBe(false);
});
