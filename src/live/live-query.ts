import type { ExecutionResult } from 'graphql';

/** Results compared as JSON; a result shared by many subscribers is written out once. */
const texts = new WeakMap<ExecutionResult, string>();
function textOf(result: ExecutionResult): string {
  let text = texts.get(result);
  if (text === undefined) texts.set(result, (text = JSON.stringify(result)));
  return text;
}

/** Told what became of each result: sent, or not sent because it equalled the last one. */
export interface LiveQueryOutcomes {
  delivered?(): void;
  unchanged?(): void;
}

/**
 * One running subscription as the async generator graphql-ws reads results from.
 *
 * It runs its operation at start, and again when it is pulled after `invalidate()`: however many
 * batches of writes arrived meanwhile, that is one run, so a consumer that reads slowly costs one pending
 * flag, never a queue of results. A result equal to the last one sent is not sent again. `end(result)`
 * sends `result` (the reason, as errors) and then finishes; `return()` (the client completed, or the
 * socket closed) finishes at once, even while a run or a wait is under way.
 */
export class LiveQuery implements AsyncGenerator<ExecutionResult, undefined> {
  private stale = true;
  private lastSent: string | undefined;
  private finalResult: ExecutionResult | undefined;
  private finished = false;
  private wake: (() => void) | undefined;
  private readonly onFinish: Array<() => void> = [];

  constructor(
    private readonly run: () => Promise<ExecutionResult>,
    private readonly outcomes: LiveQueryOutcomes = {},
  ) {}

  /** Called once, when it finishes for whatever reason. */
  onFinished(callback: () => void): void {
    if (this.finished) callback();
    else this.onFinish.push(callback);
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** The data it reads may have changed: run again when next pulled. */
  invalidate(): void {
    this.stale = true;
    this.signal();
  }

  /** Sends `result` as the last one (unless already finished), then finishes. */
  end(result: ExecutionResult): void {
    if (this.finished || this.finalResult) return;
    this.finalResult = result;
    this.signal();
  }

  async next(): Promise<IteratorResult<ExecutionResult, undefined>> {
    for (;;) {
      if (this.finished) return { done: true, value: undefined };
      if (this.finalResult) {
        const result = this.finalResult;
        this.finish();
        this.outcomes.delivered?.();
        return { done: false, value: result };
      }
      if (this.stale) {
        this.stale = false;
        const result = await this.run();
        if (this.finished || this.finalResult) continue;
        const text = textOf(result);
        if (text === this.lastSent) {
          this.outcomes.unchanged?.();
          continue;
        }
        this.lastSent = text;
        this.outcomes.delivered?.();
        return { done: false, value: result };
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  async return(): Promise<IteratorResult<ExecutionResult, undefined>> {
    this.finish();
    return { done: true, value: undefined };
  }

  async throw(): Promise<IteratorResult<ExecutionResult, undefined>> {
    return this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.signal();
    for (const callback of this.onFinish.splice(0)) callback();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
