import { WorkSlots } from '../../src/resolve/passwords/work-slots.js';

/** The bcrypt slots: at most `limit` pieces of work at once, the rest in arrival order; a refused start gives its turn up. */

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkSlots', () => {
  it('runs at most `limit` at once, then the waiting ones in arrival order', async () => {
    const slots = new WorkSlots(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, index) => slots.run(async () => {
      started.push(index);
      await gate.promise;
      return index;
    }));
    await tick();
    expect([started, slots.running, slots.queued]).toEqual([[0, 1], 2, 2]);
    gates[1]!.resolve();
    await tick();
    expect([started, slots.running, slots.queued]).toEqual([[0, 1, 2], 2, 1]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect([slots.running, slots.queued]).toEqual([0, 0]);
  });

  it('a start that refuses (the request is over) frees the slot without running the work', async () => {
    const slots = new WorkSlots(1);
    const gate = deferred();
    const first = slots.run(() => gate.promise);
    let ran = false;
    const refused = slots.run(async () => {
      ran = true;
    }, () => {
      throw new Error('request timed out');
    });
    const third = slots.run(async () => 'third');
    gate.resolve();
    await first;
    await expect(refused).rejects.toThrow('request timed out');
    expect(await third).toBe('third');
    expect(ran).toBe(false);
    expect(slots.running).toBe(0);
  });
});
