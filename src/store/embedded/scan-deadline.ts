/**
 * The deadline of one embedded-store operation, as its scans see it. A scan calls `tick()` once per
 * document; the clock is read only every CHECK_EVERY ticks, so a scan without a deadline, or far from it,
 * pays a counter increment per document and nothing more.
 */
import { DeadlineExceededError } from '../port.js';

/** Documents between two looks at the clock: a few hundred microseconds of mingo matching at most. */
export const CHECK_EVERY = 256;

export interface ScanDeadline {
  /** Counts one scanned document; throws DeadlineExceededError once the deadline has passed. */
  tick(): void;
  /** `items`, ticking once per item as it is consumed (for inputs handed to mingo's pipelines). */
  paced<T>(items: readonly T[]): Iterable<T>;
}

export const NO_DEADLINE: ScanDeadline = {
  tick: () => undefined,
  paced: (items) => items,
};

/** The deadline of `operation`; it throws at once if `deadline` has already passed. */
export function scanDeadline(deadline: number | undefined, operation: string): ScanDeadline {
  if (deadline === undefined) return NO_DEADLINE;
  return new ClockedDeadline(deadline, operation);
}

class ClockedDeadline implements ScanDeadline {
  private untilCheck = CHECK_EVERY;

  constructor(
    private readonly deadline: number,
    private readonly operation: string,
  ) {
    this.check();
  }

  tick(): void {
    if (--this.untilCheck > 0) return;
    this.untilCheck = CHECK_EVERY;
    this.check();
  }

  *paced<T>(items: readonly T[]): Iterable<T> {
    for (const item of items) {
      this.tick();
      yield item;
    }
  }

  private check(): void {
    if (Date.now() >= this.deadline) throw new DeadlineExceededError(this.operation);
  }
}
