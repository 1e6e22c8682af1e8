import { defaultMaxResidentMb, LAMBDA_DEFAULTS } from './lambda-defaults.js';
import { LambdaCallError, LambdaScriptError } from './lambda-errors.js';
import { RestartPolicy, type RestartDecision } from './lambda-restart-policy.js';
import { LostCallError, ScriptWorker } from './lambda-worker.js';
import type { LambdaCallMode, LambdaGraphqlExecutor, LambdaLogger, LambdaResolverKind } from './lambda-worker.js';

export type { LambdaGraphqlExecutor, LambdaLogger, LambdaResolverKind } from './lambda-worker.js';

export interface LambdaHostOptions {
  /** Time limit of one call (and of loading the script's top level), in ms. Default 2000. */
  timeoutMs?: number;
  /**
   * Heap limit of the script's process, in MB, and the most ArrayBuffer memory the script may hold once an
   * entry (a call, a timer) ends. Default 128.
   */
  memoryMb?: number;
  /**
   * Resident memory past which the script's process is killed (and restarted), in MB. Default: twice
   * `memoryMb` (heap and ArrayBuffers) plus 128 for Node.js itself.
   */
  maxResidentMb?: number;
  /** Largest result of one call as JSON (and largest graphql() request a script sends), in UTF-8 bytes. Default 4 MiB. */
  maxResultBytes?: number;
  /** Receives the script's `console` output (prefixed `lambda: `) and worker restarts. */
  logger?: LambdaLogger;
}

/** Dgraph passes the configured auth header to lambdas as `{ key, value }`. */
export interface LambdaAuthHeader {
  key: string;
  value: string;
}

export interface LambdaCallInput {
  /** The object the field belongs to; `null`/absent for `Query.*` and `Mutation.*` resolvers. */
  parent?: unknown;
  args?: Record<string, unknown>;
  authHeader?: LambdaAuthHeader;
}

export interface LambdaBatchInput {
  parents: readonly unknown[];
  args?: Record<string, unknown>;
  authHeader?: LambdaAuthHeader;
}

/** What a webhook (`self.addWebHookResolvers`) is called with: Dgraph's event, and the auth header. */
export interface LambdaWebhookInput {
  event: object;
  authHeader?: LambdaAuthHeader;
}

/** What a loaded script registers: resolver and webhook names, each sorted. */
export interface LambdaRegistrations {
  resolvers: string[];
  webhooks: string[];
}

export interface LambdaHost {
  /**
   * Replaces the running script. The new script is loaded in a fresh worker; only when it loads does it
   * replace the old one (calls in flight on the old worker finish there). On failure throws
   * LambdaScriptError and the previous script keeps serving.
   */
  load(scriptText: string): Promise<LambdaRegistrations>;
  /** Whether the loaded script registers `name` ("Type.field"). */
  has(name: string): boolean;
  /** Registered resolver names, sorted. */
  names(): string[];
  /** How `name` was registered, or undefined. Either kind may be called with `call` or `callBatch`. */
  kindOf(name: string): LambdaResolverKind | undefined;
  /** Resolves one field value. Rejects with LambdaCallError. */
  call(name: string, input: LambdaCallInput, graphql: LambdaGraphqlExecutor): Promise<unknown>;
  /** Resolves the field for all parents at once; the answer has one entry per parent. Rejects with LambdaCallError. */
  callBatch(name: string, input: LambdaBatchInput, graphql: LambdaGraphqlExecutor): Promise<unknown[]>;
  /** Whether the loaded script registers the webhook `name` ("Type.add|update|delete"). */
  hasWebhook(name: string): boolean;
  /** Registered webhook names, sorted. */
  webhookNames(): string[];
  /**
   * Calls a webhook; settles when the script's function has finished (its answer is not used). Rejects with
   * LambdaCallError. A webhook that had started is not run again if its worker stops.
   */
  callWebhook(name: string, input: LambdaWebhookInput, graphql: LambdaGraphqlExecutor): Promise<void>;
  /** Stops the worker; calls in flight and later calls fail. */
  close(): Promise<void>;
}

