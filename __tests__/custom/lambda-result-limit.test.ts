import { createLambdaHost, LambdaCallError, type LambdaHost } from '../../src/custom/index.js';

/**
 * The result limit, counted in the lambda worker before anything is sent: every kind of JSON value counts
 * (a plausible bug would count strings only), and a value far over the limit is refused before its JSON
 * text is built (150 million characters would exhaust the worker's heap otherwise).
 */

const LIMIT = 100;
const TOO_LARGE = `Lambda resolver Query.make failed: its result is larger than the limit of ${LIMIT} bytes of JSON`;

let host: LambdaHost;

beforeAll(async () => {
  host = createLambdaHost({ maxResultBytes: LIMIT });
  await host.load(`self.addGraphQLResolvers({
    'Query.make': ({ args }) => {
      switch (args.kind) {
        case 'string': return 'x'.repeat(args.n);
        case 'numbers': return Array.from({ length: args.n }, () => 7);
        case 'nulls': return Array.from({ length: args.n }, () => null);
        case 'keys': return Object.fromEntries(Array.from({ length: args.n }, (_, i) => ['k' + i, true]));
        case 'nested': { let value = 1; for (let i = 0; i < args.n; i++) value = [value]; return value; }
        case 'dates': return Array.from({ length: args.n }, () => new Date(0));
      }
    },
  });`);
});

afterAll(() => host.close());

async function make(kind: string, n: number): Promise<unknown> {
  return host.call('Query.make', { args: { kind, n } }, async () => ({ data: null }));
}

test.each([
  // [kind, n, JSON bytes of the result]
  ['string', 98, 100],
  ['numbers', 50, 101],
  ['nulls', 20, 101],
  ['keys', 10, 101],
  ['nested', 49, 99],
  ['nested', 50, 101],
  ['keys', 9, 91],
  ['dates', 3, 82],
])('%s x %d: %d bytes of JSON', async (kind, n, bytes) => {
  const call = make(kind as string, n as number);
  if ((bytes as number) <= LIMIT) {
    expect(JSON.stringify(await call)).toHaveLength(bytes as number);
  } else {
    await expect(call).rejects.toMatchObject({ failure: 'bad-result', message: TOO_LARGE });
  }
});

test.each([
  ['string', 150_000_000],
  ['numbers', 2_000_000],
  ['keys', 100_000],
])('%s x %d is refused without building it as JSON', async (kind, n) => {
  const failure = await make(kind as string, n as number).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(LambdaCallError);
  expect(failure).toMatchObject({ failure: 'bad-result', message: TOO_LARGE });
});
