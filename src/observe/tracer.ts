import { ProxyTracerProvider, SpanStatusCode, trace, type Context, type Span, type SpanKind } from '@opentelemetry/api';

/**
 * The service's tracer, through the OpenTelemetry API only: spans go to whatever SDK the operator (or a
 * test) registered. With none registered every call is the API's no-op, so tracing costs next to nothing.
 */
export const tracer = trace.getTracer('autograph');

/**
 * A tracer provider that decides whether a new trace is recorded before any span of it is made
 * (LeanTracerProvider): the request observer asks it first for a request without a caller's trace context,
 * and a request it drops makes no OpenTelemetry call at all. A non-recording span (and its context) for
 * every dropped request cost several percent of a getTask request's CPU (bench/observability.ts, fresh
 * processes: `always_off` +8–12% before, +2% after), far beyond what those calls take alone.
 */
export interface RootSampling {
  /**
   * For a new trace whose root span would be named `name`: the context to start that span under (the span
   * then takes the trace id the decision was made on), or, when the sampler drops the trace, a maker of the
   * context its outgoing calls pass on, flagged not sampled, called only by a request that makes such a call.
   */
  sampleRoot(name: string, kind: SpanKind): { recorded: Context } | { dropped: () => Context };
}

/** The registered provider when it can decide a root first; undefined for any other (or none). */
export function rootSamplingProvider(): RootSampling | undefined {
  const provider = trace.getTracerProvider();
  const registered: object = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  return 'sampleRoot' in registered && typeof registered.sampleRoot === 'function' ? (registered as RootSampling) : undefined;
}

/** Marks `span` failed with `error`'s message, as an exception event. */
export function recordFailure(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Seconds since `startedMs`, a `performance.now()` reading. */
export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}

/**
 * Runs `call`, ending `span` (when there is one) and reporting the call's duration in seconds and whether
 * it failed to `record`, whatever the outcome.
 */
export async function timedCall<T>(span: Span | undefined, record: (seconds: number, failed: boolean) => void, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let failed = false;
  try {
    return await call();
  } catch (error) {
    failed = true;
    if (span) recordFailure(span, error);
    throw error;
  } finally {
    record(secondsSince(started), failed);
    span?.end();
  }
}
