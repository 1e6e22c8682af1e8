import { LambdaCallError, LambdaScriptError } from './lambda-errors.js';
import type { LambdaCallFailure } from './lambda-errors.js';
import { LambdaProcess } from './lambda-process.js';
import { LAMBDA_SANDBOX_RUNTIME_SOURCE } from './lambda-sandbox-runtime.js';
import { LAMBDA_WORKER_SOURCE } from './lambda-worker-source.js';

/** How a resolver was registered: `addGraphQLResolvers` (single) or `addMultiParentGraphQLResolvers` (batch). */
export type LambdaResolverKind = 'single' | 'batch';

/** How one call reaches the script: a resolver for one parent, for a batch of parents, or a webhook. */
export type LambdaCallMode = 'single' | 'batch' | 'webhook';

/** Runs a GraphQL operation for the script, as the caller of the lambda field. */
export type LambdaGraphqlExecutor = (query: string, variables?: Record<string, unknown>) => Promise<object>;

export interface LambdaLogger {
  debug?(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ScriptWorkerOptions {
  timeoutMs: number;
  /** Heap limit of the script's process, and the most ArrayBuffer memory it may hold between entries, in MB. */
  memoryMb: number;
  /** Resident memory past which the script's process is killed, in MB. */
  maxResidentMb: number;
  /** Largest JSON result of one call (and largest graphql() request), in UTF-8 bytes. */
  maxResultBytes: number;
  logger?: LambdaLogger;
  /** Told once when the worker stops for any reason other than `terminate()`. */
  onStopped?: (worker: ScriptWorker, stop: WorkerStop) => void;
}

/** Why a worker stopped, and whether a call was running in it then (a stop with none is a crash of its own). */
export interface WorkerStop {
  reason: string;
  /** The call running in the sandbox when the worker stopped, if any; it is failed, not re-dispatched. */
  culprit?: string;
}

/**
 * A call the worker lost when it stopped while the call was waiting or queued. `mayRetry` tells whether
 * running it on a new worker is safe: always when the script never started it; when it had started, only
 * for a query or a field (a `Mutation.*` resolver or a webhook may already have made changes, so it is
 * not repeated).
 */
export class LostCallError extends LambdaCallError {
  constructor(
    resolver: string,
    detail: string,
    readonly mayRetry: boolean,
  ) {
    super(resolver, 'worker-stopped', detail);
  }
}

type FromWorker =
  | { type: 'loaded'; resolvers: Array<{ name: string; kind: LambdaResolverKind }>; webhooks: string[] }
  | { type: 'loadFailed'; message: string; line?: number; column?: number }
  | { type: 'result'; id: number; value: string }
  | { type: 'failed'; id: number; failure: LambdaCallFailure; message: string }
  | { type: 'graphql'; id: number; requestId: number; query: string; variables?: string }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  | { type: 'busy'; callId: number | null }
  | { type: 'idle' }
  | { type: 'memoryExceeded'; message: string };

interface PendingCall {
  name: string;
  graphql: LambdaGraphqlExecutor;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** The script has begun running it (the worker entered the sandbox for it at least once). */
  started: boolean;
  /**
   * Whether running it again on a new worker is safe once it has started: not for a `Mutation.*` resolver
   * or a webhook, which may already have made changes.
   */
  repeatable: boolean;
}

/** An entry into the sandbox in progress, as the worker announced it. */
interface Entry {
  seq: number;
  callId: number | null;
}

const SCRIPT_FILENAME = 'lambda.js';
/** Loading gets more time than a call: starting a process itself takes a moment. */
const LOAD_TIME_ALLOWANCE_MS = 5_000;
/** How long past its time limit an entry may run before the worker counts as stuck: at least this... */
const STUCK_MARGIN_MIN_MS = 250;
/** ...and a last look after the host has read the worker's queued messages, in case `idle` was waiting there. */
const STUCK_CONFIRM_MS = 50;

/**
 * One worker (a child process, see lambda-process.ts) running one loaded script. The worker enforces the
 * time limits itself (see lambda-worker-source.ts), so a call that overruns fails alone. The worker is
 * stopped only when it dies (heap limit), passes a memory limit (ArrayBuffers it holds, resident memory),
 * or when an entry runs far past its limit (code the engine cannot interrupt, e.g. a huge typed-array
 * sort); then the call that was running fails, and the other calls in flight are rejected with
 * LostCallError so the owner can run them again on a new worker.
 */
export class ScriptWorker {
  private readonly pending = new Map<number, PendingCall>();
  private nextCallId = 1;
  private stopped = false;
  private retiring = false;
  private entry: Entry | undefined;
  private nextEntrySeq = 1;
  private stuckTimer: NodeJS.Timeout | undefined;
  private readonly stuckAfterMs: number;
  /** Calls the script answered (with a value or its own failure). */
  private answeredCount = 0;
  /** Settles when the worker thread has exited, for whatever reason. */
  readonly exited: Promise<void>;

  private constructor(
    private readonly worker: LambdaProcess,
    readonly resolvers: ReadonlyMap<string, LambdaResolverKind>,
    /** Webhooks the script registered with `addWebHookResolvers` ("Type.add|update|delete"). */
    readonly webhooks: ReadonlySet<string>,
    private readonly options: ScriptWorkerOptions,
  ) {
    this.stuckAfterMs = options.timeoutMs + Math.max(STUCK_MARGIN_MIN_MS, options.timeoutMs);
    this.exited = worker.exited;
    worker.onMessage = (message) => this.onMessage(message as FromWorker);
    // Told after every message the process sent was delivered, so `entry` names the running call.
    worker.onStopped = (reason) => this.stop(reason);
  }

  /** Starts a worker and loads the script; rejects with a LambdaScriptError if the script does not load. */
  static start(script: string, options: ScriptWorkerOptions): Promise<ScriptWorker> {
    const worker = LambdaProcess.spawn(LAMBDA_WORKER_SOURCE, { memoryMb: options.memoryMb, maxResidentMb: options.maxResidentMb });
    worker.send({
      type: 'init',
      runtimeSource: LAMBDA_SANDBOX_RUNTIME_SOURCE,
      script,
      filename: SCRIPT_FILENAME,
      timeoutMs: options.timeoutMs,
      maxResultBytes: options.maxResultBytes,
      maxExternalBytes: options.memoryMb * 1024 * 1024,
    });
    worker.waiting(true);
    return new Promise<ScriptWorker>((resolve, reject) => {
      const failLoad = (error: LambdaScriptError) => {
        clearTimeout(timer);
        void worker.kill();
        reject(error);
      };
      worker.onMessage = (message) => {
        const fromWorker = message as FromWorker;
        if (fromWorker.type === 'loaded') {
          clearTimeout(timer);
          worker.waiting(false);
          resolve(new ScriptWorker(worker, new Map(fromWorker.resolvers.map((r) => [r.name, r.kind])), new Set(fromWorker.webhooks), options));
        } else if (fromWorker.type === 'loadFailed') {
          const location = fromWorker.line !== undefined ? { line: fromWorker.line, column: fromWorker.column ?? 1 } : undefined;
          failLoad(new LambdaScriptError(fromWorker.message, location));
        } else if (fromWorker.type === 'log') {
          logTo(options.logger, fromWorker.level, fromWorker.message);
        }
      };
      worker.onStopped = (reason) => failLoad(new LambdaScriptError(`the lambda worker ${reason} while loading the script`));
      const timer = setTimeout(
        () => failLoad(new LambdaScriptError(`the lambda script did not load within ${options.timeoutMs + LOAD_TIME_ALLOWANCE_MS} ms`)),
        options.timeoutMs + LOAD_TIME_ALLOWANCE_MS,
      );
    });
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Calls the script has answered, with a value or with its own failure. */
  get answered(): number {
    return this.answeredCount;
  }

  call(name: string, mode: LambdaCallMode, payload: string, graphql: LambdaGraphqlExecutor): Promise<unknown> {
    if (this.stopped) return Promise.reject(new LostCallError(name, 'the lambda worker has stopped', true));
    const id = this.nextCallId++;
    const repeatable = mode !== 'webhook' && !name.startsWith('Mutation.');
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { name, graphql, resolve, reject, started: false, repeatable });
      if (this.pending.size === 1) this.worker.waiting(true);
      this.worker.send({ type: 'call', id, name, batch: mode === 'batch', webhook: mode === 'webhook', payload });
    });
  }

