import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Store } from '../store/port.js';
import { ChangeBatcher } from './change-batcher.js';
import { serviceAtCapacity, tooManyOnConnection } from './errors.js';
import type { LiveListener } from './listener.js';
import { LiveQuery, type LiveQueryOutcomes } from './live-query.js';
import { touches, type ReadSet } from './read-set.js';
import type { LiveSettings } from './settings.js';
import { SharedExecution } from './shared-execution.js';

/** The longest a batch waits after a round of re-runs, however long the round took. */
const MAX_QUIET_MS = 1000;

/** The subscriptions that compute the same result (same operation, variables and caller), run as one. */
interface Group {
  reads: ReadSet;
  execution: SharedExecution;
  queries: Set<LiveQuery>;
}

/** What a subscription is, for the registry. */
export interface LiveSubscription {
  /** The connection it belongs to (the per-connection limit counts by it). */
  owner: object;
  /** Equal for subscriptions that would compute equal results; they share one execution. */
  sharingKey: string;
  reads: ReadSet;
  /** Runs the operation once, with a fresh context. */
  run: () => Promise<ExecutionResult>;
}

/**
 * The running subscriptions of this instance: what each reads and which connection owns it. It watches
 * the store's change feed only while it holds any, and after each batch of changes marks stale exactly
 * the subscriptions whose reads the batch touched; equal subscriptions share one run per batch.
 */
export class LiveRegistry {
  private readonly groups = new Map<string, Group>();
  private readonly countByOwner = new Map<object, number>();
  private readonly batcher: ChangeBatcher;
  private count = 0;
  /** Executions running now; while any of the last batch's run, the next batch waits (see onBatch). */
  private running = 0;
  /** When the executions running now began to run (the first of them). */
  private roundStartedAt = 0;
  /** After a round of executions, the next batch waits as long as the round took (see onBatch). */
  private quietUntil = 0;
  private heldBack: Set<string> | undefined;
  private releaseTimer: NodeJS.Timeout | undefined;
  /**
   * Batches handed over, distinct executions marked stale by them, re-runs of those executions, and
   * results sent to subscribers or skipped as unchanged, for tests and metrics.
   */
  readonly stats = { batches: 0, invalidations: 0, reruns: 0, delivered: 0, unchanged: 0 };
  private readonly outcomes: LiveQueryOutcomes;

  constructor(
    store: Store,
    private readonly settings: LiveSettings,
    private readonly listener: LiveListener = {},
  ) {
    this.outcomes = {
      delivered: () => {
        this.stats.delivered++;
        this.listener.resultDelivered?.();
      },
      unchanged: () => {
        this.stats.unchanged++;
        this.listener.resultUnchanged?.();
      },
    };
    this.batcher = new ChangeBatcher(store, settings.debounceMs, (collections) => this.onBatch(collections));
  }

  /** Running subscriptions. */
  get size(): number {
    return this.count;
  }

  /** Distinct executions they share. */
  get executions(): number {
    return this.groups.size;
  }

  /** The refusal a new subscription of `owner` would meet now, if any. */
  refusal(owner: object): GraphQLError | undefined {
    if ((this.countByOwner.get(owner) ?? 0) >= this.settings.maxPerConnection) return tooManyOnConnection(this.settings.maxPerConnection);
    if (this.count >= this.settings.maxTotal) return serviceAtCapacity(this.settings.maxTotal);
    return undefined;
  }

  /** Starts `subscription`: the results to send, held here until they finish. Throws the refusal when a limit is reached. */
  add(subscription: LiveSubscription): LiveQuery {
    const refusal = this.refusal(subscription.owner);
    if (refusal) {
      this.noteRefused([refusal]);
      throw refusal;
    }
    let group = this.groups.get(subscription.sharingKey);
    if (!group) {
      group = { reads: subscription.reads, execution: new SharedExecution(this.countingReruns(subscription.run), (running) => this.noteRun(running)), queries: new Set() };
      this.groups.set(subscription.sharingKey, group);
    }
    const shared = group;
    const query = new LiveQuery(() => shared.execution.latest(), this.outcomes);
    shared.queries.add(query);
    this.count++;
    this.listener.runningChanged?.(this.count);
    this.countByOwner.set(subscription.owner, (this.countByOwner.get(subscription.owner) ?? 0) + 1);
    this.batcher.start();
    query.onFinished(() => this.remove(subscription, shared, query));
    return query;
  }

  /** Reports a subscription refused before it started with `errors` (the first error's code is the reason). */
  noteRefused(errors: readonly GraphQLError[]): void {
    const code = errors[0]?.extensions.code;
    this.listener.refused?.(typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR');
  }

  /** Ends every running subscription with `result` (a schema swap). */
  endAll(result: ExecutionResult): void {
    for (const group of [...this.groups.values()]) for (const query of [...group.queries]) query.end(result);
  }

  close(): void {
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    this.heldBack = undefined;
    for (const group of [...this.groups.values()]) for (const query of [...group.queries]) void query.return();
    this.batcher.stop();
  }

  private remove(subscription: LiveSubscription, group: Group, query: LiveQuery): void {
    if (!group.queries.delete(query)) return;
    this.count--;
    this.listener.runningChanged?.(this.count);
    if (group.queries.size === 0 && this.groups.get(subscription.sharingKey) === group) this.groups.delete(subscription.sharingKey);
    const left = (this.countByOwner.get(subscription.owner) ?? 1) - 1;
    if (left > 0) this.countByOwner.set(subscription.owner, left);
    else this.countByOwner.delete(subscription.owner);
    if (this.count === 0) this.batcher.stop();
  }

  /** `run`, counting each run after its first as a re-run. */
  private countingReruns(run: () => Promise<ExecutionResult>): () => Promise<ExecutionResult> {
    let runs = 0;
    return () => {
      if (runs++ > 0) {
        this.stats.reruns++;
        this.listener.rerun?.();
      }
      return run();
    };
  }

  private noteRun(running: boolean): void {
    if (running && this.running === 0) this.roundStartedAt = Date.now();
    this.running += running ? 1 : -1;
    if (this.running > 0) return;
    this.quietUntil = Date.now() + Math.min(Date.now() - this.roundStartedAt, MAX_QUIET_MS);
    this.releaseHeldBack();
  }

  private releaseHeldBack(): void {
    if (!this.heldBack || this.running > 0 || this.releaseTimer) return;
    const wait = this.quietUntil - Date.now();
    if (wait > 0) {
      this.releaseTimer = setTimeout(() => {
        this.releaseTimer = undefined;
        this.releaseHeldBack();
      }, wait);
      return;
    }
    const batch = this.heldBack;
    this.heldBack = undefined;
    this.onBatch(batch);
  }

  /**
   * Marks stale what `collections` touched. While executions are still running, and after they are done
   * for as long again as they took, the batch is held back and merged with the next ones: re-runs then
   * take at most about half of the event loop, however many writes come, and writes keep the rest. Under
   * a light load a round takes a few milliseconds, and so does the wait.
   */
  private onBatch(collections: ReadonlySet<string>): void {
    if (this.running > 0 || Date.now() < this.quietUntil || this.releaseTimer) {
      this.heldBack ??= new Set();
      for (const collection of collections) this.heldBack.add(collection);
      this.releaseHeldBack();
      return;
    }
    this.stats.batches++;
    for (const group of this.groups.values()) {
      if (!touches(group.reads, collections)) continue;
      this.stats.invalidations++;
      group.execution.invalidate();
      for (const query of group.queries) query.invalidate();
    }
  }
}
