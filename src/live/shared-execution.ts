import type { ExecutionResult } from 'graphql';

/**
 * One execution shared by the subscriptions that would all compute the same result: the same operation,
 * variables and caller. After `invalidate()`, the first subscriber to pull runs it; the others pulling
 * meanwhile or later get that same run, until the next invalidation. So a batch of writes costs one run
 * per distinct subscription, however many subscribers share it.
 */
export class SharedExecution {
  private stale = true;
  private current: Promise<ExecutionResult> | undefined;

  /** `onRun` is told when a run starts and (with `false`) when it has settled. */
  constructor(
    private readonly run: () => Promise<ExecutionResult>,
    private readonly onRun: (running: boolean) => void = () => undefined,
  ) {}

  invalidate(): void {
    this.stale = true;
  }

  /** A run started after the last invalidation: the one under way, or a new one. */
  latest(): Promise<ExecutionResult> {
    if (this.stale || !this.current) {
      this.stale = false;
      this.onRun(true);
      this.current = this.run().finally(() => this.onRun(false));
    }
    return this.current;
  }
}
