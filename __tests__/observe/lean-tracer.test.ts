import { context, INVALID_SPAN_CONTEXT, ROOT_CONTEXT, SamplingDecision, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type Span } from '@opentelemetry/api';
import { suppressTracing, TraceState } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { LeanTracerProvider } from '../../src/observe/lean-tracer.js';
import { OtlpConfigError } from '../../src/observe/otlp-config.js';
import { RecordedSpan, SPAN_LIMITS } from '../../src/observe/recorded-span.js';
import { hrTimeOfEpochMs } from '../../src/observe/span-clock.js';
import { SpanIds } from '../../src/observe/span-ids.js';
import { samplerOf } from '../../src/observe/trace-sampler.js';
import { CASES, leanRecorder, recorder } from './span-cases';

/**
 * LeanTracerProvider stands in for the SDK's provider on the CLI's export path: its spans must export as
 * the SDK's do, and it must sample, parent and end spans as the SDK does.
 */

const CALLER = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', isRemote: true };

function leanTracer(env: Record<string, string> = { OTEL_TRACES_SAMPLER: 'parentbased_always_on' }) {
  const exporter = new InMemorySpanExporter();
  const provider = new LeanTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'test' }), sampler: samplerOf(env), spanProcessor: new SimpleSpanProcessor(exporter) });
  return { exporter, tracer: provider.getTracer('autograph') };
}

/**
 * The OTLP/JSON export request of `spans`, with ids numbered in order of appearance and times of the last
 * minute (taken from the clock, not given) replaced by "now" and stack traces cut to their first line, so
 * that two runs compare equal.
 */
function normalizedExport(spans: ReadableSpan[]): unknown {
  const ids = new Map<string, string>();
  const recent = (BigInt(Date.now()) - 60_000n) * 1_000_000n;
  const json = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)!)) as unknown;
  return JSON.parse(JSON.stringify(json), (key, value: unknown) => {
    if (typeof value !== 'string') return value;
    if (['traceId', 'spanId', 'parentSpanId'].includes(key)) {
      if (!ids.has(value)) ids.set(value, `id${ids.size}`);
      return ids.get(value);
    }
    if (key.endsWith('UnixNano') && BigInt(value) > recent) return 'now';
    // A stack trace names the test line that ran the case: its first line is the exception's.
    return value.split('\n    at ')[0];
  });
}

describe('LeanTracerProvider spans export as the SDK provider spans do (OTLP/JSON, ids and clock times normalized)', () => {
  it.each(CASES)('$name', ({ make }) => {
    const sdk = recorder();
    const lean = leanRecorder();
    make(sdk.tracer);
    make(lean.tracer);
    expect(normalizedExport(lean.exporter.getFinishedSpans())).toEqual(normalizedExport(sdk.exporter.getFinishedSpans()));
  });
});

