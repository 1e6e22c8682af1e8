import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { gql } from '../helpers/gql';
import { makeTempDir } from '../helpers/server';

/** Issue 7 from the command line: `--lambda` (or `LAMBDA_FILE`), `--custom-allow`, `--lambda-timeout-ms` and `CUSTOM_SECRET_<NAME>`. */

const ROOT = resolve(__dirname, '../..');
const REGISTER_TS = join(ROOT, '__tests__/helpers/register-ts.cjs');
const MAIN = join(ROOT, 'src/server/main.ts');
const OWN_VARIABLES = /^(NODE_ENV|PORT|HOST|DATA_DIR|SCHEMA_FILE|MONGODB_URI|ADMIN_TOKEN|LOG_LEVEL|LAMBDA_FILE|LAMBDA_TIMEOUT_MS|LAMBDA_MEMORY_MB|LAMBDA_MAX_RSS_MB|LAMBDA_MAX_RESULT_BYTES|CUSTOM_ALLOW|CUSTOM_TIMEOUT_MS|CUSTOM_SECRET_.*)$/;

interface CliRun {
  /** The first log line with this `msg`, or a rejection if the process exits first. */
  waitForLog(msg: string): Promise<Record<string, unknown>>;
  stop(): void;
  exit: Promise<{ code: number | null; stderr: string; logs: Array<Record<string, unknown>> }>;
}

function runCli(args: string[], env: Record<string, string> = {}): CliRun {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !OWN_VARIABLES.test(name)));
  const child = spawn(process.execPath, ['-r', REGISTER_TS, MAIN, ...args], { cwd: ROOT, env: { ...clean, ...env } });
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<{ msg: string; resolve: (line: Record<string, unknown>) => void }> = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    logs.push(entry);
    for (const waiter of waiters.filter((candidate) => candidate.msg === entry.msg)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(entry);
    }
  });
  const exit = new Promise<{ code: number | null; stderr: string; logs: Array<Record<string, unknown>> }>((done) =>
    child.on('close', (code) => done({ code, stderr, logs })),
  );
  return {
    exit,
    stop: () => child.kill('SIGTERM'),
    waitForLog(msg) {
      const seen = logs.find((entry) => entry.msg === msg);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolveLine, reject) => {
        waiters.push({ msg, resolve: resolveLine });
        void exit.then(({ stderr: err }) => reject(new Error(`the CLI exited before logging "${msg}": ${err}`)));
      });
    },
  };
}

jest.setTimeout(120_000); // each case starts Node + ts-node, which takes seconds on a busy machine

const SCHEMA = `
type Query {
  hello(name: String!): String @lambda
  spin: String @lambda
  whoAmI: String @custom(http: { url: "REMOTE/whoami", method: GET, secretHeaders: ["X-Api-Key:API_KEY"] })
}
`;

const SCRIPT = `self.addGraphQLResolvers({
  'Query.hello': ({ args }) => 'hello ' + args.name,
  'Query.spin': () => { for (;;) {} },
});`;

let dataDir: string;
let remote: Server;
let remoteBase: string;

beforeAll(async () => {
  remote = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(`key=${req.headers['x-api-key'] ?? '-'}`));
  });
  await new Promise<void>((done) => remote.listen(0, '127.0.0.1', done));
  remoteBase = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterAll(async () => {
  remote.closeAllConnections();
  await new Promise((done) => remote.close(done));
});

