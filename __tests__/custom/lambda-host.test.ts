import { createLambdaHost, LambdaCallError, LambdaScriptError } from '../../src/custom/index.js';
import type { LambdaHost, LambdaGraphqlExecutor } from '../../src/custom/index.js';

const noGraphql: LambdaGraphqlExecutor = async () => {
  throw new Error('this test does not expect graphql() calls');
};

async function failureOf(promise: Promise<unknown>): Promise<LambdaCallError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LambdaCallError);
    return error as LambdaCallError;
  }
  throw new Error('expected the call to fail');
}

const SCRIPT = `
  const fullName = ({ parent }) => parent.firstName + ' ' + parent.lastName;
  const nap = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function todoTitles({ args, graphql }) {
    const results = await graphql('query($n: Int) { queryTodo(first: $n) { title } }', { n: args.first });
    return results.data.queryTodo.map((t) => t.title);
  }

  self.addGraphQLResolvers({
    'User.fullName': fullName,
    'Query.todoTitles': todoTitles,
    'Query.echo': ({ args, authHeader, parent }) => ({ args, authHeader, parent }),
    'Mutation.newUser': async ({ args }) => ({ id: 'u-' + args.name.toLowerCase(), name: args.name }),
    'Query.fails': () => { throw new Error('no luck today'); },
    'Query.rejects': async () => { throw 'plain string'; },
    'Query.spin': () => { while (true) {} },
    'Query.spinLater': async () => { await null; while (true) {} },
    'Query.never': () => new Promise(() => {}),
    'Query.fn': () => ({ ok: true, callback: () => 1 }),
    'Query.later': ({ args }) => new Promise((resolve) => setTimeout(resolve, 5, args.value)),
    'Query.twoNaps': async () => { await nap(200); await nap(200); return 'rested'; },
    'Query.logs': () => { console.log('hello', { from: 'lambda' }); console.warn('careful'); return 'logged'; },
    'Query.graphqlError': async ({ graphql }) => {
      try { await graphql('{ broken }'); return 'no error'; } catch (e) { return 'caught: ' + e.message; }
    },
    'Query.badVariables': ({ graphql }) => graphql('{ x }', { f: () => 1 }),
    'Query.deep': () => { const down = (n) => down(n + 1) + 1; return down(0); },
  });

  self.addMultiParentGraphQLResolvers({
    'User.rank': ({ parents, args }) => parents.map((p, i) => (args.offset || 0) + i + ':' + p.id),
    'User.short': ({ parents }) => parents.slice(1).map((p) => p.id),
  });
`;

