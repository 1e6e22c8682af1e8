/**
 * JavaScript source of the child process that hosts one lambda script. It is started with
 * `node --max-old-space-size=<memoryMb> --expose-gc -e LAMBDA_WORKER_SOURCE` and an IPC channel (see
 * lambda-worker.ts), so it needs no file on disk (the same code runs under ts-jest and from the compiled
 * build). A process of its own, unlike a worker thread, bounds everything the script can allocate: its
 * heap by the V8 flag, ArrayBuffers by the check after each entry below, resident memory by the host's
 * watchdog; whatever happens in it, the service's process lives on.
 *
 * The process creates a `vm` context with a null-prototype global (so `this.constructor` resolves inside
 * the context, not to the process's `Object`), with code generation from strings disabled and with its own
 * microtask queue (`microtaskMode: 'afterEvaluate'`), installs the sandbox runtime
 * (lambda-sandbox-runtime.ts), runs the user's script with a time limit, and then relays messages between
 * the host and the runtime.
 *
 * Every entry into the context (a call, a graphql() answer, a timer) goes through `runInContext` with a
 * time limit, and because the context has its own microtask queue, the promise continuations an entry
 * starts run inside that entry, under the same limit. So an endless loop, synchronous or after an `await`,
 * is interrupted and the process keeps serving.
 *
 * Each entry belongs to a call (the call itself, an answer to its graphql(), a timer it started) or to
 * nobody (timers started while the script loaded). A call's time limit counts the time since the call
 * started, minus the time the process spent in entries of other calls: a call queued behind a slow one is
 * not charged for the wait. An entry of a call may use what is left of that limit; an entry of nobody gets
 * the whole limit, and a timer that overruns it is cancelled and logged.
 *
 * After each entry, memory outside the V8 heap (ArrayBuffers) is compared with the limit; past it (after a
 * full garbage collection, so only memory the script still holds counts), the process reports
 * `memoryExceeded` and takes no further messages: the host stops it.
 *
 * Results and graphql() requests are size-capped here, before they are sent, so an oversized one fails
 * its call and never reaches the service's process.
 *
 * First message received: init { runtimeSource, script, filename, timeoutMs, maxResultBytes, maxExternalBytes }.
 * Posts: loaded { resolvers: [{ name, kind }], webhooks: [name] } | loadFailed { message, line?, column? } | result | failed |
 * graphql | log | busy { callId: number | null } (an entry starts) | idle (it ended) | memoryExceeded { message }.
 * Then receives: call { id, name, batch, webhook?, payload } | graphqlResult { callId, requestId, result? error? }.
 * It exits when the host disconnects.
 */
