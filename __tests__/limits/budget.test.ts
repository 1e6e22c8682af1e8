import { GraphQLError } from 'graphql';
import {
  checkBudgetLimits, DEFAULT_BUDGET_LIMITS, MAX_TIMEOUT_MS, REQUEST_TIMEOUT, RequestBudget, RESULT_TOO_LARGE,
} from '../../src/limits/budget.js';

const START = 1_000_000;
const TIMEOUT_MESSAGE = 'request timed out: it ran longer than 500 ms (--request-timeout-ms)';
const tooLarge = (max: number) =>
  `result too large: the answer would hold more than ${max} objects (--max-result-objects); ask for fewer with first, filter or a shallower selection`;

function codeOf(error: unknown): unknown {
  return error instanceof GraphQLError ? error.extensions.code : undefined;
}

function thrownBy(work: () => void): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}

let now = START;
beforeEach(() => {
  now = START;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('RequestBudget deadline', () => {
  it.each([
    ['just started', 0, undefined],
    ['1 ms before the deadline', 499, undefined],
    ['at the deadline', 500, REQUEST_TIMEOUT],
    ['long after', 60_000, REQUEST_TIMEOUT],
  ])('check() %s', (_label, elapsed, code) => {
    const budget = new RequestBudget({ timeoutMs: 500, maxObjects: 10 }, START);
    now = START + elapsed;
    const error = thrownBy(() => budget.check());
    expect(codeOf(error)).toBe(code);
    if (code) expect((error as Error).message).toBe(TIMEOUT_MESSAGE);
  });

  it('starts its deadline when it is created', () => {
    now = START + 42;
    expect(new RequestBudget({ timeoutMs: 500, maxObjects: 10 }).deadline).toBe(START + 542);
  });
});

describe('RequestBudget objects', () => {
  it.each([
    { max: 3, charges: [1, 1, 1], failsAt: undefined },
    { max: 3, charges: [2, 2], failsAt: 1 },
    { max: 3, charges: [4], failsAt: 0 },
    { max: 3, charges: [0, 3, 0], failsAt: undefined },
    { max: 1, charges: [1, 1], failsAt: 1 },
  ])('a cap of $max with charges $charges fails at charge $failsAt', ({ max, charges, failsAt }) => {
    const budget = new RequestBudget({ timeoutMs: 500, maxObjects: max }, START);
    const failures = charges.map((count) => thrownBy(() => budget.holdObjects(count)));
    const firstFailure = failures.findIndex((error) => error !== undefined);
    expect(firstFailure === -1 ? undefined : firstFailure).toBe(failsAt);
    if (failsAt !== undefined) {
      expect(codeOf(failures[failsAt])).toBe(RESULT_TOO_LARGE);
      expect((failures[failsAt] as Error).message).toBe(tooLarge(max));
    }
  });

  it('ends the request at the first exceeded budget: later checks throw that same error', () => {
    const budget = new RequestBudget({ timeoutMs: 500, maxObjects: 1 }, START);
    const first = thrownBy(() => budget.holdObjects(2));
    now = START + 10_000;
    expect(thrownBy(() => budget.check())).toBe(first);
    expect(thrownBy(() => budget.holdObjects(0))).toBe(first);
    expect(budget.timedOut()).toBe(first);
    expect(budget.exceeded).toBe(first);
  });

  it('refuses to charge objects after the deadline, as a timeout', () => {
    const budget = new RequestBudget({ timeoutMs: 500, maxObjects: 100 }, START);
    now = START + 500;
    expect(codeOf(thrownBy(() => budget.holdObjects(1)))).toBe(REQUEST_TIMEOUT);
    expect(budget.objectCount).toBe(0);
  });
});

describe('RequestBudget.within', () => {
  it('answers what the work gives before the deadline', async () => {
    const budget = new RequestBudget({ timeoutMs: 500, maxObjects: 10 }, START);
    await expect(budget.within(Promise.resolve('rows'))).resolves.toBe('rows');
    await expect(budget.within(Promise.reject(new Error('store failed')))).rejects.toThrow('store failed');
    budget.release();
  });

  it('rejects with REQUEST_TIMEOUT at the deadline while the work still runs', async () => {
    jest.useFakeTimers({ now: START, doNotFake: ['Date'] });
    const budget = new RequestBudget({ timeoutMs: 500, maxObjects: 10 }, START);
    const never = new Promise<string>(() => undefined);
    const raced = budget.within(never);
    const settled = raced.then(() => 'resolved', (error: unknown) => error);
    jest.advanceTimersByTime(499);
    await Promise.resolve();
    now = START + 500;
    jest.advanceTimersByTime(1);
    const error = await settled;
    expect(codeOf(error)).toBe(REQUEST_TIMEOUT);
    expect(budget.exceeded).toBe(error);
  });

  it('refuses at once when the budget is already exceeded', () => {
    const budget = new RequestBudget({ timeoutMs: 500, maxObjects: 1 }, START);
    thrownBy(() => budget.holdObjects(5));
    expect(() => budget.within(Promise.resolve(1))).toThrow(budget.exceeded!);
  });

  it('leaves no timer behind once released', async () => {
    jest.useFakeTimers({ now: START, doNotFake: ['Date'] });
    const budget = new RequestBudget({ timeoutMs: 500, maxObjects: 10 }, START);
    await budget.within(Promise.resolve(1));
    expect(jest.getTimerCount()).toBe(1);
    budget.release();
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('checkBudgetLimits', () => {
  it.each([
    [{ timeoutMs: 0, maxObjects: 1 }, 'timeoutMs (--request-timeout-ms) must be a positive integer, got 0'],
    [{ timeoutMs: 1.5, maxObjects: 1 }, 'timeoutMs (--request-timeout-ms) must be a positive integer, got 1.5'],
    [{ timeoutMs: 1, maxObjects: -3 }, 'maxObjects (--max-result-objects) must be a positive integer, got -3'],
    [{ timeoutMs: 1, maxObjects: Number.NaN }, 'maxObjects (--max-result-objects) must be a positive integer, got NaN'],
    [{ timeoutMs: MAX_TIMEOUT_MS + 1, maxObjects: 1 }, `timeoutMs (--request-timeout-ms) must be at most ${MAX_TIMEOUT_MS}, got ${MAX_TIMEOUT_MS + 1}`],
  ])('refuses %o', (limits, message) => {
    expect(() => checkBudgetLimits(limits)).toThrow(new RangeError(message));
  });

  it('accepts the defaults and the largest timer', () => {
    expect(() => checkBudgetLimits(DEFAULT_BUDGET_LIMITS)).not.toThrow();
    expect(() => checkBudgetLimits({ timeoutMs: MAX_TIMEOUT_MS, maxObjects: 1 })).not.toThrow();
  });
});
