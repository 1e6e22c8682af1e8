/**
 * At most `limit` pieces of work at once; the others wait their turn in arrival order. bcrypt is CPU
 * work: however many requests check passwords together, only this many hashes run, so the requests that
 * do not touch passwords keep their share of the CPU. A waiter whose request is over by its turn gives
 * the turn up (its `start` throws) without running.
 */
export class WorkSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {}

  /** Runs `work` once a slot is free; `start` runs first, in the slot, and may refuse (throw). */
  async run<T>(work: () => Promise<T>, start: () => void = () => undefined): Promise<T> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      start();
      return await work();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }

  /** Work running now. */
  get running(): number {
    return this.active;
  }

  /** Work waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }
}
