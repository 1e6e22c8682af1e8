import type { HrTime, TimeInput } from '@opentelemetry/api';

/** How often the offset from the monotonic clock to the wall clock is read again. */
const REANCHOR_MS = 1_000;

/**
 * Span times as milliseconds since the epoch with sub-millisecond precision: `performance.now()` plus an
 * offset to `Date.now()`. The offset is read again every second, so a long-running process follows changes
 * of the wall clock, as the SDK does by anchoring each span to `Date.now()` (which costs a system clock
 * read per span). A span's end is its start plus the monotonic time since, so it never precedes its start.
 */
export class SpanClock {
  private offset = 0;
  private anchoredAt = Number.NEGATIVE_INFINITY;

  /** The wall-clock time of the monotonic reading `monotonicMs` (a `performance.now()` value). */
  epochMsAt(monotonicMs: number): number {
    if (monotonicMs - this.anchoredAt >= REANCHOR_MS) {
      this.anchoredAt = performance.now();
      this.offset = Date.now() - this.anchoredAt;
    }
    return monotonicMs + this.offset;
  }

  /**
   * A caller's time as epoch milliseconds, read as the SDK reads it: a number not later than
   * `performance.now()` is a `performance.now()` value, a larger one epoch milliseconds; a Date; or an HrTime.
   */
  epochMsOf(time: TimeInput): number {
    if (typeof time === 'number') return time <= performance.now() ? this.epochMsAt(time) : time;
    if (time instanceof Date) return time.getTime();
    return time[0] * 1000 + time[1] / 1e6;
  }
}

/** Epoch milliseconds as OpenTelemetry's `[seconds, nanoseconds]`. */
export function hrTimeOfEpochMs(epochMs: number): HrTime {
  let seconds = Math.floor(epochMs / 1000);
  let nanos = Math.round((epochMs - seconds * 1000) * 1e6);
  if (nanos >= 1e9) {
    seconds += 1;
    nanos -= 1e9;
  }
  return [seconds, nanos];
}

/** Whether `value` is a time as the API's overloaded arguments accept one (epoch or performance ms, Date, HrTime). */
export function isTimeInput(value: unknown): value is TimeInput {
  return (
    typeof value === 'number' ||
    value instanceof Date ||
    (Array.isArray(value) && value.length === 2 && typeof value[0] === 'number' && typeof value[1] === 'number')
  );
}
