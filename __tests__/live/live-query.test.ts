import type { ExecutionResult } from 'graphql';
import { LiveQuery } from '../../src/live/live-query.js';

/** A LiveQuery whose runs answer `{ data: { n } }` with the current `value`, counting the runs. */
function counting() {
  const state = { value: 0, runs: 0 };
  const query = new LiveQuery(async (): Promise<ExecutionResult> => {
    state.runs++;
    return { data: { n: state.value } };
  });
  return { state, query };
}

describe('LiveQuery', () => {
  it('runs at start, then once per pull however many invalidations came meanwhile (a slow reader costs one flag)', async () => {
    const { state, query } = counting();
    expect(await query.next()).toEqual({ done: false, value: { data: { n: 0 } } });
    for (let i = 1; i <= 1000; i++) {
      state.value = i;
      query.invalidate();
    }
    expect(state.runs).toBe(1);
    expect(await query.next()).toEqual({ done: false, value: { data: { n: 1000 } } });
    expect(state.runs).toBe(2);
  });

  it('does not send a result equal to the last one sent; it waits for the next change instead', async () => {
    const { state, query } = counting();
    await query.next();
    query.invalidate();
    const pending = query.next();
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.runs).toBe(2);
    state.value = 5;
    query.invalidate();
    expect(await pending).toEqual({ done: false, value: { data: { n: 5 } } });
    expect(state.runs).toBe(3);
  });

  it('sends the result given to end() as the last one, then finishes once', async () => {
    const { query } = counting();
    const finished = jest.fn();
    query.onFinished(finished);
    await query.next();
    const waiting = query.next();
    query.end({ errors: [] });
    query.end({ data: { ignored: true } });
    expect(await waiting).toEqual({ done: false, value: { errors: [] } });
    expect(await query.next()).toEqual({ done: true, value: undefined });
    expect(finished).toHaveBeenCalledTimes(1);
  });

  it('return() finishes at once, also while a pull is waiting for a change', async () => {
    const { query } = counting();
    const finished = jest.fn();
    query.onFinished(finished);
    await query.next();
    const waiting = query.next();
    await query.return();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(finished).toHaveBeenCalledTimes(1);
    expect(query.isFinished).toBe(true);
  });
});
