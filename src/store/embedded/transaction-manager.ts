/**
 * Runs units of work (transactions and auto-committed single operations) one at a time, in arrival order.
 * The running one is "active": operations carrying its handle join it; readers outside it see the state
 * before it. Nested use is detected and refused, since waiting for the running unit from inside it would
 * never finish.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from '../port.js';
import { WriteScope } from './write-scope.js';

export class TransactionManager {
  private queueTail: Promise<void> = Promise.resolve();
  private running: WriteScope | undefined;
  private nextId = 1;
  private readonly context = new AsyncLocalStorage<WriteScope>();

  /** The transaction in progress, if any. */
  get active(): WriteScope | undefined {
    return this.running;
  }

  /**
   * Waits for its turn, then runs `work` in a fresh scope and `commit` after it; if either throws,
   * `rollback` undoes the scope and the error is rethrown. The unit stays the running one until `commit`
   * has settled (its record durable), so until then other readers still see the state before it and the
   * next unit waits. For the store's own units, whose `work` never calls back into the store; a caller's
   * transaction goes through `runCallerWork`.
   */
  run<T>(
    what: string,
    work: (scope: WriteScope) => Promise<T> | T,
    commit: (scope: WriteScope) => Promise<void> | void,
    rollback: (scope: WriteScope) => void,
  ): Promise<T> {
    return this.runUnit(what, work, commit, rollback, false);
  }

  /**
   * `run` for a caller's transaction: while `work` runs, a store call it makes without the unit's handle
   * is recognised as coming from inside the unit, and refused instead of waiting for the unit forever.
   */
  runCallerWork<T>(
    what: string,
    work: (scope: WriteScope) => Promise<T> | T,
    commit: (scope: WriteScope) => Promise<void> | void,
    rollback: (scope: WriteScope) => void,
  ): Promise<T> {
    return this.runUnit(what, work, commit, rollback, true);
  }

  private async runUnit<T>(
    what: string,
    work: (scope: WriteScope) => Promise<T> | T,
    commit: (scope: WriteScope) => Promise<void> | void,
    rollback: (scope: WriteScope) => void,
    callerWork: boolean,
  ): Promise<T> {
    const enclosing = this.context.getStore();
    if (enclosing && enclosing === this.running) {
      throw new Error(
        `${what} was called inside transaction ${enclosing.handle.id} without its handle; pass { tx } ` +
          '(waiting for the transaction from inside it would never finish)',
      );
    }
    const release = await this.nextTurn();
    const scope = new WriteScope(this.nextId++);
    this.running = scope;
    try {
      const result = callerWork ? await this.tracingCallers(scope, work) : await work(scope);
      await commit(scope);
      return result;
    } catch (error) {
      rollback(scope);
      throw error;
    } finally {
      this.running = undefined;
      release();
    }
  }

  /**
   * Runs a caller's `work` with the unit as the context of everything it calls. Only then is the context
   * needed: while this store's instance is enabled, Node runs a hook on every promise the process creates
   * (every request's, not only this unit's), which makes each `await` about three times as expensive; so it
   * is disabled again as soon as the work is done, before the commit waits for its fsync.
   */
  private async tracingCallers<T>(scope: WriteScope, work: (scope: WriteScope) => Promise<T> | T): Promise<T> {
    try {
      return await this.context.run(scope, () => work(scope));
    } finally {
      this.context.disable();
    }
  }

  /** Waits until every unit queued so far has finished (used by close). */
  async drain<T>(then: () => Promise<T> | T): Promise<T> {
    const release = await this.nextTurn();
    try {
      return await then();
    } finally {
      release();
    }
  }

  /** The scope of the running transaction `tx`; throws if `tx` is not the running one. */
  scopeOf(tx: Transaction): WriteScope {
    if (this.running && this.running.handle === tx) return this.running;
    throw new Error(`transaction ${String(tx?.id)} is not running (it has finished, or belongs to another store)`);
  }

  private nextTurn(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.queueTail;
    this.queueTail = previous.then(() => turn);
    return previous.then(() => release);
  }
}
