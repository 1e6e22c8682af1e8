/**
 * Runs units of work (transactions and auto-committed single operations) one at a time, in arrival order.
 * The running one is "active": operations carrying its handle join it; readers outside it see the state
 * before it. Nested use is detected and refused, since waiting for the running unit from inside it would
 * never finish.
 *
 * A unit is acknowledged only once its log record is durable, and until then readers outside it see the
 * state before it. Writing units are pipelined (`pipelined`, `caller`): once a unit's record is written,
 * the next unit may do its work while that record's fsync runs, on top of the first unit's writes (as the
 * log will replay them), but it writes its own record only once the first one is durable. If that fsync
 * fails, the next unit fails too, and both are undone, the later one first. So at most two units are in
 * flight: one committing (its fsync running), one running (its work). The store's other units
 * (`exclusive`: index changes, snapshots, compactions) start only once nothing is committing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from '../port.js';
import type { EarlierVersions } from './write-scope.js';
import { WriteScope } from './write-scope.js';

/**
 * `exclusive`: starts once every earlier unit is durable, and holds the turn until its own commit has
 * settled. `pipelined`: may start while the unit before is committing. `caller`: pipelined, and runs a
 * caller's code, whose store calls without the unit's handle are refused (see `tracingCallers`).
 */
export type UnitMode = 'exclusive' | 'pipelined' | 'caller';

/** A pipelined unit whose record is written and whose fsync has not settled (or that awaits its undoing). */
interface Committing {
  scope: WriteScope;
  undo(): void;
  /** Settles (never rejects) once the fsync has; `failure` is set first when it failed. */
  outcome: Promise<void>;
  failure?: { error: unknown };
  /** Resolves once the unit is done with: durable, or failed and undone. */
  finished: Promise<void>;
  finish(): void;
}

/** A unit undone because the one before it, whose writes it built on, failed to become durable. */
export class EarlierCommitFailedError extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what} was undone: the unit of work before it, whose writes it read, could not be made durable (${cause instanceof Error ? cause.message : String(cause)})`);
    this.name = 'EarlierCommitFailedError';
  }
}

export class TransactionManager {
  private queueTail: Promise<void> = Promise.resolve();
  private running: WriteScope | undefined;
  private committing: Committing | undefined;
  private nextId = 1;
  private readonly context = new AsyncLocalStorage<WriteScope>();

  /** The unit in progress (running its work, or committing), if any. */
  get active(): WriteScope | undefined {
    return this.running ?? this.committing?.scope;
  }

  /**
   * The versions of `collection`'s documents that readers outside the units in flight must see instead of
   * the current ones: those before the committing unit, else before the running one.
   */
  hiddenVersions(collection: string): EarlierVersions | undefined {
    const older = this.committing?.scope.earlierVersions(collection);
    const newer = this.running?.earlierVersions(collection);
    if (!older || !newer) return older ?? newer;
    const merged = new Map(newer);
    for (const [id, version] of older) merged.set(id, version);
    return merged;
  }

  /**
   * Waits for its turn, then runs `work` in a fresh scope and `commit` after it; if either throws,
   * `rollback` undoes the scope and the error is rethrown. The promise settles once the commit has (its
   * record durable); until then other readers see the state before the unit. `mode`: see UnitMode.
   */
  async run<T>(
    what: string,
    work: (scope: WriteScope) => Promise<T> | T,
    commit: (scope: WriteScope) => Promise<void> | void,
    rollback: (scope: WriteScope) => void,
    mode: UnitMode = 'exclusive',
  ): Promise<T> {
    const enclosing = this.context.getStore();
    if (enclosing && enclosing === this.running) {
      throw new Error(
        `${what} was called inside transaction ${enclosing.handle.id} without its handle; pass { tx } ` +
          '(waiting for the transaction from inside it would never finish)',
      );
    }
    const release = await this.nextTurn();
    let released = false;
    const releaseTurn = (): void => {
      if (released) return;
      released = true;
      release();
    };
    let scope: WriteScope | undefined;
    try {
      if (mode === 'exclusive') await this.committing?.finished;
      scope = new WriteScope(this.nextId++);
      this.running = scope;
      let result: T;
      try {
        result = mode === 'caller' ? await this.tracingCallers(scope, work) : await work(scope);
        // The unit before (whose writes this one may have read) must be durable before this one's record is written.
        const previous = this.committing;
        if (previous) await previous.outcome;
        if (previous?.failure) throw new EarlierCommitFailedError(what, previous.failure.error);
      } catch (error) {
        this.undoAfterFailure(scope, rollback);
        throw error;
      }
      if (mode === 'exclusive') {
        try {
          await commit(scope);
        } catch (error) {
          rollback(scope);
          throw error;
        } finally {
          this.running = undefined;
        }
        return result;
      }
      const entry = this.startCommitting(scope, commit, rollback);
      this.running = undefined;
      releaseTurn();
      await entry.finished;
      if (entry.failure) throw entry.failure.error;
      return result;
    } finally {
      // A pipelined unit gave up its turn when its record was written: the one running now is another.
      if (scope !== undefined && this.running === scope) this.running = undefined;
      releaseTurn();
    }
  }

  /** `run` in mode `caller`, for a caller's transaction. */
  runCallerWork<T>(
    what: string,
    work: (scope: WriteScope) => Promise<T> | T,
    commit: (scope: WriteScope) => Promise<void> | void,
    rollback: (scope: WriteScope) => void,
  ): Promise<T> {
    return this.run(what, work, commit, rollback, 'caller');
  }

  /** Starts the commit of a pipelined unit; the unit stays hidden from readers until it is finished. */
  private startCommitting(scope: WriteScope, commit: (scope: WriteScope) => Promise<void> | void, rollback: (scope: WriteScope) => void): Committing {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const entry: Committing = {
      scope,
      undo: () => rollback(scope),
      outcome: Promise.resolve(),
      finished,
      finish: () => {
        if (this.committing === entry) this.committing = undefined;
        finish();
      },
    };
    entry.outcome = (async () => {
      try {
        await commit(scope);
      } catch (error) {
        entry.failure = { error };
      }
    })();
    this.committing = entry;
    void entry.outcome.then(() => {
      if (!entry.failure) return entry.finish();
      // A unit running now may have read this one's writes: it undoes itself first, then this one
      // (undoAfterFailure). With none running, nothing was built on them.
      if (!this.running) {
        entry.undo();
        entry.finish();
      }
    });
    return entry;
  }

  /** Undoes the running unit, then the committing one if its commit failed (the later first). */
  private undoAfterFailure(scope: WriteScope, rollback: (scope: WriteScope) => void): void {
    rollback(scope);
    const previous = this.committing;
    if (previous?.failure) {
      previous.undo();
      previous.finish();
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

  /** Waits until every unit queued so far has finished and is durable (used by close). */
  async drain<T>(then: () => Promise<T> | T): Promise<T> {
    const release = await this.nextTurn();
    try {
      await this.committing?.finished;
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
