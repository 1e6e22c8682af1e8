/**
 * The deadline and the pace of one embedded-store operation, as its scans see them. A scan calls `tick()`
 * once per document; the clock is read only every CHECK_EVERY ticks, so a scan pays a counter decrement
 * per document and little more. At each look at the clock the scan stops with DeadlineExceededError if
 * the deadline has passed, and a read learns whether it has held the event loop for YIELD_AFTER_MS: then
 * it awaits `turn()`, so other requests are served between the slices of a long scan.
 */
import { DeadlineExceededError } from '../port.js';

/** Documents between two looks at the clock: a few hundred microseconds of mingo matching at most. */
export const CHECK_EVERY = 256;

/** How long a read scans before it lets the event loop run other work. */
export const YIELD_AFTER_MS = 4;

export interface ScanDeadline {
  /**
   * Counts one scanned document; throws DeadlineExceededError once the deadline has passed. True when
   * the scan should give the event loop a turn (a read may; a write, inside its unit of work, must not).
   */
  tick(): boolean;
  /** Lets the event loop run whatever is waiting, then starts a new slice. */
  turn(): Promise<void>;
  /** `items`, ticking once per item as it is consumed (for inputs handed to mingo's pipelines). */
  paced<T>(items: readonly T[]): Iterable<T>;
}

/** For scans that must not yield and have no deadline (replay, index builds, tests). */
export const NO_DEADLINE: ScanDeadline = {
  tick: () => false,
  turn: async () => undefined,
  paced: (items) => items,
};

/** The deadline of `operation` (none: only the pace); it throws at once if `deadline` has already passed. */
export function scanDeadline(deadline: number | undefined, operation: string): ScanDeadline {
  return new ClockedScan(deadline, operation);
}

class ClockedScan implements ScanDeadline {
  private untilCheck = CHECK_EVERY;
  private sliceStart: number;

  constructor(
    private readonly deadline: number | undefined,
    private readonly operation: string,
  ) {
    this.sliceStart = Date.now();
    this.check(this.sliceStart);
  }

  tick(): boolean {
    if (--this.untilCheck > 0) return false;
    this.untilCheck = CHECK_EVERY;
    const now = Date.now();
    this.check(now);
    return now - this.sliceStart >= YIELD_AFTER_MS;
  }

  async turn(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = Date.now();
  }

  *paced<T>(items: readonly T[]): Iterable<T> {
    for (const item of items) {
      this.tick();
      yield item;
    }
  }

  private check(now: number): void {
    if (this.deadline !== undefined && now >= this.deadline) throw new DeadlineExceededError(this.operation);
  }
}