describe('sampling and parents', () => {
  const sampled = trace.setSpanContext(ROOT_CONTEXT, { ...CALLER, traceFlags: TraceFlags.SAMPLED });
  const notSampled = trace.setSpanContext(ROOT_CONTEXT, { ...CALLER, traceFlags: TraceFlags.NONE });
  const invalidParent = trace.setSpanContext(ROOT_CONTEXT, { ...CALLER, spanId: '0000000000000000', traceFlags: TraceFlags.SAMPLED });

  it.each<{ sampler: string; arg?: string; parent: string; parentContext: Context; recording: boolean; inCallerTrace: boolean }>([
    { sampler: 'parentbased_always_on', parent: 'none', parentContext: ROOT_CONTEXT, recording: true, inCallerTrace: false },
    { sampler: 'parentbased_always_on', parent: 'a sampled caller', parentContext: sampled, recording: true, inCallerTrace: true },
    { sampler: 'parentbased_always_on', parent: 'a caller that sampled out', parentContext: notSampled, recording: false, inCallerTrace: true },
    { sampler: 'parentbased_always_on', parent: 'an invalid span id', parentContext: invalidParent, recording: true, inCallerTrace: false },
    { sampler: 'always_on', parent: 'a caller that sampled out', parentContext: notSampled, recording: true, inCallerTrace: true },
    { sampler: 'always_off', parent: 'a sampled caller', parentContext: sampled, recording: false, inCallerTrace: true },
    { sampler: 'parentbased_always_off', parent: 'none', parentContext: ROOT_CONTEXT, recording: false, inCallerTrace: false },
    { sampler: 'parentbased_always_off', parent: 'a sampled caller', parentContext: sampled, recording: true, inCallerTrace: true },
    { sampler: 'traceidratio', arg: '0', parent: 'a sampled caller', parentContext: sampled, recording: false, inCallerTrace: true },
    { sampler: 'traceidratio', arg: '1', parent: 'none', parentContext: ROOT_CONTEXT, recording: true, inCallerTrace: false },
    { sampler: 'parentbased_traceidratio', arg: '0', parent: 'a sampled caller', parentContext: sampled, recording: true, inCallerTrace: true },
    { sampler: 'parentbased_traceidratio', arg: '0', parent: 'none', parentContext: ROOT_CONTEXT, recording: false, inCallerTrace: false },
  ])('$sampler $arg, parent: $parent → recording $recording', ({ sampler, arg, parentContext, recording, inCallerTrace }) => {
    const { exporter, tracer } = leanTracer({ OTEL_TRACES_SAMPLER: sampler, ...(arg === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: arg }) });
    const span = tracer.startSpan('work', { kind: SpanKind.SERVER }, parentContext);
    const { traceId, spanId, traceFlags } = span.spanContext();
    expect([span.isRecording(), traceFlags]).toEqual([recording, recording ? TraceFlags.SAMPLED : TraceFlags.NONE]);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(spanId).not.toBe(CALLER.spanId);
    expect(traceId === CALLER.traceId).toBe(inCallerTrace);
    span.end();
    const exported = exporter.getFinishedSpans();
    expect(exported.map((one) => [one.spanContext().spanId, one.parentSpanContext?.spanId, one.parentSpanContext?.isRemote])).toEqual(
      recording ? [[spanId, inCallerTrace ? CALLER.spanId : undefined, inCallerTrace ? true : undefined]] : [],
    );
  });

  it('a child of a recorded span: same trace, that span as parent (not remote), the parent trace state kept', () => {
    const { exporter, tracer } = leanTracer();
    const withState = trace.setSpanContext(ROOT_CONTEXT, { ...CALLER, traceFlags: TraceFlags.SAMPLED, traceState: new TraceState('vendor=a1') });
    const root = tracer.startSpan('request', {}, withState);
    const child = tracer.startSpan('find Task', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, root));
    child.end();
    root.end();
    const [exportedChild] = exporter.getFinishedSpans();
    expect(exportedChild!.spanContext().traceId).toBe(CALLER.traceId);
    expect([exportedChild!.parentSpanContext?.spanId, exportedChild!.parentSpanContext?.isRemote]).toEqual([root.spanContext().spanId, undefined]);
    expect(exportedChild!.spanContext().traceState?.serialize()).toBe('vendor=a1');
  });

  it('`root: true` starts a new trace even under a parent', () => {
    const { tracer } = leanTracer();
    const span = tracer.startSpan('detached', { root: true }, trace.setSpanContext(ROOT_CONTEXT, { ...CALLER, traceFlags: TraceFlags.SAMPLED }));
    expect(span.spanContext().traceId).not.toBe(CALLER.traceId);
    expect((span as unknown as ReadableSpan).parentSpanContext).toBeUndefined();
  });

  it('under suppressed tracing (the exporter own requests): the invalid span, nothing exported', () => {
    const { exporter, tracer } = leanTracer();
    const span = tracer.startSpan('export', {}, suppressTracing(ROOT_CONTEXT));
    expect([span.isRecording(), span.spanContext()]).toEqual([false, INVALID_SPAN_CONTEXT]);
    span.end();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('with no context given, the API active context (no manager: the root one), and startActiveSpan passes the span', () => {
    const { exporter, tracer } = leanTracer();
    const answer = tracer.startActiveSpan('active', { kind: SpanKind.INTERNAL }, (span: Span) => {
      expect(span.isRecording()).toBe(true);
      span.end();
      return 'done';
    });
    expect(answer).toBe('done');
    tracer.startSpan('plain').end();
    expect(exporter.getFinishedSpans().map((span) => [span.name, span.parentSpanContext])).toEqual([['active', undefined], ['plain', undefined]]);
    expect(context.active()).toBe(ROOT_CONTEXT);
  });
});

