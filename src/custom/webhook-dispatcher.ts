import type { LambdaAuthHeader, LambdaGraphqlExecutor, LambdaHost, LambdaLogger } from './lambda-host.js';
import { LambdaCallError, type LambdaCallFailure } from './lambda-errors.js';
import { webhookName, type MutationOperation } from './webhook-bindings.js';

/**
 * Mutation webhooks (`@lambdaOnMutate`): after a mutation commits, the lambda script's `Type.add`,
 * `Type.update` or `Type.delete` is called with the event Dgraph's alpha sends its lambda server
 * (graphql/resolve/webhook.go):
 *
 *   { __typename, operation, commitTs, add: { rootUIDs, input } | update: { rootUIDs, setPatch, removePatch }
 *     | delete: { rootUIDs } }
 *
 * with the schema's auth header beside it. Why the mutation resolver hands the event here rather than the
 * Store port's change feed (which live/ follows): the feed says only which collections a commit wrote,
 * while the event needs the mutated type as the API names it (an interface for `updateI`), the root ids,
 * the add input or the update's patches, and the caller's auth header and identity for the webhook's
 * `graphql()`. Only the mutation resolver knows those, and it knows them once its transaction has
 * committed; a refused or rolled-back mutation never gets that far, so it announces nothing.
 *
 * `committed()` never waits and never throws: the mutation's answer does not depend on its webhook. The
 * calls wait in a bounded queue (a count and a size in bytes; beyond either the event is dropped and
 * counted) and start in commit order, a few at a time; each is a lambda call under the lambda's time limit.
 * A call that fails (the webhook threw, timed out, its worker stopped) is logged and counted. A call lost
 * with a stopped worker after it started is not run again (it may have made changes).
 */

/** What a mutation resolver announces once its transaction has committed. */
export interface CommittedMutation {
  /** The mutated type as the API names it: the interface for an interface's update/delete. */
  typeName: string;
  operation: MutationOperation;
  /** The objects the mutation added (or upserted), updated or deleted, at the top level. */
  rootIds: readonly string[];
  /** add: the inputs as written (JSON values; `@secret` values as their stored hash). */
  input?: readonly unknown[];
  /** update: the `set` and `remove` patches (JSON values; `@secret` values as their stored hash). */
  setPatch?: unknown;
  removePatch?: unknown;
  authHeader?: LambdaAuthHeader;
  /** Runs the webhook's `graphql(query, variables)` as the mutation's caller. */
  graphql: LambdaGraphqlExecutor;
}

/** What happened to one webhook event, for the metrics (custom/ knows nothing of observe/). */
export interface WebhookListener {
  delivered?(name: string): void;
  /** `failure` as for lambda calls; `not-registered` when no loaded script has the webhook. */
  failed?(name: string, failure: LambdaCallFailure): void;
  /** The queue was full: the event was not sent. */
  dropped?(name: string): void;
}

export interface WebhookDispatcherOptions {
  host: LambdaHost;
  logger?: LambdaLogger;
  listener?: WebhookListener;
  /** Most calls waiting to start. Default 1000. */
  maxPending?: number;
  /** Most bytes (the events as JSON) waiting to start. Default 64 MiB. */
  maxPendingBytes?: number;
  /** Most calls running at once. Default 4. */
  concurrency?: number;
}

export const WEBHOOK_DEFAULTS = { maxPending: 1_000, maxPendingBytes: 64 * 1024 * 1024, concurrency: 4 } as const;

interface QueuedCall {
  name: string;
  event: WebhookEvent;
  bytes: number;
  authHeader?: LambdaAuthHeader;
  graphql: LambdaGraphqlExecutor;
}

/** Dgraph's `eventPayload`, key for key. */
export interface WebhookEvent {
  __typename: string;
  operation: MutationOperation;
  commitTs: number;
  add?: { rootUIDs: string[]; input: unknown[] };
  update?: { rootUIDs: string[]; setPatch: unknown; removePatch: unknown };
  delete?: { rootUIDs: string[] };
}

