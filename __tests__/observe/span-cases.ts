import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Tracer } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LeanTracerProvider } from '../../src/observe/lean-tracer.js';
import { samplerOf } from '../../src/observe/trace-sampler.js';

/** Spans of every kind of content, for checking our OTLP encoder against the library's, case by case. */

const REMOTE_PARENT = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED, isRemote: true };

/** Spans of the SDK's provider, collected in memory. */
export function recorder(resourceAttributes: Record<string, string> = { 'service.name': 'autograph' }) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes(resourceAttributes), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: (name = 'autograph', version?: string, schemaUrl?: string) => provider.getTracer(name, version, { schemaUrl }) };
}

/** The same with the provider the CLI exports through (default sampler). */
export function leanRecorder(resourceAttributes: Record<string, string> = { 'service.name': 'autograph' }) {
  const exporter = new InMemorySpanExporter();
  const provider = new LeanTracerProvider({ resource: resourceFromAttributes(resourceAttributes), sampler: samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }), spanProcessor: new SimpleSpanProcessor(exporter) });
  return { exporter, tracer: (name = 'autograph', version?: string, schemaUrl?: string) => provider.getTracer(name, version, { schemaUrl }) };
}

type Make = (tracer: (name?: string, version?: string, schemaUrl?: string) => Tracer) => void;

export const CASES: Array<{ name: string; make: Make }> = [
  {
    name: 'a root server span with string attributes, and its client child',
    make: (tracer) => {
      const root = tracer().startSpan('POST /graphql', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'POST', 'url.path': '/graphql' } }, ROOT_CONTEXT);
      tracer().startSpan('find Task', { kind: SpanKind.CLIENT, attributes: { 'db.collection.name': 'Task' } }, trace.setSpan(ROOT_CONTEXT, root)).end();
      root.setAttributes({ 'http.response.status_code': 200, 'graphql.operation.name': '' });
      root.end();
    },
  },
  {
    name: 'a remote parent with a trace state',
    make: (tracer) => {
      const parent = trace.setSpanContext(ROOT_CONTEXT, { ...REMOTE_PARENT, traceState: new TraceState('vendor=a1,other=b2') });
      tracer().startSpan('GET', { kind: SpanKind.SERVER }, parent).end();
    },
  },
  {
    name: 'every attribute value type, and text that needs escaping',
    make: (tracer) => {
      tracer()
        .startSpan('attributes "quoted"\n\u2603', {
          attributes: {
            text: 'a "b" \\ c\n\t\u0001 é 😀',
            int: 42,
            negative: -7,
            big: 1e21,
            double: 0.125,
            tiny: 1e-7,
            yes: true,
            no: false,
            strings: ['x', 'y"z'],
            numbers: [1, 2.5, -3],
            booleans: [true, false],
            empty: [],
            holes: ['a', null, undefined, 'b'],
          },
        }, ROOT_CONTEXT)
        .end();
    },
  },
  {
    name: 'events with and without attributes, an exception, and an error status with a message',
    make: (tracer) => {
      const span = tracer().startSpan('lambda fails', {}, ROOT_CONTEXT);
      span.addEvent('plain');
      span.addEvent('with attributes', { attempt: 2, reason: 'time-out' });
      span.recordException(new TypeError('broken "input"'));
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'answered 500' });
      span.end();
    },
  },
  {
    name: 'an OK status without a message, and links with and without attributes',
    make: (tracer) => {
      const span = tracer().startSpan('linked', {
        links: [
          { context: REMOTE_PARENT },
          { context: { ...REMOTE_PARENT, isRemote: false, traceState: new TraceState('k=v') }, attributes: { why: 'batch' } },
        ],
      }, ROOT_CONTEXT);
      span.setStatus({ code: SpanStatusCode.OK });
      span.end();
    },
  },
  {
    name: 'explicit start and end times (nanoseconds with leading zeros, a whole second)',
    make: (tracer) => {
      tracer().startSpan('timed', { startTime: [1_700_000_000, 5] }, ROOT_CONTEXT).end([1_700_000_001, 0]);
      tracer().startSpan('timed', { startTime: [1_700_000_000, 999_999_999] }, ROOT_CONTEXT).end(1_700_000_002_500);
    },
  },
  {
    name: 'two scopes, one with a version and a schema URL, interleaved',
    make: (tracer) => {
      tracer().startSpan('first', {}, ROOT_CONTEXT).end();
      tracer('other', '1.2.3', 'https://opentelemetry.io/schemas/1.30.0').startSpan('second', {}, ROOT_CONTEXT).end();
      tracer().startSpan('third', {}, ROOT_CONTEXT).end();
    },
  },
  {
    name: 'integers at the varint boundaries, negative ones, and a long text (a two-byte length)',
    make: (tracer) => {
      tracer()
        .startSpan('x'.repeat(300), {
          attributes: {
            small: 127, byte: 128, int31: 2 ** 31, int32: 2 ** 32 + 1, safe: Number.MAX_SAFE_INTEGER,
            minusOne: -1, minusBig: -(2 ** 40), nan: Number.NaN, infinite: Number.POSITIVE_INFINITY, long: 'y'.repeat(20_000),
          },
        }, ROOT_CONTEXT)
        .end();
    },
  },
  {
    name: 'times across the range: the epoch, a year 2106 second, odd nanoseconds',
    make: (tracer) => {
      for (const [start, end] of [[[0, 1], [1, 0]], [[4_294_967_295, 999_999_999], [4_294_967_296, 1]], [[1_763_942_400, 123_456_789], [1_763_942_400, 987_654_321]]] as const) {
        tracer().startSpan('time', { startTime: [...start] }, ROOT_CONTEXT).end([...end]);
      }
    },
  },
];
