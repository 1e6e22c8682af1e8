import { activateSchema, gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/**
 * A lambda can never take the service down: oversized results are refused where they are produced, and
 * memory outside the heap (ArrayBuffers held, or filled) stops and restarts the script's process. Each
 * fails its own field with LAMBDA_FAILED; the rest of the request, other clients and the next call are served.
 */

const SCHEMA = `type Note {
  id: ID!
  text: String
}

type Query {
  repeat(text: String!, times: Int!): String @lambda
  hoard(mb: Int!): String @lambda
  fill(mb: Int!): Int @lambda
  bigGraphql(chars: Int!): String @lambda
  echo(text: String!): String @lambda
}`;

const SCRIPT = `self.addGraphQLResolvers({
  'Query.repeat': ({ args }) => args.text.repeat(args.times),
  'Query.hoard': ({ args }) => {
    globalThis.hoarded = (globalThis.hoarded || []).concat(new ArrayBuffer(args.mb * 1024 * 1024));
    return 'holding ' + globalThis.hoarded.length;
  },
  'Query.fill': ({ args }) => new Uint8Array(args.mb * 1024 * 1024).fill(7).length,
  'Query.bigGraphql': async ({ graphql, args }) => {
    const answer = await graphql('{ queryNote { id } }' + ' '.repeat(args.chars));
    return JSON.stringify(answer.data);
  },
  'Query.echo': ({ args }) => 'echo: ' + args.text,
});`;

async function startWithLambdas(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, SCRIPT);
  return server;
}

function lambdaFailure(field: string, message: string | RegExp, failure: string) {
  return expect.objectContaining({
    message: typeof message === 'string' ? message : expect.stringMatching(message),
    path: [field],
    extensions: expect.objectContaining({ code: 'LAMBDA_FAILED', failure }),
  });
}

describe('lambda containment with the default limits', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startWithLambdas();
  });

  afterAll(() => server.close());

  test.each([
    ['150,000,000 characters (the crash of issue 12)', 150_000_000],
    ['just over 4 MiB', 4 * 1024 * 1024 - 1],
  ])('a result of %s fails its field; the same request and the next are answered', async (_label, times) => {
    const { status, body } = await gql(server.url, `query ($times: Int!) { repeat(text: "x", times: $times) echo(text: "beside") }`, { times });
    expect(status).toBe(200);
    expect(body.data).toEqual({ repeat: null, echo: 'echo: beside' });
    expect(body.errors).toEqual([
      lambdaFailure('repeat', 'Lambda resolver Query.repeat failed: its result is larger than the limit of 4194304 bytes of JSON', 'bad-result'),
    ]);
    expect(await gqlData(server.url, `{ echo(text: "next") }`)).toEqual({ echo: 'echo: next' });
  });

  test('a result of exactly 4 MiB of JSON is answered', async () => {
    const data = await gqlData<{ repeat: string }>(server.url, `{ repeat(text: "x", times: ${4 * 1024 * 1024 - 2}) }`);
    expect(data.repeat).toHaveLength(4 * 1024 * 1024 - 2);
  });

  test('holding a 1 GiB ArrayBuffer counts against the 128 MB limit: the field fails, the process restarts', async () => {
    const before = await gqlData(server.url, `{ hoard(mb: 1) }`);
    expect(before).toEqual({ hoard: 'holding 1' });

    const { status, body } = await gql(server.url, `{ hoard(mb: 1024) echo(text: "beside") }`);
    expect(status).toBe(200);
    expect(body.data).toEqual({ hoard: null, echo: 'echo: beside' });
    expect(body.errors).toEqual([
      lambdaFailure('hoard', /^Lambda resolver Query\.hoard failed: the lambda worker held 10\d\d MB of ArrayBuffer memory \(its limit: 128 MB\) while running it$/, 'worker-stopped'),
    ]);
    // A fresh process: what the script held is gone, so the count starts again.
    expect(await gqlData(server.url, `{ hoard(mb: 1) }`)).toEqual({ hoard: 'holding 1' });
  });
});

describe('lambda containment with small limits', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startWithLambdas({ lambdaMaxResultBytes: 1000, lambdaMaxResidentMb: 200, lambdaTimeoutMs: 10_000 });
  });

  afterAll(() => server.close());

  test.each([
    ['998 ASCII characters: 1000 bytes of JSON', 'x', 998, true],
    ['999 ASCII characters: 1001 bytes', 'x', 999, false],
    ['499 two-byte characters: 1000 bytes', 'é', 499, true],
    ['500 two-byte characters: 1002 bytes, though only 502 characters', 'é', 500, false],
  ])('the result limit counts UTF-8 bytes of JSON: %s', async (_label, text, times, answered) => {
    const { body } = await gql(server.url, `query ($text: String!, $times: Int!) { repeat(text: $text, times: $times) }`, { text, times });
    if (answered) {
      expect(body).toEqual({ data: { repeat: (text as string).repeat(times as number) } });
    } else {
      expect(body.data).toEqual({ repeat: null });
      expect(body.errors).toEqual([
        lambdaFailure('repeat', 'Lambda resolver Query.repeat failed: its result is larger than the limit of 1000 bytes of JSON', 'bad-result'),
      ]);
    }
  });

  test('a graphql() request larger than the limit is refused in the lambda process', async () => {
    const small = await gqlData(server.url, `{ bigGraphql(chars: 10) }`);
    expect(small).toEqual({ bigGraphql: '{"queryNote":[]}' });

    const { body } = await gql(server.url, `{ bigGraphql(chars: 2000) }`);
    expect(body.data).toEqual({ bigGraphql: null });
    expect(body.errors).toEqual([
      lambdaFailure(
        'bigGraphql',
        'Lambda resolver Query.bigGraphql failed: graphql() refused: its query and variables take 2020 bytes, more than the limit of 1000 bytes',
        'thrown',
      ),
    ]);
  });

  test('filling a 1 GiB typed array passes the resident limit: the process is killed, other clients are served meanwhile', async () => {
    const filling = gql(server.url, `{ fill(mb: 1024) echo(text: "beside") }`);
    const otherClient = await gql(server.url, `{ queryNote { id } }`);
    expect(otherClient.body).toEqual({ data: { queryNote: [] } });

    const { status, body } = await filling;
    expect(status).toBe(200);
    expect(body.data).toEqual({ fill: null, echo: 'echo: beside' });
    expect(body.errors).toEqual([
      lambdaFailure('fill', /^Lambda resolver Query\.fill failed: the lambda worker used \d+ MB of memory \(its limit: 200 MB\) while running it$/, 'worker-stopped'),
    ]);
    expect(await gqlData(server.url, `{ fill(mb: 1) echo(text: "next") }`)).toEqual({ fill: 1024 * 1024, echo: 'echo: next' });
  });
});