export class WebhookDispatcher {
  private readonly queue: QueuedCall[] = [];
  private queuedBytes = 0;
  private running = 0;
  private lastCommitTs = 0;
  /** Whether the queue's filling up was logged since it last had room (one line per episode, not per drop). */
  private fullLogged = false;
  private closed = false;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly maxPending: number;
  private readonly maxPendingBytes: number;
  private readonly concurrency: number;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.maxPending = positiveInteger(options.maxPending, WEBHOOK_DEFAULTS.maxPending, 'maxPending');
    this.maxPendingBytes = positiveInteger(options.maxPendingBytes, WEBHOOK_DEFAULTS.maxPendingBytes, 'maxPendingBytes');
    this.concurrency = positiveInteger(options.concurrency, WEBHOOK_DEFAULTS.concurrency, 'concurrency');
  }

  /** Calls waiting to start and calls running. */
  get pending(): number {
    return this.queue.length + this.running;
  }

  /** Queues the webhook call of a committed mutation; returns at once. */
  committed(mutation: CommittedMutation): void {
    if (this.closed) return;
    const name = webhookName(mutation.typeName, mutation.operation);
    if (!this.options.host.hasWebhook(name)) {
      this.failed(name, 'not-registered', this.options.host.names().length === 0 && this.options.host.webhookNames().length === 0
        ? 'no lambda script is loaded'
        : 'the lambda script registers no webhook with this name');
      return;
    }
    const event = this.eventOf(mutation);
    let bytes: number;
    try {
      bytes = Buffer.byteLength(JSON.stringify({ event, authHeader: mutation.authHeader }), 'utf8');
    } catch (error) {
      this.failed(name, 'bad-input', `its event cannot be sent to the script as JSON: ${(error as Error).message}`);
      return;
    }
    if (this.queue.length >= this.maxPending || this.queuedBytes + bytes > this.maxPendingBytes) {
      this.drop(name, bytes);
      return;
    }
    this.queue.push({ name, event, bytes, authHeader: mutation.authHeader, graphql: mutation.graphql });
    this.queuedBytes += bytes;
    this.startMore();
  }

  /** Settles once no call is waiting or running (for tests and an orderly shutdown). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops the calls not yet started; later events are ignored. Running calls end with the lambda host. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.settleIdle();
  }

  private eventOf(mutation: CommittedMutation): WebhookEvent {
    const rootUIDs = [...mutation.rootIds];
    const event: WebhookEvent = { __typename: mutation.typeName, operation: mutation.operation, commitTs: this.nextCommitTs() };
    if (mutation.operation === 'add') event.add = { rootUIDs, input: [...(mutation.input ?? [])] };
    else if (mutation.operation === 'update') event.update = { rootUIDs, setPatch: mutation.setPatch ?? null, removePatch: mutation.removePatch ?? null };
    else event.delete = { rootUIDs };
    return event;
  }

  /**
   * Dgraph's commit timestamp comes from its cluster's oracle; here it is the commit's time in microseconds
   * since the epoch, made strictly increasing within this process (so it orders this instance's commits).
   */
  private nextCommitTs(): number {
    this.lastCommitTs = Math.max(Date.now() * 1000, this.lastCommitTs + 1);
    return this.lastCommitTs;
  }

  private startMore(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const call = this.queue.shift()!;
      this.queuedBytes -= call.bytes;
      if (this.queue.length < this.maxPending) this.fullLogged = false;
      this.running += 1;
      void this.run(call).finally(() => {
        this.running -= 1;
        this.startMore();
        this.settleIdle();
      });
    }
  }

  private async run(call: QueuedCall): Promise<void> {
    try {
      await this.options.host.callWebhook(call.name, { event: call.event, authHeader: call.authHeader }, call.graphql);
      this.options.listener?.delivered?.(call.name);
    } catch (error) {
      if (error instanceof LambdaCallError) this.failed(call.name, error.failure, error.detail);
      else this.failed(call.name, 'thrown', error instanceof Error ? error.message : String(error));
    }
  }

  private failed(name: string, failure: LambdaCallFailure, message: string): void {
    this.options.listener?.failed?.(name, failure);
    this.options.logger?.warn(`lambda: webhook ${name} failed (${failure}): ${message}`);
  }

  private drop(name: string, bytes: number): void {
    this.options.listener?.dropped?.(name);
    if (this.fullLogged) return;
    this.fullLogged = true;
    this.options.logger?.warn(
      `lambda: webhook ${name} dropped: ${this.queue.length} calls (${this.queuedBytes} bytes) are waiting, the most allowed is ` +
        `${this.maxPending} calls or ${this.maxPendingBytes} bytes (this event: ${bytes} bytes); further drops are only counted until the queue has room`,
    );
  }

  private settleIdle(): void {
    if (this.pending > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`webhook option ${name} must be a positive integer, got ${value}`);
  return value;
}