/** How often one call may be run again on a new worker after the worker it waited on stopped. */
const MAX_REDISPATCHES = 1;

export function createLambdaHost(options: LambdaHostOptions = {}): LambdaHost {
  const timeoutMs = positive(options.timeoutMs, LAMBDA_DEFAULTS.timeoutMs, 'timeoutMs');
  const memoryMb = positive(options.memoryMb, LAMBDA_DEFAULTS.memoryMb, 'memoryMb');
  const maxResidentMb = positive(options.maxResidentMb, defaultMaxResidentMb(memoryMb), 'maxResidentMb');
  const maxResultBytes = positive(options.maxResultBytes, LAMBDA_DEFAULTS.maxResultBytes, 'maxResultBytes');
  const logger = options.logger;
  const restartPolicy = new RestartPolicy();

  let script: string | undefined;
  let current: ScriptWorker | undefined;
  let restarting: Promise<ScriptWorker | undefined> | undefined;
  /** Cuts short the pause before a restart (on close). */
  let endPause: (() => void) | undefined;
  /** Set when the restart policy gave up: why lambda calls fail until the next load. */
  let givenUp: string | undefined;
  let resolvers: ReadonlyMap<string, LambdaResolverKind> = new Map();
  let webhooks: ReadonlySet<string> = new Set();
  let loading: Promise<unknown> = Promise.resolve();
  /** Counts successful loads, so a restart begun for an older script never replaces a newer one. */
  let generation = 0;
  let closed = false;

  /** Every worker not yet terminated, including retired ones still finishing calls, so close() reaches all. */
  const live = new Set<ScriptWorker>();

  async function startWorker(text: string): Promise<ScriptWorker> {
    const worker = await ScriptWorker.start(text, {
      timeoutMs,
      memoryMb,
      maxResidentMb,
      maxResultBytes,
      logger,
      onStopped: (stopped, stop) => {
        live.delete(stopped);
        logger?.warn(`lambda: ${stop.reason}`);
        if (stopped !== current) return;
        decide(restartPolicy.afterStop({ reason: stop.reason, causedByCall: stop.culprit !== undefined, answeredCalls: stopped.answered > 0 }));
      },
    });
    live.add(worker);
    void worker.exited.then(() => live.delete(worker));
    return worker;
  }

  function decide(decision: RestartDecision): void {
    if ('giveUp' in decision) {
      givenUp = decision.giveUp;
      logger?.error(`lambda: ${decision.giveUp}`);
    } else {
      replaceStoppedWorker(decision.restartAfterMs);
    }
  }

  function replaceStoppedWorker(pauseMs: number): void {
    if (closed || script === undefined || restarting || givenUp !== undefined) return;
    const restart = restartWorker(script, generation, pauseMs);
    restarting = restart;
    restart.then(
      () => {
        if (restarting === restart) restarting = undefined;
      },
      (error: Error) => {
        if (restarting !== restart) return;
        restarting = undefined;
        logger?.error(`lambda: restarting the worker failed: ${error.message}`);
        if (!closed) decide(restartPolicy.restartFailed(`a new worker did not start: ${error.message}`));
      },
    );
  }

  async function restartWorker(text: string, startedFor: number, pauseMs: number): Promise<ScriptWorker | undefined> {
    await pause(pauseMs);
    // A load that finished meanwhile has installed a newer script; no restart is needed.
    if (closed || generation !== startedFor) return undefined;
    const worker = await startWorker(text);
    if (closed || generation !== startedFor) {
      void worker.terminate();
      return undefined;
    }
    current = worker;
    return worker;
  }

  function pause(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        if (endPause === end) endPause = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      timer.unref();
      endPause = end;
    });
  }

  async function workerFor(name: string, mode: LambdaCallMode): Promise<ScriptWorker> {
    if (closed) throw new LambdaCallError(name, 'closed', 'the lambda host was closed');
    if (mode === 'webhook' ? !webhooks.has(name) : !resolvers.has(name)) throw new LambdaCallError(name, 'not-registered', notRegisteredReason(mode));
    if (current && !current.isStopped) return current;
    if (givenUp !== undefined) throw new LambdaCallError(name, 'worker-stopped', givenUp);
    replaceStoppedWorker(0);
    try {
      await restarting;
    } catch (error) {
      throw new LambdaCallError(name, 'worker-stopped', `the lambda worker could not be restarted: ${(error as Error).message}`);
    }
    if (current && !current.isStopped) return current;
    if (givenUp !== undefined) throw new LambdaCallError(name, 'worker-stopped', givenUp);
    throw new LambdaCallError(name, 'worker-stopped', 'the lambda worker stopped again while it was restarting');
  }

  /** Runs a call; a call lost with its worker runs again on the replacement when that is safe (see LostCallError). */
  async function run(name: string, mode: LambdaCallMode, payload: string, graphql: LambdaGraphqlExecutor): Promise<unknown> {
    for (let redispatches = 0; ; redispatches += 1) {
      const worker = await workerFor(name, mode);
      try {
        return await worker.call(name, mode, payload, graphql);
      } catch (error) {
        if (error instanceof LostCallError && error.mayRetry && redispatches < MAX_REDISPATCHES) continue;
        throw error;
      }
    }
  }

  function notRegisteredReason(mode: LambdaCallMode): string {
    if (script === undefined) return 'no lambda script is loaded';
    return mode === 'webhook' ? 'the lambda script registers no webhook with this name' : 'the lambda script registers no resolver with this name';
  }

  function payloadOf(name: string, value: object): string {
    try {
      return JSON.stringify(value);
    } catch (error) {
      throw new LambdaCallError(name, 'bad-input', `its input cannot be sent to the script as JSON: ${(error as Error).message}`);
    }
  }

  return {
    load(scriptText) {
      const attempt = loading.then(async () => {
        if (closed) throw new LambdaScriptError('the lambda host was closed');
        if (typeof scriptText !== 'string') throw new LambdaScriptError('the lambda script must be JavaScript text');
        const worker = await startWorker(scriptText);
        if (closed) {
          await worker.terminate();
          throw new LambdaScriptError('the lambda host was closed');
        }
        const previous = current;
        generation += 1;
        script = scriptText;
        current = worker;
        resolvers = worker.resolvers;
        webhooks = worker.webhooks;
        restarting = undefined;
        givenUp = undefined;
        restartPolicy.reset();
        previous?.retire();
        return { resolvers: [...resolvers.keys()].sort(), webhooks: [...webhooks].sort() };
      });
      loading = attempt.catch(() => undefined);
      return attempt;
    },

    has: (name) => resolvers.has(name),
    names: () => [...resolvers.keys()].sort(),
    kindOf: (name) => resolvers.get(name),

    async call(name, input, graphql) {
      const payload = payloadOf(name, { parent: input.parent ?? null, args: input.args ?? {}, authHeader: input.authHeader });
      return run(name, 'single', payload, graphql);
    },

    async callBatch(name, input, graphql) {
      if (!Array.isArray(input.parents)) throw new LambdaCallError(name, 'bad-input', 'callBatch needs an array of parents');
      if (input.parents.length === 0) return [];
      const payload = payloadOf(name, { parents: input.parents, args: input.args ?? {}, authHeader: input.authHeader });
      const values = await run(name, 'batch', payload, graphql);
      if (!Array.isArray(values) || values.length !== input.parents.length) {
        throw new LambdaCallError(name, 'bad-result', `expected ${input.parents.length} results, one per parent`);
      }
      return values;
    },

    hasWebhook: (name) => webhooks.has(name),
    webhookNames: () => [...webhooks].sort(),

    async callWebhook(name, input, graphql) {
      const payload = payloadOf(name, { event: input.event, authHeader: input.authHeader });
      await run(name, 'webhook', payload, graphql);
    },

    async close() {
      closed = true;
      endPause?.();
      await restarting?.catch(() => undefined);
      current = undefined;
      restarting = undefined;
      const workers = [...live];
      live.clear();
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`lambda host option ${name} must be a positive number, got ${value}`);
  return value;
}