describe('a recorded span follows the API rules', () => {
  it('ends once: a second end, and changes after the end, change nothing', () => {
    const { exporter, tracer } = leanTracer();
    const span = tracer.startSpan('once', { attributes: { kept: 1 } }, ROOT_CONTEXT);
    span.end();
    span.setAttribute('late', 2).setStatus({ code: SpanStatusCode.ERROR, message: 'late' }).updateName('renamed').addEvent('late');
    span.end();
    const exported = exporter.getFinishedSpans();
    expect(exported).toHaveLength(1);
    expect([exported[0]!.name, exported[0]!.attributes, exported[0]!.status, exported[0]!.events]).toEqual(['once', { kept: 1 }, { code: SpanStatusCode.UNSET }, []]);
    expect(exported[0]!.ended).toBe(true);
  });

  it.each<{ name: string; statuses: Array<{ code: SpanStatusCode; message?: string }>; final: { code: SpanStatusCode; message?: string } }>([
    { name: 'UNSET changes nothing', statuses: [{ code: SpanStatusCode.ERROR, message: 'x' }, { code: SpanStatusCode.UNSET }], final: { code: SpanStatusCode.ERROR, message: 'x' } },
    { name: 'OK is final', statuses: [{ code: SpanStatusCode.OK }, { code: SpanStatusCode.ERROR, message: 'x' }], final: { code: SpanStatusCode.OK } },
    { name: 'OK keeps no message', statuses: [{ code: SpanStatusCode.OK, message: 'fine' }], final: { code: SpanStatusCode.OK } },
    { name: 'a later error replaces an error', statuses: [{ code: SpanStatusCode.ERROR, message: 'a' }, { code: SpanStatusCode.ERROR, message: 'b' }], final: { code: SpanStatusCode.ERROR, message: 'b' } },
  ])('status: $name', ({ statuses, final }) => {
    const { exporter, tracer } = leanTracer();
    const span = tracer.startSpan('status', {}, ROOT_CONTEXT);
    for (const status of statuses) span.setStatus(status);
    span.end();
    expect(exporter.getFinishedSpans()[0]!.status).toEqual(final);
  });

  it(`keeps at most ${SPAN_LIMITS.attributes} attributes and counts the dropped ones; null, undefined and object values are left out`, () => {
    const { exporter, tracer } = leanTracer();
    const many = Object.fromEntries(Array.from({ length: SPAN_LIMITS.attributes + 2 }, (_, i) => [`a${i}`, i]));
    const span = tracer.startSpan('attributes', { attributes: { gone: undefined, nothing: null as unknown as string } }, ROOT_CONTEXT);
    span.setAttributes(many);
    span.setAttribute('a0', 'replaced');
    span.setAttribute('object', { not: 'allowed' } as unknown as string);
    span.end();
    const [exported] = exporter.getFinishedSpans();
    expect(Object.keys(exported!.attributes)).toHaveLength(SPAN_LIMITS.attributes);
    expect([exported!.attributes.a0, exported!.attributes[`a${SPAN_LIMITS.attributes - 1}`], exported!.attributes[`a${SPAN_LIMITS.attributes}`]]).toEqual(['replaced', SPAN_LIMITS.attributes - 1, undefined]);
    expect(exported!.droppedAttributesCount).toBe(2);
  });

  it(`given more than ${SPAN_LIMITS.attributes} attributes at the start, keeps the first ${SPAN_LIMITS.attributes} and counts the others dropped`, () => {
    const { exporter, tracer } = leanTracer();
    const many = Object.fromEntries(Array.from({ length: SPAN_LIMITS.attributes + 3 }, (_, i) => [`a${i}`, i]));
    tracer.startSpan('attributes', { attributes: many }, ROOT_CONTEXT).end();
    const [exported] = exporter.getFinishedSpans();
    expect([Object.keys(exported!.attributes).length, exported!.attributes[`a${SPAN_LIMITS.attributes - 1}`], exported!.attributes[`a${SPAN_LIMITS.attributes}`]]).toEqual([SPAN_LIMITS.attributes, SPAN_LIMITS.attributes - 1, undefined]);
    expect(exported!.droppedAttributesCount).toBe(3);
  });

  it('copies the attributes it is given: a later change of the caller object is not exported', () => {
    const { exporter, tracer } = leanTracer();
    const attributes = { 'db.collection.name': 'Task' };
    const span = tracer.startSpan('copy', { attributes }, ROOT_CONTEXT);
    attributes['db.collection.name'] = 'Changed';
    span.end();
    expect(exporter.getFinishedSpans()[0]!.attributes).toEqual({ 'db.collection.name': 'Task' });
  });

  it('records an exception as the semantic conventions event, and an end time never before the start', () => {
    const { exporter, tracer } = leanTracer();
    const span = tracer.startSpan('fails', { startTime: [2_000_000_000, 0] }, ROOT_CONTEXT);
    const error = Object.assign(new Error('no store'), { code: 'ECONNREFUSED' });
    span.recordException(error);
    span.recordException({ code: 0 }); // neither a type nor a message: no event, as in the SDK
    span.end([1_000_000_000, 0]);
    const [exported] = exporter.getFinishedSpans();
    expect(exported!.events.map((event) => [event.name, event.attributes])).toEqual([
      ['exception', { 'exception.type': 'ECONNREFUSED', 'exception.message': 'no store', 'exception.stacktrace': error.stack }],
    ]);
    expect([exported!.startTime, exported!.endTime, exported!.duration]).toEqual([[2_000_000_000, 0], [2_000_000_000, 0], [0, 0]]);
  });

  it('times from the clock: start not before the call, end not after, a duration that matches', () => {
    const { exporter, tracer } = leanTracer();
    const before = Date.now();
    const span = tracer.startSpan('timed', {}, ROOT_CONTEXT);
    span.end();
    const after = Date.now();
    const [exported] = exporter.getFinishedSpans();
    const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    // The clock's offset is re-read once a second, so allow a few ms of drift between the two clocks.
    expect(ms(exported!.startTime)).toBeGreaterThanOrEqual(before - 5);
    expect(ms(exported!.endTime)).toBeLessThanOrEqual(after + 5);
    expect(ms(exported!.duration)).toBeCloseTo(ms(exported!.endTime) - ms(exported!.startTime), 3);
    expect(exported).toBeInstanceOf(RecordedSpan);
  });
});

