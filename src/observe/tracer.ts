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
