import { Worker } from 'node:worker_threads';
import { LambdaCallError, LambdaScriptError } from './lambda-errors.js';
import type { LambdaCallFailure } from './lambda-errors.js';
import { LAMBDA_SANDBOX_RUNTIME_SOURCE } from './lambda-sandbox-runtime.js';
import { LAMBDA_WORKER_SOURCE } from './lambda-worker-source.js';

/** How a resolver was registered: `addGraphQLResolvers` (single) or `addMultiParentGraphQLResolvers` (batch). */
export type LambdaResolverKind = 'single' | 'batch';

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
  memoryMb: number;
  logger?: LambdaLogger;
  /** Told once when the worker stops for any reason other than `terminate()`. */
  onStopped?: (worker: ScriptWorker, reason: string) => void;
}

type FromWorker =
  | { type: 'loaded'; resolvers: Array<{ name: string; kind: LambdaResolverKind }> }
  | { type: 'loadFailed'; message: string; line?: number; column?: number }
  | { type: 'result'; id: number; value: string }
  | { type: 'failed'; id: number; failure: LambdaCallFailure; message: string }
  | { type: 'graphql'; id: number; requestId: number; query: string; variables?: string }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string }
  | { type: 'fatal'; message: string };

interface PendingCall {
  name: string;
  graphql: LambdaGraphqlExecutor;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const SCRIPT_FILENAME = 'lambda.js';
/** Loading gets more time than a call: starting a worker thread itself takes a moment. */
const LOAD_TIME_ALLOWANCE_MS = 5_000;

/**
 * One worker thread running one loaded script. A worker that misbehaves (a call overruns its time limit,
 * a callback overruns, the memory limit is hit) is terminated and fails every call in flight on it; the
 * owner starts a replacement.
 */
export class ScriptWorker {
  private readonly pending = new Map<number, PendingCall>();
  private nextCallId = 1;
  private stopped = false;
  private retiring = false;
  /** Settles when the worker thread has exited, for whatever reason. */
  readonly exited: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    readonly resolvers: ReadonlyMap<string, LambdaResolverKind>,
    private readonly options: ScriptWorkerOptions,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: FromWorker) => this.onMessage(message));
    worker.on('error', (error) => this.stop(`the lambda worker crashed: ${describeWorkerError(error)}`));
    worker.on('exit', (code) => this.stop(`the lambda worker exited (code ${code})`));
  }

  /** Starts a worker and loads the script; rejects with a LambdaScriptError if the script does not load. */
  static start(script: string, options: ScriptWorkerOptions): Promise<ScriptWorker> {
    const worker = new Worker(LAMBDA_WORKER_SOURCE, {
      eval: true,
      env: {},
      workerData: { runtimeSource: LAMBDA_SANDBOX_RUNTIME_SOURCE, script, filename: SCRIPT_FILENAME, timeoutMs: options.timeoutMs },
      resourceLimits: {
        maxOldGenerationSizeMb: options.memoryMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(options.memoryMb / 4))),
        stackSizeMb: 4,
      },
    });
    worker.unref();
    return new Promise<ScriptWorker>((resolve, reject) => {
      const failLoad = (error: LambdaScriptError) => {
        cleanup();
        void worker.terminate();
        reject(error);
      };
      const onMessage = (message: FromWorker) => {
        if (message.type === 'loaded') {
          cleanup();
          resolve(new ScriptWorker(worker, new Map(message.resolvers.map((r) => [r.name, r.kind])), options));
        } else if (message.type === 'loadFailed') {
          const location = message.line !== undefined ? { line: message.line, column: message.column ?? 1 } : undefined;
          failLoad(new LambdaScriptError(message.message, location));
        } else if (message.type === 'log') {
          logTo(options.logger, message.level, message.message);
        }
      };
      const onError = (error: Error) => failLoad(new LambdaScriptError(`the lambda script could not be loaded: ${describeWorkerError(error)}`));
      const onExit = (code: number) => failLoad(new LambdaScriptError(`the lambda worker exited while loading the script (code ${code})`));
      const timer = setTimeout(
        () => failLoad(new LambdaScriptError(`the lambda script did not load within ${options.timeoutMs + LOAD_TIME_ALLOWANCE_MS} ms`)),
        options.timeoutMs + LOAD_TIME_ALLOWANCE_MS,
      );
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  call(name: string, batch: boolean, payload: string, graphql: LambdaGraphqlExecutor): Promise<unknown> {
    if (this.stopped) return Promise.reject(new LambdaCallError(name, 'worker-stopped', 'the lambda worker has stopped'));
    const id = this.nextCallId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => this.overrun(id), this.options.timeoutMs);
      this.pending.set(id, { name, graphql, resolve, reject, timer });
      this.worker.postMessage({ type: 'call', id, name, batch, payload });
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
    this.failAll('closed', 'the lambda host was closed');
    await this.worker.terminate();
  }

  private overrun(id: number): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.settle(id);
    call.reject(new LambdaCallError(call.name, 'timeout', `it did not finish within ${this.options.timeoutMs} ms`));
    this.stop(`a call to ${call.name} overran its time limit, so the lambda worker was restarted`);
  }

  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.failAll('worker-stopped', reason);
    void this.worker.terminate();
    this.options.onStopped?.(this, reason);
  }

  private failAll(failure: LambdaCallFailure, reason: string): void {
    for (const [id, call] of [...this.pending]) {
      this.settle(id);
      call.reject(new LambdaCallError(call.name, failure, reason));
    }
  }

  private settle(id: number): void {
    const call = this.pending.get(id);
    if (!call) return;
    clearTimeout(call.timer);
    this.pending.delete(id);
    if (this.retiring && this.pending.size === 0) void this.terminate();
  }

  private onMessage(message: FromWorker): void {
    switch (message.type) {
      case 'result': {
        const call = this.pending.get(message.id);
        if (!call) return;
        this.settle(message.id);
        call.resolve(JSON.parse(message.value));
        return;
      }
      case 'failed': {
        const call = this.pending.get(message.id);
        if (!call) return;
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
      case 'fatal':
        this.stop(message.message);
        return;
    }
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
    if (!this.stopped) this.worker.postMessage({ type: 'graphqlResult', requestId: message.requestId, ...answer });
  }
}

function logTo(logger: LambdaLogger | undefined, level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
  if (!logger) return;
  const text = `lambda: ${message}`;
  if (level === 'debug') logger.debug?.(text);
  else logger[level](text);
}

function describeWorkerError(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return 'it ran out of memory';
  return error.message;
}
