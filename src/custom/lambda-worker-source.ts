/**
 * JavaScript source of the worker thread that hosts one lambda script. It is started with
 * `new Worker(LAMBDA_WORKER_SOURCE, { eval: true, workerData })`, so it needs no file on disk (the same
 * code runs under ts-jest and from the compiled build).
 *
 * The worker creates a `vm` context with a null-prototype global (so `this.constructor` resolves inside the
 * context, not to the worker's `Object`) and with code generation from strings disabled, installs the
 * sandbox runtime (lambda-sandbox-runtime.ts), runs the user's script with a time limit, and then relays
 * messages between the host and the runtime. Every entry into the context goes through `runInContext`
 * with the same time limit, so a synchronous endless loop in a resolver, a timer callback or a graphql
 * continuation is interrupted. Work that runs later as a microtask has no such limit; the host's per-call
 * timer terminates the whole worker in that case.
 *
 * workerData: { runtimeSource: string, script: string, filename: string, timeoutMs: number }
 * Posts: loaded { resolvers: [{ name, kind }] } | loadFailed { message, line?, column? } | result | failed |
 * graphql | log | fatal { message }. Receives: call { id, name, batch, payload } | graphqlResult.
 */
export const LAMBDA_WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const { runtimeSource, script, filename, timeoutMs } = workerData;

const LOG_LEVELS = new Set(['debug', 'info', 'warn', 'error']);
const FAILURES = new Set(['thrown', 'bad-result', 'not-registered']);
const hostTimers = new Map();
let inbox = null;
let context;

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

/** Messages from the sandbox are untrusted: only known shapes with primitive fields are passed on. */
function relayFromSandbox(message) {
  if (message === null || typeof message !== 'object') return;
  switch (message.type) {
    case 'log':
      if (LOG_LEVELS.has(message.level) && typeof message.message === 'string') {
        parentPort.postMessage({ type: 'log', level: message.level, message: message.message });
      }
      return;
    case 'result':
      if (isInteger(message.id) && typeof message.value === 'string') {
        parentPort.postMessage({ type: 'result', id: message.id, value: message.value });
      }
      return;
    case 'failed':
      if (isInteger(message.id) && FAILURES.has(message.failure) && typeof message.message === 'string') {
        parentPort.postMessage({ type: 'failed', id: message.id, failure: message.failure, message: message.message });
      }
      return;
    case 'graphql':
      if (isInteger(message.id) && isInteger(message.requestId) && typeof message.query === 'string' &&
          (message.variables === undefined || typeof message.variables === 'string')) {
        parentPort.postMessage({
          type: 'graphql', id: message.id, requestId: message.requestId, query: message.query, variables: message.variables,
        });
      }
      return;
  }
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
    const fire = () => {
      if (!repeat) hostTimers.delete(id);
      enterSandbox({ type: 'timer', timerId: id });
    };
    hostTimers.set(id, repeat ? setInterval(fire, Math.max(1, ms)) : setTimeout(fire, ms));
  },
  clearTimer(id) {
    const handle = hostTimers.get(id);
    if (handle === undefined) return;
    hostTimers.delete(id);
    clearTimeout(handle);
    clearInterval(handle);
  },
});

const dispatchScript = new vm.Script('__autographDispatch__()', { filename: 'autograph-lambda-dispatch.js' });

function isTimeout(error) {
  return error !== null && typeof error === 'object' && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/** Hands one message to the sandbox runtime; its synchronous part runs under the time limit. */
function enterSandbox(message) {
  inbox = JSON.stringify(message);
  try {
    dispatchScript.runInContext(context, { timeout: timeoutMs });
  } catch (error) {
    inbox = null;
    const reason = isTimeout(error)
      ? 'synchronous code ran longer than ' + timeoutMs + ' ms'
      : describe(error);
    if (message.type === 'call') {
      parentPort.postMessage({ type: 'failed', id: message.id, failure: isTimeout(error) ? 'timeout' : 'thrown', message: reason });
    } else {
      parentPort.postMessage({ type: 'fatal', message: 'a lambda callback failed: ' + reason });
    }
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
  parentPort.postMessage({ type: 'loadFailed', message, line: location.line, column: location.column });
}

function load() {
  context = vm.createContext(Object.create(null), {
    name: 'lambda script',
    codeGeneration: { strings: false, wasm: false },
  });
  const install = new vm.Script(runtimeSource, { filename: 'autograph-lambda-runtime.js' }).runInContext(context);
  const runtime = install(bridge);

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
  parentPort.postMessage({ type: 'loaded', resolvers: JSON.parse(runtime.seal()) });
}

process.on('unhandledRejection', (reason) => {
  parentPort.postMessage({ type: 'log', level: 'error', message: 'unhandled promise rejection in the lambda script: ' + describe(reason) });
});

parentPort.on('message', (message) => {
  if (message && (message.type === 'call' || message.type === 'graphqlResult')) enterSandbox(message);
});

load();
`;
