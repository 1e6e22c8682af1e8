/** What to do after the lambda worker stopped: restart it (after a pause), or give up. */
export type RestartDecision = { restartAfterMs: number } | { giveUp: string };

export interface RestartPolicyOptions {
  /** Crashes in a row, with no call answered in between, after which restarts stop. Default 5. */
  maxCrashesInARow?: number;
  /** Pause before the second restart in a row; it doubles for each further one. Default 250 ms. */
  firstPauseMs?: number;
  /** The longest pause. Default 4000 ms. */
  maxPauseMs?: number;
}

/**
 * Keeps a script that crashes its worker on its own (say a timer that exhausts the memory limit, which
 * runs again in every fresh worker) from restarting it forever. A stop while a call was running is that
 * call's failure: the worker is restarted at once and nothing is counted, since calls are what brought
 * it down. A stop with no call running, or a restart that fails, is a crash of the script itself: the
 * first is restarted at once, the next ones after pauses that double, and after `maxCrashesInARow` of them
 * with no call answered in between, the policy gives up (until a new script is loaded).
 */
export class RestartPolicy {
  private crashesInARow = 0;
  private readonly maxCrashesInARow: number;
  private readonly firstPauseMs: number;
  private readonly maxPauseMs: number;

  constructor(options: RestartPolicyOptions = {}) {
    this.maxCrashesInARow = options.maxCrashesInARow ?? 5;
    this.firstPauseMs = options.firstPauseMs ?? 250;
    this.maxPauseMs = options.maxPauseMs ?? 4_000;
  }

  /**
   * A worker stopped. `causedByCall`: a call was running in it; `answeredCalls`: it had answered calls
   * since it started (which shows the script works, so earlier crashes no longer count).
   */
  afterStop(stop: { reason: string; causedByCall: boolean; answeredCalls: boolean }): RestartDecision {
    if (stop.answeredCalls) this.crashesInARow = 0;
    if (stop.causedByCall) return { restartAfterMs: 0 };
    return this.crashed(stop.reason);
  }

  /** A replacement worker could not be started. */
  restartFailed(reason: string): RestartDecision {
    return this.crashed(reason);
  }

  /** A new script was loaded: its crashes count from zero. */
  reset(): void {
    this.crashesInARow = 0;
  }

  private crashed(reason: string): RestartDecision {
    this.crashesInARow += 1;
    if (this.crashesInARow >= this.maxCrashesInARow) {
      return {
        giveUp: `the lambda worker stopped ${this.crashesInARow} times in a row without answering a call (last: ${reason}); ` +
          'lambda fields fail until a new lambda script is loaded',
      };
    }
    if (this.crashesInARow === 1) return { restartAfterMs: 0 };
    return { restartAfterMs: Math.min(this.maxPauseMs, this.firstPauseMs * 2 ** (this.crashesInARow - 2)) };
  }
}
