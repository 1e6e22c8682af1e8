import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';

/**
 * The service's tracer, through the OpenTelemetry API only: spans go to whatever SDK the operator (or a
 * test) registered. With none registered every call is the API's no-op, so tracing costs next to nothing.
 */
export const tracer = trace.getTracer('autograph');

/** Marks `span` failed with `error`'s message, as an exception event. */
export function recordFailure(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Seconds since `startedMs`, a `performance.now()` reading. */
export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
