import { LambdaCallError } from '../../src/custom/index';
import { SwappableLambdaHost } from '../../src/server/lambda-runtime';

/** The server's swappable lambda host: prepare, check, publish; replaced scripts finish their calls. */

const noGraphql = async () => {
  throw new Error('no graphql in this test');
};

let runtime: SwappableLambdaHost;

beforeEach(() => {
  runtime = new SwappableLambdaHost({ timeoutMs: 2000 });
});

afterEach(() => runtime.close());

test('before any script, calls fail as not registered', async () => {
  expect(runtime.script).toBeUndefined();
  expect(runtime.has('Query.a')).toBe(false);
  await expect(runtime.call('Query.a', {}, noGraphql)).rejects.toMatchObject({ failure: 'not-registered' });
});

test('a prepared script serves nothing until it is published', async () => {
  const prepared = await runtime.prepare(`self.addGraphQLResolvers({ 'Query.a': () => 'first' });`);
  expect(prepared.resolvers).toEqual(['Query.a']);
  expect(prepared.host.has('Query.a')).toBe(true);
  expect(runtime.has('Query.a')).toBe(false);
  runtime.publish(prepared);
  expect(runtime.script).toBe(prepared.text);
  await expect(runtime.call('Query.a', {}, noGraphql)).resolves.toBe('first');
});

test('a discarded script never serves, and the running one keeps serving', async () => {
  await runtime.load(`self.addGraphQLResolvers({ 'Query.a': () => 'running' });`);
  const prepared = await runtime.prepare(`self.addGraphQLResolvers({ 'Query.a': () => 'discarded' });`);
  await runtime.discard(prepared);
  await expect(runtime.call('Query.a', {}, noGraphql)).resolves.toBe('running');
});

test('a call in flight on a replaced script finishes there; the next call reaches the new script', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await runtime.load(`self.addGraphQLResolvers({
    'Query.a': async ({ graphql }) => { await graphql('{ wait }'); return 'old'; },
  });`);
  const inFlight = runtime.call('Query.a', {}, async () => {
    await gate;
    return { data: {} };
  });
  await runtime.load(`self.addGraphQLResolvers({ 'Query.a': () => 'new' });`);
  await expect(runtime.call('Query.a', {}, noGraphql)).resolves.toBe('new');
  release();
  await expect(inFlight).resolves.toBe('old');
});

test('a script that does not load is refused and changes nothing', async () => {
  await runtime.load(`self.addGraphQLResolvers({ 'Query.a': () => 'kept' });`);
  await expect(runtime.load('this is not javascript')).rejects.toThrow(/SyntaxError|Unexpected/);
  await expect(runtime.call('Query.a', {}, noGraphql)).resolves.toBe('kept');
});

test('after close, calls fail as closed', async () => {
  await runtime.load(`self.addGraphQLResolvers({ 'Query.a': () => 1 });`);
  await runtime.close();
  const failure = await runtime.call('Query.a', {}, noGraphql).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(LambdaCallError);
  expect(failure).toMatchObject({ failure: 'closed' });
});
