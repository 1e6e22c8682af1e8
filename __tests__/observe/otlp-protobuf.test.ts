import { ROOT_CONTEXT } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { otlpProtobufOfSpans } from '../../src/observe/otlp-protobuf.js';
import { CASES, leanRecorder, recorder } from './span-cases';

/**
 * otlp-protobuf.ts encodes the OTLP protobuf export request itself, for speed: it must send exactly the
 * bytes the library's ProtobufTraceSerializer sends, for every kind of span content.
 */

function library(spans: ReadableSpan[]): string {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!).toString('hex');
}

function ours(spans: ReadableSpan[]): string {
  return Buffer.from(otlpProtobufOfSpans(spans)).toString('hex');
}

describe.each([
  { provider: "the SDK's spans", recorder },
  { provider: 'LeanTracerProvider spans', recorder: leanRecorder },
])('otlpProtobufOfSpans writes what ProtobufTraceSerializer writes, for $provider', ({ recorder }) => {
  it.each(CASES)('$name', ({ make }) => {
    const { exporter, tracer } = recorder();
    make(tracer);
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(0);
    expect(ours(spans)).toBe(library(spans));
  });

  it('all the cases in one request, several resources interleaved (one resource entry each)', () => {
    const first = recorder({ 'service.name': 'one' });
    const second = recorder({ 'service.name': 'two', 'deployment.environment.name': 'test' });
    for (const { make } of CASES) {
      make(first.tracer);
      second.tracer().startSpan('between', {}, ROOT_CONTEXT).end();
    }
    const firstSpans = first.exporter.getFinishedSpans();
    const secondSpans = second.exporter.getFinishedSpans();
    const spans = firstSpans.flatMap((span, i) => (i < secondSpans.length ? [span, secondSpans[i]!] : [span]));
    expect(ours(spans)).toBe(library(spans));
  });

  it('no spans: an empty request', () => {
    expect(ours([])).toBe('');
    expect(ours([])).toBe(library([]));
  });
});