beforeEach(async () => {
  dataDir = await makeTempDir();
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

test('--lambda, --lambda-timeout-ms, --custom-allow and CUSTOM_SECRET_<NAME> reach the running service', async () => {
  await writeFile(join(dataDir, 'schema.graphql'), SCHEMA.replace('REMOTE', remoteBase));
  await writeFile(join(dataDir, 'lambda.js'), SCRIPT);
  const cli = runCli(
    ['--port', '0', '--data', join(dataDir, 'db'), '--schema', join(dataDir, 'schema.graphql'), '--lambda', join(dataDir, 'lambda.js'),
      '--lambda-timeout-ms', '700', '--custom-allow', '127.0.0.1'],
    { CUSTOM_SECRET_API_KEY: 'from-env' },
  );
  try {
    const started = await cli.waitForLog('started');
    const url = started.url as string;
    const { body } = await gql(url, `{ hello(name: "cli") whoAmI spin }`);
    expect(body.data).toEqual({ hello: 'hello cli', whoAmI: 'key=from-env', spin: null });
    expect(body.errors!.map((error) => error.message)).toEqual([
      'Lambda resolver Query.spin failed: it did not finish within 700 ms',
    ]);
  } finally {
    cli.stop();
  }
  expect((await cli.exit).code).toBe(0);
});

test('the lambda memory and result limits reach the running service, by flag and by environment', async () => {
  await writeFile(join(dataDir, 'schema.graphql'), 'type Query { hello(name: String!): String @lambda hoard: String @lambda fill: Int @lambda }');
  await writeFile(join(dataDir, 'lambda.js'), `self.addGraphQLResolvers({
    'Query.hello': ({ args }) => 'hello ' + args.name,
    'Query.hoard': () => { globalThis.kept = new ArrayBuffer(100 * 1024 * 1024); return 'kept'; },
    'Query.fill': () => new Uint8Array(512 * 1024 * 1024).fill(1).length,
  });`);
  const cli = runCli(
    ['--port', '0', '--data', join(dataDir, 'db'), '--schema', join(dataDir, 'schema.graphql'), '--lambda', join(dataDir, 'lambda.js'),
      '--lambda-max-result-bytes', '20', '--lambda-memory-mb=64', '--lambda-timeout-ms', '10000'],
    { LAMBDA_MAX_RSS_MB: '200' },
  );
  try {
    const url = (await cli.waitForLog('started')).url as string;
    const messages = async (query: string) => (await gql(url, query)).body.errors?.map((error) => error.message);
    // "hello 0123456789abc" is 21 bytes of JSON with its quotes; one character less fits.
    expect((await gql(url, `{ hello(name: "0123456789ab") }`)).body).toEqual({ data: { hello: 'hello 0123456789ab' } });
    expect(await messages(`{ hello(name: "0123456789abc") }`)).toEqual([
      'Lambda resolver Query.hello failed: its result is larger than the limit of 20 bytes of JSON',
    ]);
    expect(await messages(`{ hoard }`)).toEqual([
      expect.stringMatching(/^Lambda resolver Query\.hoard failed: the lambda worker held 10\d MB of ArrayBuffer memory \(its limit: 64 MB\) while running it$/),
    ]);
    expect(await messages(`{ fill }`)).toEqual([
      expect.stringMatching(/^Lambda resolver Query\.fill failed: the lambda worker used \d+ MB of memory \(its limit: 200 MB\) while running it$/),
    ]);
  } finally {
    cli.stop();
  }
  expect((await cli.exit).code).toBe(0);
});

test('LAMBDA_FILE names the lambda script to load at start, like --lambda', async () => {
  await writeFile(join(dataDir, 'schema.graphql'), 'type Query { hello(name: String!): String @lambda }');
  await writeFile(join(dataDir, 'lambda.js'), SCRIPT);
  const cli = runCli(['--port', '0', '--data', join(dataDir, 'db'), '--schema', join(dataDir, 'schema.graphql')], {
    LAMBDA_FILE: join(dataDir, 'lambda.js'),
  });
  try {
    const started = await cli.waitForLog('started');
    const { body } = await gql(started.url as string, `{ hello(name: "env") }`);
    expect(body).toEqual({ data: { hello: 'hello env' } });
  } finally {
    cli.stop();
  }
  expect((await cli.exit).code).toBe(0);
});

test('a lambda file that cannot be read is a usage error (exit 2)', async () => {
  const missing = join(dataDir, 'nowhere.js');
  const { code, stderr } = await runCli(['--port', '0', '--data', join(dataDir, 'db'), '--lambda', missing]).exit;
  expect(code).toBe(2);
  expect(stderr).toContain(`autograph: cannot read the lambda file ${missing}:`);
});

test('a lambda file that does not load stops the start (exit 1) with the error in the log', async () => {
  await writeFile(join(dataDir, 'lambda.js'), 'self.addGraphQLResolvers({ oops');
  const { code, logs } = await runCli(['--port', '0', '--data', join(dataDir, 'db'), '--lambda', join(dataDir, 'lambda.js')]).exit;
  expect(code).toBe(1);
  const rejected = logs.find((entry) => entry.msg === 'the lambda file was rejected');
  expect(rejected).toEqual(expect.objectContaining({ lambdaFile: join(dataDir, 'lambda.js'), errors: [expect.stringMatching(/SyntaxError|Unexpected/)] }));
});
