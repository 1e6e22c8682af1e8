import { ApolloServer, type ApolloServerPlugin, type BaseContext, type GraphQLRequestContext, type GraphQLRequestListener } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError } from 'graphql';
import { pluginGroup } from '../../src/server/plugin-group.js';

const typeDefs = 'type Query { hello(name: String): String, broken: String }';
const resolvers = {
  Query: {
    hello: (_root: unknown, args: { name?: string }) => `hello ${args.name ?? 'you'}`,
    broken: () => {
      throw new Error('resolver failed');
    },
  },
};

/** A plugin that logs every hook Apollo calls on its listener, `<name>:<hook>`, end hooks included. */
function recordingPlugin(name: string, log: string[], skip: readonly string[] = []): ApolloServerPlugin<BaseContext> {
  const note = (hook: string) => log.push(`${name}:${hook}`);
  const all: GraphQLRequestListener<BaseContext> = {
    async didResolveSource() {
      note('didResolveSource');
    },
    async parsingDidStart() {
      note('parsingDidStart');
      return async () => {
        note('parsingDidEnd');
      };
    },
    async validationDidStart() {
      note('validationDidStart');
      return async () => {
        note('validationDidEnd');
      };
    },
    async didResolveOperation() {
      note('didResolveOperation');
    },
    async responseForOperation() {
      note('responseForOperation');
      return null;
    },
    async executionDidStart() {
      note('executionDidStart');
      return {
        async executionDidEnd() {
          note('executionDidEnd');
        },
        willResolveField({ info }) {
          note(`willResolveField ${info.fieldName}`);
          return () => note(`didResolveField ${info.fieldName}`);
        },
      };
    },
    async didEncounterErrors() {
      note('didEncounterErrors');
    },
    async willSendResponse() {
      note('willSendResponse');
    },
  };
  const listener = Object.fromEntries(Object.entries(all).filter(([hook]) => !skip.includes(hook))) as GraphQLRequestListener<BaseContext>;
  return {
    async requestDidStart() {
      note('requestDidStart');
      return listener;
    },
  };
}

async function run(plugins: ApolloServerPlugin<BaseContext>[], query: string) {
  const server = new ApolloServer<BaseContext>({ typeDefs, resolvers, plugins: [...plugins, ApolloServerPluginCacheControlDisabled()] });
  await server.start();
  try {
    const response = await server.executeOperation({ query });
    return response.body.kind === 'single' ? response.body.singleResult : undefined;
  } finally {
    await server.stop();
  }
}

/** The hook calls Apollo makes on plugins installed one by one, and on the same plugins as one group. */
async function logsAlone(make: (log: string[]) => ApolloServerPlugin<BaseContext>[], query: string) {
  const log: string[] = [];
  const result = await run(make(log), query);
  return { log, result };
}

async function logsGrouped(make: (log: string[]) => ApolloServerPlugin<BaseContext>[], query: string) {
  const log: string[] = [];
  const result = await run([pluginGroup(make(log))], query);
  return { log, result };
}

describe('pluginGroup through Apollo Server: the same hook calls, in the same order, as the plugins installed one by one', () => {
  const cases: { name: string; query: string; make: (log: string[]) => ApolloServerPlugin<BaseContext>[] }[] = [
    { name: 'every hook on three members', query: '{ hello(name: "a") }', make: (log) => ['a', 'b', 'c'].map((name) => recordingPlugin(name, log)) },
    {
      name: 'members with some hooks each',
      query: '{ hello }',
      make: (log) => [
        recordingPlugin('a', log, ['parsingDidStart', 'executionDidStart', 'willSendResponse']),
        recordingPlugin('b', log, ['validationDidStart', 'didResolveOperation']),
        recordingPlugin('c', log, ['responseForOperation', 'didResolveSource']),
      ],
    },
    { name: 'a resolver error', query: '{ broken }', make: (log) => ['a', 'b'].map((name) => recordingPlugin(name, log)) },
    { name: 'a validation error', query: '{ nope }', make: (log) => ['a', 'b'].map((name) => recordingPlugin(name, log)) },
    { name: 'a parse error', query: '{ hello(', make: (log) => ['a', 'b'].map((name) => recordingPlugin(name, log)) },
  ];

  test.each(cases)('$name', async ({ make, query }) => {
    const alone = await logsAlone(make, query);
    const grouped = await logsGrouped(make, query);
    expect(grouped.log).toEqual(alone.log);
    expect(grouped.result).toEqual(alone.result);
    expect(grouped.log.length).toBeGreaterThan(8);
  });

  test("the phases' end hooks and the execution listeners in Apollo's reverse orders", async () => {
    const { log } = await logsGrouped((log) => ['a', 'b', 'c'].map((name) => recordingPlugin(name, log)), '{ hello }');
    expect(log.filter((entry) => entry.endsWith('parsingDidEnd'))).toEqual(['c:parsingDidEnd', 'b:parsingDidEnd', 'a:parsingDidEnd']);
    expect(log.filter((entry) => entry.includes('willResolveField'))).toEqual(['c:willResolveField hello', 'b:willResolveField hello', 'a:willResolveField hello']);
    expect(log.filter((entry) => entry.includes('didResolveField'))).toEqual(['a:didResolveField hello', 'b:didResolveField hello', 'c:didResolveField hello']);
    expect(log.filter((entry) => entry.endsWith('executionDidEnd'))).toEqual(['c:executionDidEnd', 'b:executionDidEnd', 'a:executionDidEnd']);
  });
});