describe('OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG', () => {
  it.each<{ env: Record<string, string>; sampler: string }>([
    // Unset: Dgraph's default, 1% of the traces that no caller decided for, where the SDK would record all.
    { env: {}, sampler: 'ParentBased{root=TraceIdRatioBased{0.01}, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}' },
    { env: { OTEL_TRACES_SAMPLER: '  ' }, sampler: 'ParentBased{root=TraceIdRatioBased{0.01}, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}' },
    { env: { OTEL_TRACES_SAMPLER_ARG: '0.5' }, sampler: 'ParentBased{root=TraceIdRatioBased{0.5}, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}' },
    { env: { OTEL_TRACES_SAMPLER: 'parentbased_always_on' }, sampler: 'ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}' },
    { env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' }, sampler: 'ParentBased{root=TraceIdRatioBased{1}, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}' },
    { env: { OTEL_TRACES_SAMPLER: ' always_on ' }, sampler: 'AlwaysOnSampler' },
    { env: { OTEL_TRACES_SAMPLER: 'always_off' }, sampler: 'AlwaysOffSampler' },
    { env: { OTEL_TRACES_SAMPLER: 'traceidratio' }, sampler: 'TraceIdRatioBased{1}' },
    { env: { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, sampler: 'TraceIdRatioBased{0.25}' },
    { env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }, sampler: 'ParentBased{root=TraceIdRatioBased{0.1}, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}' },
    { env: { OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, sampler: 'ParentBased{root=AlwaysOffSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}' },
  ])('$env → $sampler', ({ env, sampler }) => {
    expect(samplerOf(env).toString()).toBe(sampler);
  });

  it.each<{ env: Record<string, string>; message: string }>([
    { env: { OTEL_TRACES_SAMPLER: 'jaeger_remote' }, message: 'OTEL_TRACES_SAMPLER=jaeger_remote is not supported: set it to one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio' },
    { env: { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, message: 'OTEL_TRACES_SAMPLER_ARG=1.5 is not a sampling ratio: set it to a number from 0 to 1' },
    { env: { OTEL_TRACES_SAMPLER_ARG: '-0.1' }, message: 'OTEL_TRACES_SAMPLER_ARG=-0.1 is not a sampling ratio: set it to a number from 0 to 1' },
    { env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' }, message: 'OTEL_TRACES_SAMPLER_ARG=half is not a sampling ratio: set it to a number from 0 to 1' },
  ])('refuses $env', ({ env, message }) => {
    expect(() => samplerOf(env)).toThrow(new OtlpConfigError(message));
    expect(() => samplerOf(env)).toThrow(OtlpConfigError);
  });
});

describe('span ids and times', () => {
  it('ids are lower-case hex of the right length, distinct across pool refills', () => {
    const ids = new SpanIds();
    const traceIds = Array.from({ length: 1000 }, () => ids.traceId());
    const spanIds = Array.from({ length: 1000 }, () => ids.spanId());
    expect(traceIds.every((id) => /^[0-9a-f]{32}$/.test(id))).toBe(true);
    expect(spanIds.every((id) => /^[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(new Set([...traceIds, ...spanIds]).size).toBe(2000);
  });

  it.each<[number, [number, number]]>([
    [0, [0, 0]],
    [1500.5, [1, 500_500_000]],
    [1_763_942_400_123.25, [1_763_942_400, 123_250_000]],
    [999.9999999, [1, 0]],
  ])('epoch ms %p → %p', (epochMs, hrTime) => {
    expect(hrTimeOfEpochMs(epochMs)).toEqual(hrTime);
  });
});

describe('sampleRoot: a new trace decided before its root span is made', () => {
  function provider(env: Record<string, string | undefined>) {
    const exporter = new InMemorySpanExporter();
    return new LeanTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'test' }), sampler: samplerOf(env), spanProcessor: new SimpleSpanProcessor(exporter) });
  }

  it.each([
    { env: { OTEL_TRACES_SAMPLER: 'always_on' }, recorded: 200 },
    { env: { OTEL_TRACES_SAMPLER: 'parentbased_always_on' }, recorded: 200 },
    { env: { OTEL_TRACES_SAMPLER: 'always_off' }, recorded: 0 },
    { env: { OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, recorded: 0 },
    { env: { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }, recorded: 0 },
    { env: { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1' }, recorded: 200 },
  ])('$env: $recorded of 200 roots recorded, each root span recording', ({ env, recorded }) => {
    const tracing = provider(env);
    const tracer = tracing.getTracer('autograph');
    const decisions = Array.from({ length: 200 }, () => tracing.sampleRoot('POST /graphql', SpanKind.SERVER));
    const kept = decisions.filter((decision) => 'recorded' in decision);
    expect(kept).toHaveLength(recorded);
    for (const decision of kept) expect(tracer.startSpan('POST /graphql', { kind: SpanKind.SERVER }, (decision as { recorded: Context }).recorded).isRecording()).toBe(true);
  });

  it('a ratio decides on the trace id the root span then takes; a dropped trace passes a valid id on, not sampled', () => {
    const env = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' };
    const tracing = provider(env);
    const tracer = tracing.getTracer('autograph');
    const ratio = samplerOf(env);
    const decisions = Array.from({ length: 400 }, () => tracing.sampleRoot('POST /graphql', SpanKind.SERVER));
    const kept = decisions.filter((decision): decision is { recorded: Context } => 'recorded' in decision);
    const dropped = decisions.filter((decision): decision is { dropped: () => Context } => 'dropped' in decision);
    // About half each way; a root span that drew a new trace id instead would record only about half the time.
    expect(kept.length).toBeGreaterThan(120);
    expect(dropped.length).toBeGreaterThan(120);
    for (const decision of kept) {
      const span = tracer.startSpan('POST /graphql', { kind: SpanKind.SERVER }, decision.recorded);
      expect(span.isRecording()).toBe(true);
      expect(ratio.shouldSample(ROOT_CONTEXT, span.spanContext().traceId, 'x', SpanKind.SERVER, {}, []).decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    }
    for (const decision of dropped) {
      const passedOn = trace.getSpanContext(decision.dropped())!;
      expect(passedOn.traceFlags).toBe(TraceFlags.NONE);
      expect(passedOn.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(passedOn.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(ratio.shouldSample(ROOT_CONTEXT, passedOn.traceId, 'x', SpanKind.SERVER, {}, []).decision).toBe(SamplingDecision.NOT_RECORD);
    }
  });
});
