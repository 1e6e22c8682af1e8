import {
  context as contextApi, createContextKey, INVALID_SPAN_CONTEXT, isSpanContextValid, ROOT_CONTEXT, SamplingDecision, SpanKind, trace, TraceFlags, type Context, type Span,
  type SpanContext, type SpanOptions, type Tracer, type TracerOptions, type TracerProvider,
} from '@opentelemetry/api';
import { isTracingSuppressed, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { copyAttributes, RecordedSpan } from './recorded-span.js';
import { SpanClock } from './span-clock.js';
import { SpanIds } from './span-ids.js';
import type { RootSampling } from './tracer.js';

/** The trace id a root span takes, when the sampler's decision on it was made first (`sampleRoot`). */
const DECIDED_TRACE_ID = createContextKey('autograph.decidedTraceId');

export interface LeanTracerProviderOptions {
  resource: Resource;
  sampler: Sampler;
  /** Receives every recorded span when it ends (for export: the SDK's BatchSpanProcessor). */
  spanProcessor: SpanProcessor;
}

/**
 * An implementation of the OpenTelemetry API's TracerProvider for the service's export path: the SDK's
 * samplers, span processors and exporters plug into it, but a span is a RecordedSpan (recorded-span.ts)
 * and ids come from SpanIds. With every trace sampled, the SDK's own Tracer and Span cost about a tenth of
 * a getTask request's CPU time (bench/observability.ts): per span, attributes sanitized twice and set one
 * by one, self-metrics, a limits object, ids written byte by byte, three clock reads made into
 * `[seconds, nanoseconds]` arrays. This one does per span what the API asks and the export needs.
 *
 * No context manager: a span's parent is the context passed to `startSpan` (or the root context).
 */
export class LeanTracerProvider implements TracerProvider, RootSampling {
  private readonly tracers = new Map<string, LeanTracer>();
  private readonly ids = new SpanIds();
  private readonly clock = new SpanClock();

  constructor(private readonly options: LeanTracerProviderOptions) {}

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const key = `${name}@${version ?? ''}:${options?.schemaUrl ?? ''}`;
    let tracer = this.tracers.get(key);
    if (!tracer) {
      tracer = new LeanTracer({ name, version, schemaUrl: options?.schemaUrl }, this.options, this.ids, this.clock);
      this.tracers.set(key, tracer);
    }
    return tracer;
  }

  /**
   * The sampler's decision on a new trace id for a root span, as `startSpan` would make it (the samplers the
   * service offers decide a root by its trace id alone): a recorded root then starts under the returned
   * context and keeps that trace id.
   */
  sampleRoot(name: string, kind: SpanKind): { recorded: Context } | { dropped: () => Context } {
    const traceId = this.ids.traceId();
    const sampling = this.options.sampler.shouldSample(ROOT_CONTEXT, traceId, name, kind, {}, []);
    if (sampling.decision !== SamplingDecision.NOT_RECORD) return { recorded: ROOT_CONTEXT.setValue(DECIDED_TRACE_ID, traceId) };
    return { dropped: () => trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext({ traceId, spanId: this.ids.spanId(), traceFlags: TraceFlags.NONE, traceState: sampling.traceState })) };
  }

  forceFlush(): Promise<void> {
    return this.options.spanProcessor.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.options.spanProcessor.shutdown();
  }
}

class LeanTracer implements Tracer {
  constructor(
    private readonly scope: InstrumentationScope,
    private readonly options: LeanTracerProviderOptions,
    private readonly ids: SpanIds,
    private readonly clock: SpanClock,
  ) {}

  /**
   * A span under the span of `parent` (a new trace without one), sampled by the sampler; a span the sampler
   * drops is the API's non-recording span with its ids (so its context still travels), and under
   * suppressed tracing (the exporter's own requests) the invalid one.
   */
  startSpan(name: string, options: SpanOptions = {}, parent: Context = contextApi.active()): Span {
    if (options.root) parent = trace.deleteSpan(parent);
    if (isTracingSuppressed(parent)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const parentSpan = trace.getSpan(parent);
    const parentSpanContext = parentSpan && (parentSpan instanceof RecordedSpan || isSpanContextValid(parentSpan.spanContext())) ? parentSpan.spanContext() : undefined;
    const traceId = parentSpanContext ? parentSpanContext.traceId : ((parent.getValue(DECIDED_TRACE_ID) as string | undefined) ?? this.ids.traceId());
    const spanId = this.ids.spanId();
    const kind = options.kind ?? SpanKind.INTERNAL;
    // The samplers the service offers (trace-sampler.ts) read neither, so a span they drop copies nothing.
    const sampling = this.options.sampler.shouldSample(parent, traceId, name, kind, options.attributes ?? {}, options.links ?? []);
    const traceState = sampling.traceState ?? parentSpanContext?.traceState;
    const sampled = sampling.decision === SamplingDecision.RECORD_AND_SAMPLED;
    const spanContext: SpanContext = { traceId, spanId, traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, traceState };
    if (sampling.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(spanContext);
    const attributes = copyAttributes(options.attributes);
    const links = (options.links ?? []).map((link) => (link.attributes ? { context: link.context, attributes: copyAttributes(link.attributes) } : { context: link.context }));
    if (sampling.attributes) Object.assign(attributes, copyAttributes(sampling.attributes));
    const span = new RecordedSpan({
      name,
      kind,
      spanContext,
      parentSpanContext,
      attributes,
      links,
      startTime: options.startTime,
      resource: this.options.resource,
      scope: this.scope,
      clock: this.clock,
      sink: this.options.spanProcessor,
    });
    this.options.spanProcessor.onStart(span, parent);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, parent: Context, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]): ReturnType<F> {
    const fn = rest[rest.length - 1] as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : undefined;
    const parent = rest.length > 2 ? (rest[1] as Context) : contextApi.active();
    const span = this.startSpan(name, options, parent);
    return contextApi.with(trace.setSpan(parent, span), fn as (span: Span) => ReturnType<F>, undefined, span);
  }
}