export const LAMBDA_WORKER_SOURCE = String.raw`'use strict';
const { performance } = require('node:perf_hooks');
const v8 = require('node:v8');
const vm = require('node:vm');
let runtimeSource, script, filename, timeoutMs, maxResultBytes, maxExternalBytes;

const LOG_LEVELS = new Set(['debug', 'info', 'warn', 'error']);
const FAILURES = new Set(['thrown', 'bad-result', 'not-registered']);
/** The list of registered resolvers sent to the host is bounded too (some 20,000 names). */
const MAX_RESOLVER_LIST_CHARS = 1024 * 1024;
/** Timers the sandbox started: id -> { handle, repeat, owner }, owner being a call id or null. */
const hostTimers = new Map();
/** Calls started and not yet answered: id -> { startedAt, busyAtStart, ownBusy, deadline }. */
const openCalls = new Map();
/** Milliseconds spent inside the context so far, by all entries. */
let busyTotal = 0;
/** The call the entry in progress belongs to (null: nobody, or no entry). */
let currentOwner = null;
let inbox = null;
let context;
/** Set once memory was exceeded: the host is stopping this process, nothing more runs in it. */
let halted = false;
/** What the entry in progress sends, held back until its memory is checked (null: no entry). */
let outbox = null;

function describe(value) {
  try {
    if (value !== null && typeof value === 'object' && typeof value.message === 'string') return value.message;
    return String(value);
  } catch (unprintable) {
    return 'an error that cannot be printed';
  }
}

function isInteger(value) {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** Sends to the host, after the entry in progress if any; nothing once the process is halted. */
function post(message) {
  if (outbox !== null) outbox.push(message);
  else if (!halted && process.connected) process.send(message);
}

function log(level, message) {
  post({ type: 'log', level, message });
}

/** Time the call has used: since it started, less what other entries took meanwhile. */
function usedBy(call, now) {
  return now - call.startedAt - (busyTotal - call.busyAtStart - call.ownBusy);
}

function openCall(id) {
  const call = { startedAt: performance.now(), busyAtStart: busyTotal, ownBusy: 0, deadline: undefined };
  openCalls.set(id, call);
  armDeadline(id, call);
}

/** Fails the call once it has used its limit; until then re-arms for what is left (other entries may have run). */
function armDeadline(id, call) {
  const left = timeoutMs - usedBy(call, performance.now());
  if (left <= 0) {
    closeCall(id);
    post({ type: 'failed', id, failure: 'timeout', message: 'it did not finish within ' + timeoutMs + ' ms' });
    return;
  }
  call.deadline = setTimeout(() => armDeadline(id, call), Math.ceil(left));
}

/** Forgets a call; a later answer from the script for it is dropped. Answers whether it was open. */
function closeCall(id) {
  const call = openCalls.get(id);
  if (!call) return false;
  clearTimeout(call.deadline);
  openCalls.delete(id);
  return true;
}

/** Messages from the sandbox are untrusted: only known shapes with primitive fields are passed on. */
function relayFromSandbox(message) {
  if (message === null || typeof message !== 'object') return;
  switch (message.type) {
    case 'log':
      if (LOG_LEVELS.has(message.level) && typeof message.message === 'string') log(message.level, message.message);
      return;
    case 'result':
      if (isInteger(message.id) && typeof message.value === 'string' && closeCall(message.id)) {
        post(Buffer.byteLength(message.value, 'utf8') > maxResultBytes
          ? { type: 'failed', id: message.id, failure: 'bad-result', message: 'its result is larger than the limit of ' + maxResultBytes + ' bytes of JSON' }
          : { type: 'result', id: message.id, value: message.value });
      }
      return;
    case 'failed':
      if (isInteger(message.id) && FAILURES.has(message.failure) && typeof message.message === 'string' && closeCall(message.id)) {
        post({ type: 'failed', id: message.id, failure: message.failure, message: message.message });
      }
      return;
    case 'graphql':
      if (isInteger(message.id) && isInteger(message.requestId) && typeof message.query === 'string' &&
          (message.variables === undefined || typeof message.variables === 'string')) {
        const bytes = Buffer.byteLength(message.query, 'utf8') + (message.variables === undefined ? 0 : Buffer.byteLength(message.variables, 'utf8'));
        if (bytes > maxResultBytes) {
          enterSandboxLater({
            type: 'graphqlResult', callId: message.id, requestId: message.requestId,
            error: 'graphql() refused: its query and variables take ' + bytes + ' bytes, more than the limit of ' + maxResultBytes + ' bytes',
          }, message.id);
          return;
        }
        post({
          type: 'graphql', id: message.id, requestId: message.requestId, query: message.query, variables: message.variables,
        });
      }
      return;
  }
}

/** Delivers a message to the sandbox once the entry in progress has ended (the relay runs inside one). */
function enterSandboxLater(message, owner) {
  setImmediate(() => enterSandbox(message, owner));
}

function megabytes(bytes) {
  return Math.round(bytes / (1024 * 1024)) + ' MB';
}

/**
 * Memory outside the heap (ArrayBuffers) that the script still holds, when it is more than the limit. A
 * full collection first, so garbage the engine has not yet reclaimed does not count.
 */
function externalMemoryOverLimit() {
  if (v8.getHeapStatistics().external_memory <= maxExternalBytes) return undefined;
  gc();
  const held = v8.getHeapStatistics().external_memory;
  return held > maxExternalBytes ? held : undefined;
}

function clearHostTimer(id) {
  const timer = hostTimers.get(id);
  if (timer === undefined) return;
  hostTimers.delete(id);
  clearTimeout(timer.handle);
  clearInterval(timer.handle);
}

const bridge = Object.freeze({
  post(text) {
    if (typeof text !== 'string') return;
    try {
      relayFromSandbox(JSON.parse(text));
    } catch (ignored) {
      // A message that is not JSON cannot come from the runtime; drop it.
    }
  },
  take() {
    const text = inbox;
    inbox = null;
    return text;
  },
  setTimer(id, ms, repeat) {
    if (!isInteger(id) || typeof ms !== 'number') return;
    const timer = { handle: undefined, repeat: Boolean(repeat), owner: currentOwner };
    const fire = () => {
      if (!timer.repeat) hostTimers.delete(id);
      enterSandbox({ type: 'timer', timerId: id }, timer.owner);
    };
    timer.handle = timer.repeat ? setInterval(fire, Math.max(1, ms)) : setTimeout(fire, ms);
    hostTimers.set(id, timer);
  },
  clearTimer(id) {
    clearHostTimer(id);
  },
});

const dispatchScript = new vm.Script('__autographDispatch__()', { filename: 'autograph-lambda-dispatch.js' });

function isTimeout(error) {
  return error !== null && typeof error === 'object' && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/**
 * Hands one message to the sandbox runtime. The entry, with the promise continuations it starts, runs under
 * the time left to its call (the whole limit for an entry of nobody); the host hears when it starts and ends.
 */
function enterSandbox(message, owner) {
  if (halted) return;
  const call = owner === null ? undefined : openCalls.get(owner);
  if (call === undefined) owner = null;
  const startedAt = performance.now();
  const limit = call === undefined ? timeoutMs : Math.max(1, Math.ceil(timeoutMs - usedBy(call, startedAt)));
  post({ type: 'busy', callId: owner });
  outbox = [];
  currentOwner = owner;
  inbox = JSON.stringify(message);
  let failure;
  try {
    dispatchScript.runInContext(context, { timeout: limit });
  } catch (error) {
    failure = { timedOut: isTimeout(error), reason: describe(error) };
  }
  inbox = null;
  currentOwner = null;
  const spent = performance.now() - startedAt;
  busyTotal += spent;
  if (call !== undefined) call.ownBusy += spent;
  const sent = outbox;
  outbox = null;
  const held = externalMemoryOverLimit();
  if (held !== undefined) {
    // Reported instead of what the entry sent (its call's result too), while the entry still counts as
    // running, so the host fails the call it belongs to.
    post({
      type: 'memoryExceeded',
      message: 'held ' + megabytes(held) + ' of ArrayBuffer memory (its limit: ' + megabytes(maxExternalBytes) + ')',
    });
    halted = true;
    for (const id of [...hostTimers.keys()]) clearHostTimer(id);
    return;
  }
  for (const message of sent) post(message);
  post({ type: 'idle' });
  if (failure !== undefined) entryFailed(message, owner, failure);
}

/** An entry was interrupted (time limit) or the runtime itself threw: its call fails, or it is logged. */
function entryFailed(message, owner, failure) {
  // An interval still registered here would fire again (a one-shot timer was dropped when it fired).
  const cancelledInterval = message.type === 'timer' && hostTimers.has(message.timerId);
  if (message.type === 'timer') clearHostTimer(message.timerId);
  if (owner !== null && closeCall(owner)) {
    post(failure.timedOut
      ? { type: 'failed', id: owner, failure: 'timeout', message: 'it did not finish within ' + timeoutMs + ' ms' }
      : { type: 'failed', id: owner, failure: 'thrown', message: failure.reason });
    return;
  }
  if (message.type !== 'timer') {
    log('error', 'delivering a graphql() answer failed: ' + failure.reason);
  } else if (failure.timedOut) {
    log('error', 'a timer callback ran longer than ' + timeoutMs + ' ms and was stopped' + (cancelledInterval ? '; its interval is cancelled' : ''));
  } else {
    log('error', 'a timer callback failed: ' + failure.reason);
  }
}

/** Line and column of an error in the user's script, from the engine's stack text. */
function locate(error, isSyntaxError) {
  let stack;
  try {
    stack = String(error && error.stack);
  } catch (unreadable) {
    return {};
  }
  if (isSyntaxError) {
    const lines = stack.split('\n');
    const header = /^(.*):(\d+)$/.exec(lines[0]);
    if (header && header[1] === filename) {
      const caret = (lines[2] || '').indexOf('^');
      return { line: Number(header[2]), column: caret >= 0 ? caret + 1 : undefined };
    }
    return {};
  }
  const frame = new RegExp(filename.replace(/[.]/g, '[.]') + ':(\\d+):(\\d+)').exec(stack);
  return frame ? { line: Number(frame[1]), column: Number(frame[2]) } : {};
}

function loadFailed(message, location) {
  post({ type: 'loadFailed', message, line: location.line, column: location.column });
}

function load() {
  context = vm.createContext(Object.create(null), {
    name: 'lambda script',
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  const install = new vm.Script(runtimeSource, { filename: 'autograph-lambda-runtime.js' }).runInContext(context);
  const runtime = install(bridge, maxResultBytes);

  let compiled;
  try {
    compiled = new vm.Script(script, { filename });
  } catch (error) {
    loadFailed('the lambda script has a syntax error: ' + describe(error), locate(error, true));
    return;
  }
  try {
    compiled.runInContext(context, { timeout: timeoutMs });
  } catch (error) {
    if (isTimeout(error)) {
      loadFailed('the lambda script did not finish loading within ' + timeoutMs + ' ms', {});
    } else {
      loadFailed('the lambda script failed while loading: ' + describe(error), locate(error, false));
    }
    return;
  }
  const held = externalMemoryOverLimit();
  if (held !== undefined) {
    loadFailed('the lambda script holds ' + megabytes(held) + ' of ArrayBuffer memory after loading (its limit: ' + megabytes(maxExternalBytes) + ')', {});
    return;
  }
  const registered = runtime.seal();
  if (registered.length > MAX_RESOLVER_LIST_CHARS) {
    loadFailed('the lambda script registers too many resolvers: their list takes more than ' + MAX_RESOLVER_LIST_CHARS + ' characters', {});
    return;
  }
  const { resolvers, webhooks } = JSON.parse(registered);
  post({ type: 'loaded', resolvers, webhooks });
}

process.on('unhandledRejection', (reason) => {
  post({ type: 'log', level: 'error', message: 'unhandled promise rejection in the lambda script: ' + describe(reason) });
});

process.on('disconnect', () => process.exit(0));

process.on('message', (message) => {
  if (!message || halted) return;
  if (message.type === 'init') {
    ({ runtimeSource, script, filename, timeoutMs, maxResultBytes, maxExternalBytes } = message);
    load();
  } else if (message.type === 'call') {
    openCall(message.id);
    enterSandbox(message, message.id);
  } else if (message.type === 'graphqlResult') {
    enterSandbox(message, message.callId);
  }
});
`;