describe('lambda host', () => {
  let host: LambdaHost;
  const logged: string[] = [];

  beforeAll(async () => {
    host = createLambdaHost({
      timeoutMs: 1000,
      logger: {
        info: (m) => logged.push(`info ${m}`),
        warn: (m) => logged.push(`warn ${m}`),
        error: (m) => logged.push(`error ${m}`),
      },
    });
    const loaded = await host.load(SCRIPT);
    expect(loaded.resolvers).toContain('User.fullName');
  });

  afterAll(() => host.close());

  it('lists the registered resolvers and their kinds', () => {
    expect(host.names()).toEqual([
      'Mutation.newUser', 'Query.badVariables', 'Query.deep', 'Query.echo', 'Query.fails', 'Query.fn', 'Query.graphqlError',
      'Query.later', 'Query.logs', 'Query.never', 'Query.rejects', 'Query.spin', 'Query.spinLater', 'Query.todoTitles', 'Query.twoNaps',
      'User.fullName', 'User.rank', 'User.short',
    ]);
    expect(host.has('User.fullName')).toBe(true);
    expect(host.has('User.nope')).toBe(false);
    expect(host.kindOf('User.fullName')).toBe('single');
    expect(host.kindOf('User.rank')).toBe('batch');
  });

  it('resolves a field of a type from its parent', async () => {
    await expect(host.call('User.fullName', { parent: { firstName: 'Ada', lastName: 'Lovelace' } }, noGraphql))
      .resolves.toBe('Ada Lovelace');
  });

  it('passes args and the auth header, and a null parent for a query', async () => {
    const authHeader = { key: 'X-Auth', value: 'token-1' };
    await expect(host.call('Query.echo', { args: { a: 1, b: ['x'] }, authHeader }, noGraphql))
      .resolves.toEqual({ args: { a: 1, b: ['x'] }, authHeader, parent: null });
  });

  it('runs a mutation-style resolver', async () => {
    await expect(host.call('Mutation.newUser', { args: { name: 'Grace' } }, noGraphql))
      .resolves.toEqual({ id: 'u-grace', name: 'Grace' });
  });

  it('answers a batched resolver with one value per parent', async () => {
    const parents = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    await expect(host.callBatch('User.rank', { parents, args: { offset: 10 } }, noGraphql))
      .resolves.toEqual(['10:a', '11:b', '12:c']);
  });

  it('calls a single-parent resolver once per parent in a batch, and a batch resolver for one parent', async () => {
    const parents = [{ firstName: 'A', lastName: 'B' }, { firstName: 'C', lastName: 'D' }];
    await expect(host.callBatch('User.fullName', { parents }, noGraphql)).resolves.toEqual(['A B', 'C D']);
    await expect(host.call('User.rank', { parent: { id: 'z' } }, noGraphql)).resolves.toBe('0:z');
  });

  it('fails a batched resolver that answers the wrong number of values', async () => {
    const failure = await failureOf(host.callBatch('User.short', { parents: [{ id: 'a' }, { id: 'b' }] }, noGraphql));
    expect(failure.failure).toBe('bad-result');
    expect(failure.message).toMatch(/User\.short.*expected 2, got 1/);
  });

  it('round-trips graphql() to the host function', async () => {
    const seen: Array<{ query: string; variables?: Record<string, unknown> }> = [];
    const graphql: LambdaGraphqlExecutor = async (query, variables) => {
      seen.push({ query, variables });
      return { data: { queryTodo: [{ title: 'one' }, { title: 'two' }].slice(0, Number(variables?.n)) } };
    };
    await expect(host.call('Query.todoTitles', { args: { first: 1 } }, graphql)).resolves.toEqual(['one']);
    expect(seen).toEqual([{ query: 'query($n: Int) { queryTodo(first: $n) { title } }', variables: { n: 1 } }]);
  });

  it('rejects graphql() inside the script when the host function throws', async () => {
    const graphql: LambdaGraphqlExecutor = async () => {
      throw new Error('Cannot query field "broken"');
    };
    await expect(host.call('Query.graphqlError', {}, graphql))
      .resolves.toBe('caught: graphql() failed: Cannot query field "broken"');
  });

  it('refuses graphql() variables that are not JSON', async () => {
    const failure = await failureOf(host.call('Query.badVariables', {}, noGraphql));
    expect(failure.message).toMatch(/variables contain a function at variables\.f/);
  });

  it('fails a throwing resolver with its message', async () => {
    const thrown = await failureOf(host.call('Query.fails', {}, noGraphql));
    expect(thrown.failure).toBe('thrown');
    expect(thrown.message).toBe('Lambda resolver Query.fails failed: no luck today');
    const rejected = await failureOf(host.call('Query.rejects', {}, noGraphql));
    expect(rejected.message).toBe('Lambda resolver Query.rejects failed: plain string');
  });

  it('fails a resolver that overflows the stack with its own error, and keeps serving', async () => {
    const failure = await failureOf(host.call('Query.deep', {}, noGraphql));
    expect(failure.failure).toBe('thrown');
    expect(failure.message).toMatch(/Query\.deep failed: Maximum call stack size exceeded/);
    await expect(host.call('Query.echo', { args: { n: 1 } }, noGraphql)).resolves.toEqual({ args: { n: 1 }, parent: null });
  });

  it('fails a resolver whose result is not JSON-like', async () => {
    const failure = await failureOf(host.call('Query.fn', {}, noGraphql));
    expect(failure.failure).toBe('bad-result');
    expect(failure.message).toMatch(/returned a function at result\.callback/);
  });

  it('supports setTimeout inside the script', async () => {
    await expect(host.call('Query.later', { args: { value: 42 } }, noGraphql)).resolves.toBe(42);
  });

  it('routes console output to the host logger', async () => {
    await expect(host.call('Query.logs', {}, noGraphql)).resolves.toBe('logged');
    expect(logged).toEqual(expect.arrayContaining(['info lambda: hello {"from":"lambda"}', 'warn lambda: careful']));
  });

  it('fails a call to a name the script does not register', async () => {
    const failure = await failureOf(host.call('Query.unknown', {}, noGraphql));
    expect(failure.failure).toBe('not-registered');
  });

  it.each(['Query.spin', 'Query.spinLater', 'Query.never'])('times out %s and serves the next call', async (name) => {
    const failure = await failureOf(host.call(name, {}, noGraphql));
    expect(failure.failure).toBe('timeout');
    expect(failure.message).toMatch(new RegExp(`${name.replace('.', '\\.')} failed: .*1000 ms`));
    await expect(host.call('User.fullName', { parent: { firstName: 'Still', lastName: 'Here' } }, noGraphql))
      .resolves.toBe('Still Here');
  });

  it('interrupts a loop inside the worker, so a call queued behind it is answered', async () => {
    // Query.spin freezes the worker until the sandbox interrupts it; the bystander waits in the worker's queue.
    const spin = failureOf(host.call('Query.spinLater', {}, noGraphql));
    const bystander = host.call('User.fullName', { parent: { firstName: 'A', lastName: 'B' } }, noGraphql);
    expect(await spin).toMatchObject({ failure: 'timeout', message: 'Lambda resolver Query.spinLater failed: it did not finish within 1000 ms' });
    await expect(bystander).resolves.toBe('A B');
  });

  it('does not charge a call for the time another call spent looping', async () => {
    // twoNaps starts first and needs 400 ms of its own; the loop starting right after it takes the whole 1000 ms
    // limit, during which twoNaps' first nap ends. Counted by the clock, twoNaps would overrun.
    const naps = host.call('Query.twoNaps', {}, noGraphql);
    const spin = failureOf(host.call('Query.spin', {}, noGraphql));
    expect((await spin).failure).toBe('timeout');
    await expect(naps).resolves.toBe('rested');
  });
});

