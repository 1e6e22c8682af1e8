/**
 * JavaScript source of the runtime that is installed inside the lambda script's `vm` context before the
 * user's script runs. It is kept as text because it must be compiled inside that context: every function
 * and object the user's code can reach has to belong to the context's own realm, or the user's code could
 * climb to the outer realm's `Function` (`fn.constructor.constructor`) and from there to `process`.
 *
 * The runtime talks to the worker only through `bridge`, which it keeps in a closure the user's code cannot
 * reach, and only with primitives (JSON text, numbers). Every bridge call is wrapped so that an error the
 * outer realm might throw (e.g. a stack overflow on entry) never reaches the user's code as an object.
 *
 * The source evaluates to `function (bridge, maxResultBytes) { ... }` returning `{ seal() }`; see
 * lambda-worker-source.ts. Results and graphql() variables larger than `maxResultBytes` as JSON are refused
 * while they are copied, before the JSON text is built (a lower bound of its size is counted: characters).
 * Messages the runtime posts: log, result, failed, graphql. Messages it receives (via `inbox`): call
 * (`webhook: true` for a webhook), graphqlResult, timer. `seal()` answers the JSON of
 * `{ resolvers: [{ name, kind }], webhooks: [name] }`.
 */
export const LAMBDA_SANDBOX_RUNTIME_SOURCE = String.raw`(function installAutographLambdaRuntime(bridge, maxResultBytes) {
  'use strict';
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var isArray = Array.isArray;
  var objectKeys = Object.keys;
  var defineProperty = Object.defineProperty;
  var freeze = Object.freeze;
  var PromiseCtor = Promise;
  var MapCtor = Map;
  var SetCtor = Set;
  var WeakMapCtor = WeakMap;
  var WeakSetCtor = WeakSet;
  var DateCtor = Date;
  var ErrorCtor = Error;
  var TypeErrorCtor = TypeError;
  var RESOLVER_NAME = /^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/;
  var WEBHOOK_NAME = /^[A-Za-z_][A-Za-z0-9_]*\.(add|update|delete)$/;
  var MAX_LOG_LENGTH = 8192;
  var MAX_LIVE_TIMERS = 1000;

  var resolvers = new MapCtor();
  /** Webhooks by "Type.add|update|delete": a namespace of their own, so "T.add" may also be a field resolver. */
  var webhooks = new MapCtor();
  var registrationOpen = true;
  var graphqlWaiters = new MapCtor();
  var timers = new MapCtor();
  var nextRequestId = 1;
  var nextTimerId = 1;

  function callBridge(method, a, b, c) {
    try {
      return bridge[method](a, b, c);
    } catch (outerError) {
      throw new ErrorCtor('the lambda runtime could not reach the service');
    }
  }

  function send(message) {
    callBridge('post', stringify(message));
  }

  function errorMessage(error) {
    try {
      if (error !== null && typeof error === 'object' && typeof error.message === 'string') return error.message;
      return String(error);
    } catch (unprintable) {
      return 'an error that cannot be printed';
    }
  }

  /** Marks a value that is not JSON-like; only this runtime can create one. */
  function BadValue(message) {
    this.message = message;
  }

  function badValue(path, what) {
    return new BadValue(what + ' at ' + path);
  }

  /** Marks a value whose JSON text would be larger than maxResultBytes; only this runtime can create one. */
  function TooLarge() {}

  /** What is left of the JSON size allowed for one value; take() throws TooLarge once it is used up. */
  function sizeBudget() {
    var left = maxResultBytes;
    return {
      take: function (size) {
        left -= size;
        if (left < 0) throw new TooLarge();
      },
    };
  }

  /**
   * A plain JSON-like copy of value, or a BadValue thrown naming the first offending path; TooLarge once
   * the copy's JSON would exceed the budget (strings are counted by length, before they are ever flattened).
   */
  function toJsonValue(value, path, seen, budget) {
    if (value === null || value === undefined) {
      budget.take(4);
      return null;
    }
    switch (typeof value) {
      case 'string':
        budget.take(value.length + 2);
        return value;
      case 'boolean':
        budget.take(4);
        return value;
      case 'number':
        if (value !== value || value === Infinity || value === -Infinity) throw badValue(path, 'a non-finite number (' + value + ')');
        budget.take(1);
        return value;
      case 'bigint':
        throw badValue(path, 'a BigInt');
      case 'symbol':
        throw badValue(path, 'a symbol');
      case 'function':
        throw badValue(path, 'a function');
    }
    if (value instanceof DateCtor) {
      if (value.getTime() !== value.getTime()) throw badValue(path, 'an invalid Date');
      budget.take(26);
      return value.toISOString();
    }
    if (value instanceof PromiseCtor || typeof value.then === 'function') throw badValue(path, 'a Promise (await it first)');
    if (value instanceof MapCtor || value instanceof SetCtor || value instanceof WeakMapCtor || value instanceof WeakSetCtor) {
      throw badValue(path, 'a Map or Set');
    }
    if (seen.indexOf(value) !== -1) throw badValue(path, 'a circular reference');
    seen.push(value);
    var copy;
    budget.take(2);
    if (isArray(value)) {
      copy = [];
      for (var i = 0; i < value.length; i++) {
        if (i > 0) budget.take(1);
        copy.push(toJsonValue(value[i], path + '[' + i + ']', seen, budget));
      }
    } else {
      copy = {};
      var keys = objectKeys(value);
      var members = 0;
      for (var k = 0; k < keys.length; k++) {
        var item = value[keys[k]];
        if (item === undefined) continue;
        // "key": and a comma before every member but the first
        budget.take(keys[k].length + 3 + (members > 0 ? 1 : 0));
        members += 1;
        copy[keys[k]] = toJsonValue(item, path + '.' + keys[k], seen, budget);
      }
    }
    seen.pop();
    return copy;
  }

  function printable(value) {
    if (typeof value === 'string') return value;
    try {
      if (value instanceof ErrorCtor) return String(value.stack || value.message);
      var text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch (notJson) {
      try {
        return String(value);
      } catch (notPrintable) {
        return '[unprintable]';
      }
    }
  }

  function log(level, args) {
    var parts = [];
    for (var i = 0; i < args.length; i++) parts.push(printable(args[i]));
    var text = parts.join(' ');
    if (text.length > MAX_LOG_LENGTH) text = text.slice(0, MAX_LOG_LENGTH) + '... (truncated)';
    send({ type: 'log', level: level, message: text });
  }

  function logger(level) {
    return function () {
      log(level, arguments);
    };
  }

  /** What one registration call takes: which names, as words for its errors, and where the functions go. */
  var RESOLVER_TABLE = { pattern: RESOLVER_NAME, form: '"Type.field"', noun: 'resolver' };
  // Only the three names a webhook is ever called by, as Dgraph's lambda server takes them, so a misspelt one
  // is found when the script loads.
  var WEBHOOK_TABLE = { pattern: WEBHOOK_NAME, form: '"Type.add", "Type.update" or "Type.delete"', noun: 'webhook' };

  function registerTable(apiName, table, spec, registered, entryOf) {
    if (!registrationOpen) throw new ErrorCtor('self.' + apiName + ' must be called while the script loads, not later');
    if (table === null || typeof table !== 'object') {
      throw new TypeErrorCtor('self.' + apiName + ' expects an object that maps ' + spec.form + ' names to functions');
    }
    var names = objectKeys(table);
    for (var i = 0; i < names.length; i++) {
      var name = names[i];
      if (!spec.pattern.test(name)) {
        throw new TypeErrorCtor('self.' + apiName + ': "' + name + '" is not a ' + spec.noun + ' name of the form ' + spec.form);
      }
      var fn = table[name];
      if (typeof fn !== 'function') throw new TypeErrorCtor('self.' + apiName + ': the ' + spec.noun + ' for "' + name + '" is not a function');
      if (registered.has(name)) throw new ErrorCtor('the ' + spec.noun + ' "' + name + '" is registered twice');
      registered.set(name, entryOf(fn));
    }
  }

  function register(kind, table, apiName) {
    registerTable(apiName, table, RESOLVER_TABLE, resolvers, function (fn) { return { kind: kind, fn: fn }; });
  }

  /** self.addWebHookResolvers({ "Type.add": fn, ... }). */
  function registerWebhooks(table) {
    registerTable('addWebHookResolvers', table, WEBHOOK_TABLE, webhooks, function (fn) { return fn; });
  }

  function makeGraphql(callId) {
    return function graphql(query, variables) {
      if (typeof query !== 'string') return PromiseCtor.reject(new TypeErrorCtor('graphql(query, variables): query must be a string'));
      var variablesText;
      if (variables !== undefined && variables !== null) {
        if (typeof variables !== 'object' || isArray(variables)) {
          return PromiseCtor.reject(new TypeErrorCtor('graphql(query, variables): variables must be an object'));
        }
        try {
          variablesText = stringify(toJsonValue(variables, 'variables', [], sizeBudget()));
        } catch (error) {
          if (error instanceof TooLarge) {
            return PromiseCtor.reject(new TypeErrorCtor('graphql(query, variables): the variables are larger than the limit of ' + maxResultBytes + ' bytes of JSON'));
          }
          return PromiseCtor.reject(new TypeErrorCtor('graphql(query, variables): variables contain ' + errorMessage(error)));
        }
      }
      var requestId = nextRequestId++;
      return new PromiseCtor(function (resolve, reject) {
        graphqlWaiters.set(requestId, { resolve: resolve, reject: reject });
        send({ type: 'graphql', id: callId, requestId: requestId, query: query, variables: variablesText });
      });
    };
  }

  function expectBatch(values, count) {
    if (!isArray(values)) throw new BadValue('a multi-parent resolver must return an array, one entry per parent; it returned ' + printable(values).slice(0, 80));
    if (values.length !== count) {
      throw new BadValue('a multi-parent resolver must return one entry per parent: expected ' + count + ', got ' + values.length);
    }
    return values;
  }

  function invoke(entry, batch, input, graphql) {
    var fn = entry.fn;
    if (!batch) {
      if (entry.kind === 'single') return fn({ parent: input.parent, args: input.args, authHeader: input.authHeader, graphql: graphql });
      return PromiseCtor.resolve(fn({ parents: [input.parent], args: input.args, authHeader: input.authHeader, graphql: graphql }))
        .then(function (values) { return expectBatch(values, 1)[0]; });
    }
    if (entry.kind === 'batch') {
      return PromiseCtor.resolve(fn({ parents: input.parents, args: input.args, authHeader: input.authHeader, graphql: graphql }))
        .then(function (values) { return expectBatch(values, input.parents.length); });
    }
    var pending = [];
    for (var i = 0; i < input.parents.length; i++) {
      pending.push(fn({ parent: input.parents[i], args: input.args, authHeader: input.authHeader, graphql: graphql }));
    }
    return PromiseCtor.all(pending);
  }

  function fail(id, error) {
    if (error instanceof TooLarge) send({ type: 'failed', id: id, failure: 'bad-result', message: 'its result is larger than the limit of ' + maxResultBytes + ' bytes of JSON' });
    else if (error instanceof BadValue) send({ type: 'failed', id: id, failure: 'bad-result', message: error.message });
    else send({ type: 'failed', id: id, failure: 'thrown', message: errorMessage(error) });
  }

  function finish(id, value) {
    var text;
    try {
      text = stringify(toJsonValue(value, 'result', [], sizeBudget()));
    } catch (error) {
      if (error instanceof BadValue) {
        error.message = 'returned ' + error.message + '; a resolver must return JSON values (objects, arrays, strings, numbers, booleans, null)';
      }
      fail(id, error);
      return;
    }
    send({ type: 'result', id: id, value: text });
  }

  /**
   * A webhook gets what Dgraph's lambda server hands it: the event's type name ("Type.add"), the event,
   * the auth header and graphql(). What it returns is not used; the call ends when its promise settles.
   */
  function startWebhook(message) {
    var fn = webhooks.get(message.name);
    if (!fn) {
      send({ type: 'failed', id: message.id, failure: 'not-registered', message: 'the script registers no webhook with this name' });
      return;
    }
    var input = parse(message.payload);
    var pending;
    try {
      pending = fn({ type: message.name, event: input.event, authHeader: input.authHeader, graphql: makeGraphql(message.id) });
    } catch (error) {
      fail(message.id, error);
      return;
    }
    PromiseCtor.resolve(pending).then(
      function () { finish(message.id, null); },
      function (error) { fail(message.id, error); }
    );
  }

  function startCall(message) {
    if (message.webhook === true) {
      startWebhook(message);
      return;
    }
    var entry = resolvers.get(message.name);
    if (!entry) {
      send({ type: 'failed', id: message.id, failure: 'not-registered', message: 'the script registers no resolver with this name' });
      return;
    }
    var input = parse(message.payload);
    var pending;
    try {
      pending = invoke(entry, message.batch, input, makeGraphql(message.id));
    } catch (error) {
      fail(message.id, error);
      return;
    }
    PromiseCtor.resolve(pending).then(
      function (value) { finish(message.id, value); },
      function (error) { fail(message.id, error); }
    );
  }

  function deliverGraphqlResult(message) {
    var waiter = graphqlWaiters.get(message.requestId);
    if (!waiter) return;
    graphqlWaiters.delete(message.requestId);
    if (typeof message.error === 'string') waiter.reject(new ErrorCtor(message.error));
    else waiter.resolve(parse(message.result));
  }

  function startTimer(callback, delay, extraArgs, repeat) {
    if (typeof callback !== 'function') throw new TypeErrorCtor((repeat ? 'setInterval' : 'setTimeout') + ': the callback must be a function');
    if (timers.size >= MAX_LIVE_TIMERS) throw new ErrorCtor('too many timers: at most ' + MAX_LIVE_TIMERS + ' may be pending');
    var ms = Number(delay);
    if (!(ms >= 0)) ms = 0;
    var id = nextTimerId++;
    timers.set(id, { callback: callback, args: extraArgs, repeat: repeat });
    callBridge('setTimer', id, ms, repeat);
    return id;
  }

  function stopTimer(id) {
    var key = Number(id);
    if (timers.delete(key)) callBridge('clearTimer', key);
  }

  function fireTimer(message) {
    var timer = timers.get(message.timerId);
    if (!timer) return;
    if (!timer.repeat) timers.delete(message.timerId);
    try {
      timer.callback.apply(undefined, timer.args);
    } catch (error) {
      log('error', ['uncaught error in a timer callback:', errorMessage(error)]);
    }
  }

  function dispatch() {
    var text = callBridge('take');
    if (typeof text !== 'string') return;
    var message = parse(text);
    if (message.type === 'call') startCall(message);
    else if (message.type === 'graphqlResult') deliverGraphqlResult(message);
    else if (message.type === 'timer') fireTimer(message);
  }

  function sliceArgs(args, from) {
    var rest = [];
    for (var i = from; i < args.length; i++) rest.push(args[i]);
    return rest;
  }

  function defineGlobal(name, value) {
    defineProperty(globalThis, name, { value: value, writable: false, enumerable: false, configurable: false });
  }

  defineGlobal('addGraphQLResolvers', function addGraphQLResolvers(table) { register('single', table, 'addGraphQLResolvers'); });
  defineGlobal('addMultiParentGraphQLResolvers', function addMultiParentGraphQLResolvers(table) {
    register('batch', table, 'addMultiParentGraphQLResolvers');
  });
  defineGlobal('addWebHookResolvers', function addWebHookResolvers(table) { registerWebhooks(table); });
  defineGlobal('self', globalThis);
  defineGlobal('console', freeze({
    log: logger('info'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug'),
  }));
  defineGlobal('setTimeout', function setTimeout(callback, delay) { return startTimer(callback, delay, sliceArgs(arguments, 2), false); });
  defineGlobal('setInterval', function setInterval(callback, delay) { return startTimer(callback, delay, sliceArgs(arguments, 2), true); });
  defineGlobal('clearTimeout', function clearTimeout(id) { stopTimer(id); });
  defineGlobal('clearInterval', function clearInterval(id) { stopTimer(id); });
  defineGlobal('queueMicrotask', function queueMicrotask(callback) {
    if (typeof callback !== 'function') throw new TypeErrorCtor('queueMicrotask: the callback must be a function');
    PromiseCtor.resolve().then(function () { callback(); }).then(undefined, function (error) {
      log('error', ['uncaught error in a microtask:', errorMessage(error)]);
    });
  });
  defineGlobal('__autographDispatch__', dispatch);

  return freeze({
    seal: function () {
      registrationOpen = false;
      var list = [];
      resolvers.forEach(function (entry, name) { list.push({ name: name, kind: entry.kind }); });
      var hooks = [];
      webhooks.forEach(function (fn, name) { hooks.push(name); });
      return stringify({ resolvers: list, webhooks: hooks });
    },
  });
})`;
