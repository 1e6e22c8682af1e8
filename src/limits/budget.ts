/**
 * The execution budget of one GraphQL request: a deadline and a cap on the objects its answer may hold.
 * Both hold even when a request's estimated cost was wrong. resolve/ creates one per request (with the
 * request context), charges the objects each field resolves to against it, and lets every store call
 * carry its deadline (MongoDB `maxTimeMS`; the embedded store checks the clock while it scans).
 *
 * Once a budget is exceeded the request is over: every later check throws the same error, so no new
 * work starts, and the server answers with that one error.
 */
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../errors/codes.js';

/** Apollo Router's code for a request that ran past its time limit. */
export const REQUEST_TIMEOUT = ErrorCode.REQUEST_TIMEOUT;
/** The answer would hold more objects than the request may return. */
export const RESULT_TOO_LARGE = ErrorCode.RESULT_TOO_LARGE;

export interface BudgetLimits {
  /** Milliseconds from the request's start until it is stopped. */
  timeoutMs: number;
  /** Most objects (values of object and interface type, list items counted one by one) one answer may hold. */
  maxObjects: number;
  /** Most bcrypt operations (`@secret` passwords hashed or checked) one request may do; DEFAULT_BUDGET_LIMITS's when absent. */
  maxPasswordOperations?: number;
}

/**
 * 10 s: far above what a query within the cost limits needs, and below the 30 s after which Apollo Router
 * (traffic_shaping's default timeout) gives up on a subgraph, so a client behind a router hears why.
 * 100,000 objects: ten full pages of the largest page size (`first: 10000`), a few hundred MB of JSON
 * at most; GitHub's GraphQL API allows 500,000 nodes, but counts only what the query asks for.
 */
export const DEFAULT_BUDGET_LIMITS: Readonly<Required<BudgetLimits>> = { timeoutMs: 10_000, maxObjects: 100_000, maxPasswordOperations: 10 };

/** The flags that raise each limit, named in the errors so an operator knows what to change. */
const FLAGS = { timeoutMs: '--request-timeout-ms', maxObjects: '--max-result-objects', maxPasswordOperations: '--max-password-operations' } as const;

export class RequestBudget {
  /** Absolute time (`Date.now()`, ms) at which the request is stopped. */
  readonly deadline: number;
  private objects = 0;
  private failure: GraphQLError | undefined;
  private timer: NodeJS.Timeout | undefined;
  private expiry: Promise<never> | undefined;

  constructor(
    readonly limits: Readonly<BudgetLimits>,
    startedAt: number = Date.now(),
  ) {
    this.deadline = startedAt + limits.timeoutMs;
  }

  /** The error that ended the request, if a budget was exceeded. */
  get exceeded(): GraphQLError | undefined {
    return this.failure;
  }

  /** Objects charged so far. */
  get objectCount(): number {
    return this.objects;
  }

  /** Throws the request's budget error if one was exceeded or the deadline has passed. */
  check(): void {
    if (this.failure) throw this.failure;
    if (Date.now() >= this.deadline) throw this.timedOut();
  }

  /** Charges `count` objects of the answer; throws RESULT_TOO_LARGE once they pass the cap. */
  holdObjects(count: number): void {
    this.check();
    this.objects += count;
    if (this.objects > this.limits.maxObjects) {
      throw this.fail(
        `result too large: the answer would hold more than ${this.limits.maxObjects} objects (${FLAGS.maxObjects}); ask for fewer with first, filter or a shallower selection`,
        RESULT_TOO_LARGE,
      );
    }
  }

  /** The REQUEST_TIMEOUT error, recorded as the request's failure (the first failure stays). */
  timedOut(): GraphQLError {
    return this.failure ?? this.fail(`request timed out: it ran longer than ${this.limits.timeoutMs} ms (${FLAGS.timeoutMs})`, REQUEST_TIMEOUT);
  }

  /**
   * What `work` gives, unless the deadline comes first: then REQUEST_TIMEOUT, and `work` is left to
   * finish on its own (its result is dropped). For work that is safe to abandon, such as a read.
   */
  within<T>(work: Promise<T>): Promise<T> {
    this.check();
    return Promise.race([work, this.expired()]);
  }

  /** Stops the deadline's timer; call when the request is answered. */
  release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One promise per request that rejects at the deadline; its timer does not keep the process alive. */
  private expired(): Promise<never> {
    if (!this.expiry) {
      this.expiry = new Promise<never>((_, reject) => {
        this.timer = setTimeout(() => reject(this.timedOut()), Math.max(0, this.deadline - Date.now()));
        this.timer.unref();
      });
      // Nobody may be racing when it fires (the request's reads were over): that rejection is expected.
      this.expiry.catch(() => undefined);
    }
    return this.expiry;
  }

  private fail(message: string, code: string): GraphQLError {
    this.failure = new GraphQLError(message, { extensions: { code } });
    return this.failure;
  }
}

/** Node's timers take at most 2^31 - 1 ms (about 24.8 days); a longer delay would fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Throws RangeError unless every limit given is a positive integer and the timeout fits a timer. */
export function checkBudgetLimits(limits: Readonly<BudgetLimits>): void {
  for (const key of ['timeoutMs', 'maxObjects', 'maxPasswordOperations'] as const) {
    const value = limits[key];
    if (value === undefined && key === 'maxPasswordOperations') continue;
    if (value === undefined || !Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`${key} (${FLAGS[key]}) must be a positive integer, got ${value}`);
    }
  }
  if (limits.timeoutMs > MAX_TIMEOUT_MS) {
    throw new RangeError(`timeoutMs (${FLAGS.timeoutMs}) must be at most ${MAX_TIMEOUT_MS}, got ${limits.timeoutMs}`);
  }
}