describe('lambda host isolation', () => {
  let host: LambdaHost;

  beforeAll(() => {
    host = createLambdaHost({ timeoutMs: 1000 });
  });
  afterAll(() => host.close());

  const probes: Record<string, string> = {
    process: 'process.pid',
    require: "require('fs')",
    globalProcess: 'globalThis.process.pid',
    constructorEscape: 'this.constructor.constructor("return process")().pid',
    resolverConstructorEscape: 'self.addGraphQLResolvers.constructor.constructor("return process")().pid',
    argsEscape: 'ARGS.constructor.constructor("return process")().pid',
    eval: 'eval("1 + 1")',
    module: 'module.exports',
    fetch: "fetch('http://127.0.0.1:1/')",
    importFs: "import('fs')",
  };

  async function probe(expression: string): Promise<{ reached: boolean; value?: string; error?: string }> {
    await host.load(`
      self.addGraphQLResolvers({
        'Query.probe': async ({ args }) => {
          const ARGS = args;
          try { return { reached: true, value: String(await (${expression})) }; }
          catch (e) { return { reached: false, error: String(e && e.message) }; }
        },
      });
    `);
    return (await host.call('Query.probe', { args: { a: 1 } }, noGraphql)) as { reached: boolean; value?: string; error?: string };
  }

  it('runs an ordinary expression in the probe (control for the probes below)', async () => {
    await expect(probe('Math.max(ARGS.a, 2) + JSON.stringify([new Date(0).getTime()])')).resolves.toEqual({ reached: true, value: '2[0]' });
  });

  it.each(Object.entries(probes))('cannot reach the host through %s', async (_name, expression) => {
    const answer = await probe(expression);
    expect(answer).toEqual({ reached: false, error: expect.any(String) });
  });

  it('gives the script only objects of its own realm (so no constructor chain leads out)', async () => {
    await host.load(`
      self.addGraphQLResolvers({
        'Query.realms': async ({ parent, args, graphql }) => {
          const answer = await graphql('{ x }');
          const failure = await graphql('{ y }').catch((e) => e);
          const given = { self, addGraphQLResolvers, consoleLog: console.log, setTimeout, graphql, args, answer, failure,
            pending: graphql('{ x }') };
          return Object.keys(given).filter((k) => given[k].constructor.constructor !== Function);
        },
      });
    `);
    let calls = 0;
    const graphql: LambdaGraphqlExecutor = async () => {
      calls += 1;
      if (calls === 2) throw new Error('no');
      return { data: { x: 1 } };
    };
    await expect(host.call('Query.realms', { args: { a: { b: 1 } } }, graphql)).resolves.toEqual([]);
  });

  it('has no process, require or module at the top level either', async () => {
    await host.load(`
      const seen = [typeof process, typeof require, typeof module, typeof fetch, typeof Buffer].join(',');
      self.addGraphQLResolvers({ 'Query.seen': () => seen });
    `);
    await expect(host.call('Query.seen', {}, noGraphql)).resolves.toBe('undefined,undefined,undefined,undefined,undefined');
  });
});