  /** Stops the worker once the calls in flight on it have settled. */
  retire(): void {
    this.retiring = true;
    if (this.pending.size === 0) void this.terminate();
  }

  async terminate(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.clearStuckTimer();
    for (const [id, call] of [...this.pending]) {
      this.settle(id);
      call.reject(new LambdaCallError(call.name, 'closed', 'the lambda host was closed'));
    }
    await this.worker.kill();
  }

  /**
   * The worker died or is stuck. The call running in the sandbox fails with `culpritFailure`; every other
   * call in flight is handed back as a LostCallError.
   */
  private stop(what: string, culpritFailure: LambdaCallFailure = 'worker-stopped'): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clearStuckTimer();
    const culpritId = this.entry?.callId ?? undefined;
    const culprit = culpritId === undefined ? undefined : this.pending.get(culpritId);
    const reason = culprit ? `the lambda worker ${what} while running ${culprit.name}` : `the lambda worker ${what}`;
    for (const [id, call] of [...this.pending]) {
      this.settle(id);
      if (id === culpritId) {
        call.reject(new LambdaCallError(call.name, culpritFailure, culpritFailure === 'timeout'
          ? `it ran past its time limit of ${this.options.timeoutMs} ms and could not be interrupted, so the lambda worker was restarted`
          : `the lambda worker ${what} while running it`));
      } else if (call.started && !call.repeatable) {
        const what = call.name.startsWith('Mutation.') ? 'the mutation' : 'the webhook';
        call.reject(new LostCallError(call.name, `${reason}; ${what} had started and is not run again, since it may already have made changes`, false));
      } else {
        call.reject(new LostCallError(call.name, reason, true));
      }
    }
    void this.worker.kill();
    this.options.onStopped?.(this, { reason, culprit: culprit?.name });
  }

  private settle(id: number): void {
    if (!this.pending.delete(id)) return;
    if (this.pending.size === 0) this.worker.waiting(false);
    if (this.retiring && this.pending.size === 0) void this.terminate();
  }

  private onMessage(message: FromWorker): void {
    if (this.stopped) return;
    switch (message.type) {
      case 'result': {
        const call = this.pending.get(message.id);
        if (!call) return;
        this.answeredCount += 1;
        this.settle(message.id);
        call.resolve(JSON.parse(message.value));
        return;
      }
      case 'failed': {
        const call = this.pending.get(message.id);
        if (!call) return;
        this.answeredCount += 1;
        this.settle(message.id);
        call.reject(new LambdaCallError(call.name, message.failure, message.message));
        return;
      }
      case 'graphql':
        void this.runGraphql(message);
        return;
      case 'log':
        logTo(this.options.logger, message.level, message.message);
        return;
      case 'busy':
        this.entryStarted(message.callId);
        return;
      case 'idle':
        this.entry = undefined;
        this.clearStuckTimer();
        return;
      case 'memoryExceeded':
        this.stop(message.message);
        return;
    }
  }

  private entryStarted(callId: number | null): void {
    const call = callId === null ? undefined : this.pending.get(callId);
    if (call) call.started = true;
    const entry: Entry = { seq: this.nextEntrySeq++, callId: call ? callId : null };
    this.entry = entry;
    this.clearStuckTimer();
    // Timers only: the worker's own limit interrupts almost everything long before this fires.
    this.stuckTimer = setTimeout(() => {
      this.stuckTimer = setTimeout(() => {
        if (this.entry === entry) this.stop('was stuck past its time limit', 'timeout');
      }, STUCK_CONFIRM_MS);
      this.stuckTimer.unref();
    }, this.stuckAfterMs);
    this.stuckTimer.unref();
  }

  private clearStuckTimer(): void {
    clearTimeout(this.stuckTimer);
    this.stuckTimer = undefined;
  }

  private async runGraphql(message: Extract<FromWorker, { type: 'graphql' }>): Promise<void> {
    const call = this.pending.get(message.id);
    let answer: { result?: string; error?: string };
    if (!call) {
      answer = { error: 'graphql() was called after its resolver call ended' };
    } else {
      try {
        const variables = message.variables === undefined ? undefined : (JSON.parse(message.variables) as Record<string, unknown>);
        const result = await call.graphql(message.query, variables);
        answer = { result: JSON.stringify(result ?? null) };
      } catch (error) {
        const message = typeof (error as { message?: unknown } | null)?.message === 'string' ? (error as Error).message : String(error);
        answer = { error: `graphql() failed: ${message}` };
      }
    }
    if (!this.stopped) this.worker.send({ type: 'graphqlResult', callId: message.id, requestId: message.requestId, ...answer });
  }
}

function logTo(logger: LambdaLogger | undefined, level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
  if (!logger) return;
  const text = `lambda: ${message}`;
  if (level === 'debug') logger.debug?.(text);
  else logger[level](text);
}
