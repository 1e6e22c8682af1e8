import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { otlpJsonOfSpans } from '../../src/observe/otlp-json.js';
import { CASES, recorder } from './span-cases';

/**
 * otlp-json.ts writes the OTLP/JSON export request itself, for speed: it must send exactly the text the
 * library's JsonTraceSerializer sends, for every kind of span content.
 */

function library(spans: ReadableSpan[]): string {
  return Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8');
}

describe('otlpJsonOfSpans writes what JsonTraceSerializer writes', () => {
  it.each(CASES)('$name', ({ make }) => {
    const { exporter, tracer } = recorder();
    make(tracer);
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(0);
    expect(otlpJsonOfSpans(spans)).toBe(library(spans));
  });

  it('spans of two resources, interleaved: one resource entry each, in order of first appearance', () => {
    const first = recorder({ 'service.name': 'one' });
    const second = recorder({ 'service.name': 'two', 'deployment.environment.name': 'test' });
    first.tracer().startSpan('a', {}, ROOT_CONTEXT).end();
    second.tracer().startSpan('b', {}, ROOT_CONTEXT).end();
    first.tracer().startSpan('c', {}, ROOT_CONTEXT).end();
    const spans = [first.exporter.getFinishedSpans()[0]!, second.exporter.getFinishedSpans()[0]!, first.exporter.getFinishedSpans()[1]!];
    const text = otlpJsonOfSpans(spans);
    expect(text).toBe(library(spans));
    const parsed = JSON.parse(text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> };
    expect(parsed.resourceSpans.map((entry) => entry.scopeSpans[0]!.spans.map((span) => span.name))).toEqual([['a', 'c'], ['b']]);
  });

  it('no spans: an empty request', () => {
    expect(otlpJsonOfSpans([])).toBe('{"resourceSpans":[]}');
    expect(otlpJsonOfSpans([])).toBe(library([]));
  });

  it('the same resource written again gives the same text (its text is kept)', () => {
    const { exporter, tracer } = recorder();
    tracer().startSpan('one', {}, ROOT_CONTEXT).end();
    tracer().startSpan('two', {}, ROOT_CONTEXT).end();
    const [one, two] = exporter.getFinishedSpans();
    expect(otlpJsonOfSpans([one!])).toBe(library([one!]));
    expect(otlpJsonOfSpans([two!])).toBe(library([two!]));
  });
});