/** A logger that keeps what it is told, and can wait for a line. */
function recordingLogger() {
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const record = (level: string) => (message: string) => {
    const line = `${level} ${message}`;
    lines.push(line);
    for (const waiter of waiters.filter((candidate) => candidate.pattern.test(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  return {
    lines,
    logger: { info: record('info'), warn: record('warn'), error: record('error') },
    /** The first line matching `pattern`, now or later. */
    waitFor(pattern: RegExp): Promise<string> {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

/** Resolvers that wait (so they are in flight when the worker dies), and one that was never started. */
const BYSTANDERS = `
  let runs = 0;
  const nap = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  self.addGraphQLResolvers({
    'Query.ok': () => 'ok',
    'Query.napping': async () => { runs += 1; await nap(20); return 'napped, run ' + runs + ' in this worker'; },
    'Mutation.napping': async () => { await nap(20); return 'changed'; },
  });
`;

describe('lambda host memory limit', () => {
  it('fails the call that exhausts the memory limit; the calls in flight with it run on the new worker, a started mutation fails', async () => {
    const host = createLambdaHost({ timeoutMs: 10_000, memoryMb: 32 });
    try {
      await host.load(`${BYSTANDERS}
        self.addGraphQLResolvers({
          'Query.hog': () => { const keep = []; while (true) keep.push(new Array(100000).fill(keep.length)); },
        });
      `);
      // The worker takes its messages in order: both napping calls start (and wait), then hog runs, then ok would.
      const startedQuery = host.call('Query.napping', {}, noGraphql);
      const startedMutation = failureOf(host.call('Mutation.napping', {}, noGraphql));
      const hog = failureOf(host.call('Query.hog', {}, noGraphql));
      const queued = host.call('Query.ok', {}, noGraphql);

      expect(await hog).toMatchObject({ failure: 'worker-stopped', message: 'Lambda resolver Query.hog failed: the lambda worker ran out of memory while running it' });
      await expect(queued).resolves.toBe('ok');
      // Run again from the start in the new worker, whose counter starts at zero.
      await expect(startedQuery).resolves.toBe('napped, run 1 in this worker');
      expect(await startedMutation).toMatchObject({
        failure: 'worker-stopped',
        message: 'Lambda resolver Mutation.napping failed: the lambda worker ran out of memory while running Query.hog; ' +
          'the mutation had started and is not run again, since it may already have made changes',
      });
      await expect(host.call('Mutation.napping', {}, noGraphql)).resolves.toBe('changed');
    } finally {
      await host.close();
    }
  });
});

describe('lambda host: a worker stuck in code the engine cannot interrupt', () => {
  it('is stopped; the stuck call fails as timed out and the other calls in flight run on the new worker', async () => {
    const { logger, lines } = recordingLogger();
    const host = createLambdaHost({ timeoutMs: 300, logger });
    try {
      await host.load(`${BYSTANDERS}
        self.addGraphQLResolvers({
          // Sorting a typed array is one engine builtin that does not stop for the time limit (seconds here).
          'Query.sortHuge': () => new Float64Array(20000000).sort().length,
        });
      `);
      const started = host.call('Query.napping', {}, noGraphql);
      const stuck = failureOf(host.call('Query.sortHuge', {}, noGraphql));
      const queued = host.call('Query.ok', {}, noGraphql);
      expect(await stuck).toMatchObject({
        failure: 'timeout',
        message: 'Lambda resolver Query.sortHuge failed: it ran past its time limit of 300 ms and could not be interrupted, so the lambda worker was restarted',
      });
      await expect(queued).resolves.toBe('ok');
      await expect(started).resolves.toBe('napped, run 1 in this worker');
      expect(lines).toContain('warn lambda: the lambda worker was stuck past its time limit while running Query.sortHuge');
    } finally {
      await host.close();
    }
  });
});

describe('lambda host: timers the script starts while it loads', () => {
  it('stops a timer callback that loops, logs it, and keeps the worker', async () => {
    const { logger, lines, waitFor } = recordingLogger();
    const host = createLambdaHost({ timeoutMs: 300, logger });
    try {
      await host.load(`
        setTimeout(() => { for (;;) {} }, 10);
        self.addGraphQLResolvers({ 'Query.ok': () => 'ok' });
      `);
      await waitFor(/timer callback/);
      await expect(host.call('Query.ok', {}, noGraphql)).resolves.toBe('ok');
      expect(lines).toEqual(['error lambda: a timer callback ran longer than 300 ms and was stopped']);
    } finally {
      await host.close();
    }
  });

  it('cancels an interval whose callback overran', async () => {
    const { logger, lines, waitFor } = recordingLogger();
    const host = createLambdaHost({ timeoutMs: 300, logger });
    try {
      await host.load(`
        setInterval(() => { for (;;) {} }, 10);
        const nap = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        self.addGraphQLResolvers({ 'Query.napTwice': async () => { await nap(30); await nap(30); return 'ok'; } });
      `);
      await waitFor(/timer callback/);
      // Both naps are due after the interval's next tick would have been; it does not come again.
      await expect(host.call('Query.napTwice', {}, noGraphql)).resolves.toBe('ok');
      expect(lines).toEqual(['error lambda: a timer callback ran longer than 300 ms and was stopped; its interval is cancelled']);
    } finally {
      await host.close();
    }
  });

  it('gives up restarting a worker that keeps crashing on its own, until a new script is loaded', async () => {
    const { logger, lines, waitFor } = recordingLogger();
    const host = createLambdaHost({ timeoutMs: 5_000, memoryMb: 32, logger });
    try {
      // Every fresh worker runs the timer again, so each restart crashes like the first.
      await host.load(`
        setTimeout(() => { const keep = []; while (true) keep.push(new Array(100000).fill(keep.length)); }, 10);
        self.addGraphQLResolvers({ 'Query.ok': () => 'ok' });
      `);
      const gaveUp = await waitFor(/in a row/);
      const expected = 'the lambda worker stopped 5 times in a row without answering a call (last: the lambda worker ran out of memory); ' +
        'lambda fields fail until a new lambda script is loaded';
      expect(gaveUp).toBe(`error lambda: ${expected}`);
      expect(lines.filter((line) => line === 'warn lambda: the lambda worker ran out of memory')).toHaveLength(5);
      expect(await failureOf(host.call('Query.ok', {}, noGraphql))).toMatchObject({
        failure: 'worker-stopped',
        message: `Lambda resolver Query.ok failed: ${expected}`,
      });

      await host.load(`self.addGraphQLResolvers({ 'Query.ok': () => 'ok again' });`);
      await expect(host.call('Query.ok', {}, noGraphql)).resolves.toBe('ok again');
    } finally {
      await host.close();
    }
  });
});

describe('lambda script loading', () => {
  let host: LambdaHost;

  beforeEach(() => {
    host = createLambdaHost({ timeoutMs: 500 });
  });
  afterEach(() => host.close());

  async function loadError(script: string): Promise<LambdaScriptError> {
    try {
      await host.load(script);
    } catch (error) {
      expect(error).toBeInstanceOf(LambdaScriptError);
      return error as LambdaScriptError;
    }
    throw new Error('expected the script to be refused');
  }

  it('refuses a script with a syntax error, naming line and column, and keeps the previous one', async () => {
    await host.load(`self.addGraphQLResolvers({ 'Query.v': () => 'first' });`);
    const error = await loadError(`self.addGraphQLResolvers({\n  'Query.v': () => 'second'\n  'Query.w': () => 1 });`);
    expect(error.message).toMatch(/syntax error: Unexpected string \(line 3, column 3\)/);
    expect(error.location).toEqual({ line: 3, column: 3 });
    expect(host.names()).toEqual(['Query.v']);
    await expect(host.call('Query.v', {}, noGraphql)).resolves.toBe('first');
  });

  it('refuses a script that throws while loading, naming the line', async () => {
    const error = await loadError(`const a = 1;\nnull.boom;`);
    expect(error.message).toMatch(/failed while loading: Cannot read properties of null.*\(line 2, column 6\)/);
    expect(host.names()).toEqual([]);
  });

  it('refuses a script whose top level does not finish in time', async () => {
    const error = await loadError('while (true) {}');
    expect(error.message).toMatch(/did not finish loading within 500 ms/);
  });

  it('refuses bad registrations with a clear message', async () => {
    expect((await loadError(`self.addGraphQLResolvers({ 'fullName': () => 1 });`)).message)
      .toMatch(/"fullName" is not a resolver name of the form "Type\.field"/);
    expect((await loadError(`self.addGraphQLResolvers({ 'User.x': 42 });`)).message)
      .toMatch(/the resolver for "User\.x" is not a function \(line 1/);
    expect((await loadError(`self.addGraphQLResolvers({ 'User.x': () => 1 });\naddMultiParentGraphQLResolvers({ 'User.x': () => [] });`)).message)
      .toMatch(/"User\.x" is registered twice \(line 2/);
  });

  it('refuses registrations made after loading', async () => {
    await host.load(`
      self.addGraphQLResolvers({
        'Query.late': () => new Promise((resolve) => setTimeout(() => {
          try { self.addGraphQLResolvers({ 'Query.other': () => 1 }); resolve('registered'); }
          catch (e) { resolve(e.message); }
        }, 1)),
      });
    `);
    await expect(host.call('Query.late', {}, noGraphql)).resolves.toMatch(/must be called while the script loads/);
    expect(host.has('Query.other')).toBe(false);
  });

  it('replaces the running script with a new one', async () => {
    await host.load(`self.addGraphQLResolvers({ 'Query.v': () => 1 });`);
    await host.load(`self.addGraphQLResolvers({ 'Query.w': () => 2 });`);
    expect(host.names()).toEqual(['Query.w']);
    await expect(host.call('Query.w', {}, noGraphql)).resolves.toBe(2);
    expect((await failureOf(host.call('Query.v', {}, noGraphql))).failure).toBe('not-registered');
  });

  it('fails calls after close', async () => {
    await host.load(`self.addGraphQLResolvers({ 'Query.v': () => 1 });`);
    await host.close();
    expect((await failureOf(host.call('Query.v', {}, noGraphql))).failure).toBe('closed');
  });
});