describe('pluginGroup rules', () => {
  const context = {} as GraphQLRequestContext<BaseContext>;

  async function listenerOf(plugins: ApolloServerPlugin<BaseContext>[]) {
    return (await pluginGroup(plugins).requestDidStart!(context)) as GraphQLRequestListener<BaseContext> | undefined;
  }

  test('no member listener: no listener; one: that listener itself', async () => {
    const only: GraphQLRequestListener<BaseContext> = { async willSendResponse() {} };
    expect(await listenerOf([{ async requestDidStart() {} }, {}])).toBeUndefined();
    expect(await listenerOf([{ async requestDidStart() {} }, { requestDidStart: async () => only }])).toBe(only);
  });

  test('members start in order, each before any is awaited', async () => {
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started = pluginGroup<BaseContext>([
      {
        async requestDidStart() {
          log.push('first started');
          await held;
          log.push('first done');
        },
      },
      {
        async requestDidStart() {
          log.push('second started');
        },
      },
    ]).requestDidStart!(context);
    expect(log).toEqual(['first started', 'second started']);
    release();
    await started;
    expect(log).toEqual(['first started', 'second started', 'first done']);
  });

  test('a hook that throws synchronously stops the later members and throws out of the group at once', async () => {
    const refusal = new GraphQLError('refused');
    const called: string[] = [];
    const listener = await listenerOf([
      { requestDidStart: async () => ({ didResolveOperation: async () => void called.push('before') }) },
      {
        requestDidStart: async () => ({
          didResolveOperation(): Promise<void> {
            throw refusal;
          },
        }),
      },
      { requestDidStart: async () => ({ didResolveOperation: async () => void called.push('after') }) },
    ]);
    expect(() => listener!.didResolveOperation!(context as never)).toThrow(refusal);
    expect(called).toEqual(['before']);
  });

  test('a rejected hook rejects the group hook once every member was called', async () => {
    const called: string[] = [];
    const listener = await listenerOf([
      { requestDidStart: async () => ({ willSendResponse: async () => Promise.reject(new Error('first failed')) }) },
      { requestDidStart: async () => ({ willSendResponse: async () => void called.push('second') }) },
    ]);
    await expect(listener!.willSendResponse!(context as never)).rejects.toThrow('first failed');
    expect(called).toEqual(['second']);
  });

  test('responseForOperation: the first member with a response answers, later members are not asked', async () => {
    const asked: string[] = [];
    const response = { http: { headers: new Map(), status: 200 }, body: { kind: 'single', singleResult: { data: { from: 'b' } } } };
    const listener = await listenerOf(
      ['a', 'b', 'c'].map((name) => ({
        requestDidStart: async () => ({
          async responseForOperation() {
            asked.push(name);
            return name === 'a' ? null : (response as never);
          },
        }),
      })),
    );
    expect(await listener!.responseForOperation!(context as never)).toBe(response);
    expect(asked).toEqual(['a', 'b']);
  });

  test('executionDidStart: no willResolveField unless a member has one (Apollo then instruments every field)', async () => {
    const listener = await listenerOf(['a', 'b'].map(() => ({ requestDidStart: async () => ({ executionDidStart: async () => ({ executionDidEnd: async () => {} }) }) })));
    const execution = await listener!.executionDidStart!(context as never);
    expect(execution).toBeDefined();
    expect(execution!.willResolveField).toBeUndefined();
  });

  test('requests whose members answer the same listeners share one group; other listeners get their own', async () => {
    const shared: GraphQLRequestListener<BaseContext> = { async willSendResponse() {} };
    const alsoShared: GraphQLRequestListener<BaseContext> = { async didResolveOperation() {} };
    let perRequest = false;
    const group = pluginGroup<BaseContext>([
      { requestDidStart: async () => shared },
      { requestDidStart: async () => (perRequest ? { async willSendResponse() {} } : alsoShared) },
    ]);
    const first = await group.requestDidStart!(context);
    const second = await group.requestDidStart!(context);
    expect(second).toBe(first);
    perRequest = true;
    const third = await group.requestDidStart!(context);
    const fourth = await group.requestDidStart!(context);
    expect(third).not.toBe(first);
    expect(fourth).not.toBe(third);
    perRequest = false;
    expect(await group.requestDidStart!(context)).not.toBe(fourth);
  });

  test('a shared group still calls each member that has the hook, once per request', async () => {
    const calls: string[] = [];
    const a: GraphQLRequestListener<BaseContext> = { willSendResponse: async () => void calls.push('a') };
    const b: GraphQLRequestListener<BaseContext> = { didResolveOperation: async () => void calls.push('b resolved'), willSendResponse: async () => void calls.push('b') };
    const group = pluginGroup<BaseContext>([{ requestDidStart: async () => a }, { requestDidStart: async () => b }]);
    for (let request = 0; request < 2; request += 1) {
      const listener = (await group.requestDidStart!(context)) as GraphQLRequestListener<BaseContext>;
      await listener.didResolveOperation!(context as never);
      await listener.willSendResponse!(context as never);
    }
    expect(calls).toEqual(['b resolved', 'a', 'b', 'b resolved', 'a', 'b']);
  });

  test('a plugin with hooks besides requestDidStart cannot be a member', () => {
    expect(() => pluginGroup([{ async requestDidStart() {} }, { async serverWillStart() {} }])).toThrow(
      'pluginGroup: plugin 1 has serverWillStart; only plugins whose one hook is requestDidStart can be grouped',
    );
  });
});
