import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { gql, uploadSchema } from '../helpers/gql';
import { makeTempDir } from '../helpers/server';
import { closedLoopbackPort } from '../helpers/wait';
import { BROKEN_SCHEMA, TASKS_SCHEMA } from './schemas';

const ROOT = resolve(__dirname, '../..');
const REGISTER_TS = join(ROOT, '__tests__/helpers/register-ts.cjs');
const MAIN = join(ROOT, 'src/server/main.ts');

interface Cli {
  child: ChildProcess;
  /** Parsed JSON log lines seen so far. */
  logs: Array<Record<string, unknown>>;
  /** Resolves with the first log line whose `msg` is `msg`. */
  waitForLog(msg: string): Promise<Record<string, unknown>>;
  exit: Promise<{ code: number | null; stderr: string; stdout: string }>;
}

/** Runs the CLI from its TypeScript source (no build needed), with a clean environment for its flags. */
function runCli(args: string[], env: Record<string, string> = {}): Cli {
  // Without jest's NODE_ENV=test, so libraries behave as for a user (Apollo Server, for one, installs
  // signal handlers unless told not to).
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !['NODE_ENV', 'PORT', 'HOST', 'DATA_DIR', 'SCHEMA_FILE', 'MONGODB_URI', 'ADMIN_TOKEN', 'LOG_LEVEL', 'CORS_ORIGINS', 'INTROSPECTION', 'IDE'].includes(name) && !name.startsWith('PERSISTED_') && !name.startsWith('MAX_'),
    ),
  );
  const child = spawn(process.execPath, ['-r', REGISTER_TS, MAIN, ...args], { cwd: ROOT, env: { ...clean, ...env } });
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<{ msg: string; resolve: (line: Record<string, unknown>) => void }> = [];
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    stdout += `${line}\n`;
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
  const exit = new Promise<{ code: number | null; stderr: string; stdout: string }>((resolveExit) =>
    child.on('close', (code) => resolveExit({ code, stderr, stdout })),
  );
  return {
    child,
    logs,
    exit,
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

let dataDir: string;
beforeEach(async () => {
  dataDir = await makeTempDir();
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the CLI', () => {
  it('starts, logs one JSON line per event, serves, and exits 0 on SIGTERM after flushing the store', async () => {
    const cli = runCli(['--port', '0', '--data', dataDir]);
    const started = await cli.waitForLog('started');
    expect(started).toMatchObject({ level: 30, service: 'autograph', store: 'embedded', schema: false, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect(typeof started.time).toBe('string');
    const url = started.url as string;

    expect((await uploadSchema(url, TASKS_SCHEMA)).status).toBe(200);
    await cli.waitForLog('schema activated');

    cli.child.kill('SIGTERM');
    const { code, stdout } = await cli.exit;
    expect(code).toBe(0);
    expect(cli.logs.map((entry) => entry.msg).slice(-2)).toEqual(['shutting down', 'stopped']);
    for (const line of stdout.trim().split('\n')) {
      expect(() => JSON.parse(line)).not.toThrow();
    }

    // The store was flushed: a second start on the same folder (configured through the environment)
    // serves the schema uploaded before, and SIGINT stops it as cleanly.
    const again = runCli([], { PORT: '0', DATA_DIR: dataDir });
    expect(await again.waitForLog('started')).toMatchObject({ schema: true });
    again.child.kill('SIGINT');
    expect((await again.exit).code).toBe(0);
  });

  it('loads --schema at start and exits 0 on SIGINT; --ide=false turns the IDE off', async () => {
    const schemaFile = join(dataDir, 'schema.graphql');
    await writeFile(schemaFile, TASKS_SCHEMA);
    const cli = runCli(['--port=0', `--data=${join(dataDir, 'data')}`, '--schema', schemaFile, '--ide=false']);
    const started = await cli.waitForLog('started');
    expect(started.schema).toBe(true);
    const response = await fetch(`${started.url as string}/admin/schema`);
    expect(await response.text()).toBe(TASKS_SCHEMA);
    expect((await fetch(`${started.url as string}/`, { headers: { accept: 'text/html' } })).status).toBe(404);
    cli.child.kill('SIGINT');
    expect((await cli.exit).code).toBe(0);
  });

  it('starts with --mongo while MongoDB is unreachable: /health/ready answers 503, SIGTERM still exits 0', async () => {
    // Port 1 on loopback: nothing listens there, so every connection attempt is refused.
    const cli = runCli(['--port', '0', '--mongo', 'mongodb://127.0.0.1:1/autograph_test']);
    const started = await cli.waitForLog('started');
    expect(started).toMatchObject({ store: 'mongodb', schema: false });
    const url = started.url as string;
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', schema: false, store: 'mongodb' });
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', schema: false, storeReady: false, store: 'mongodb' });
    cli.child.kill('SIGTERM');
    expect((await cli.exit).code).toBe(0);
    expect(cli.logs.at(-1)?.msg).toBe('stopped');
  });

  it('with --schema and --lambda, still starts while MongoDB is unreachable, answering STORE_UNAVAILABLE until it can store them', async () => {
    const schemaFile = join(dataDir, 'schema.graphql');
    const lambdaFile = join(dataDir, 'lambda.js');
    await writeFile(schemaFile, 'type Query { hello: String @lambda }');
    await writeFile(lambdaFile, `self.addGraphQLResolvers({ 'Query.hello': () => 'hi' });`);
    const port = await closedLoopbackPort();
    const cli = runCli(['--port', '0', '--mongo', `mongodb://127.0.0.1:${port}/autograph_test`, '--schema', schemaFile, '--lambda', lambdaFile]);
    const started = await cli.waitForLog('started');
    expect(started).toMatchObject({ store: 'mongodb', schema: false });
    const url = started.url as string;
    expect((await fetch(`${url}/health/ready`)).status).toBe(503);
    const response = await gql(url, '{ hello }');
    expect(response.status).toBe(503);
    expect(response.body.errors).toEqual([{ message: expect.stringMatching(/^data store unavailable: /), extensions: { code: 'STORE_UNAVAILABLE' } }]);
    cli.child.kill('SIGTERM');
    expect((await cli.exit).code).toBe(0);
    expect(cli.logs.map((entry) => entry.msg)).toContain('the data store does not answer; retrying to bring the schema and lambda script in line with it');
  });

  it('exits 1 with the errors when the --schema file is rejected', async () => {
    const schemaFile = join(dataDir, 'broken.graphql');
    await writeFile(schemaFile, BROKEN_SCHEMA);
    const cli = runCli(['--port', '0', '--data', join(dataDir, 'data'), '--schema', schemaFile]);
    const { code } = await cli.exit;
    expect(code).toBe(1);
    const fatal = cli.logs.find((entry) => entry.msg === 'the schema file was rejected');
    expect(fatal).toMatchObject({ level: 60, schemaFile });
    expect(fatal?.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^4:\d+ /)]));
  });

  it('--persisted-only and the persisted query limits reach the service: only manifest operations run', async () => {
    const schemaFile = join(dataDir, 'schema.graphql');
    await writeFile(schemaFile, TASKS_SCHEMA);
    const cli = runCli(['--port', '0', '--data', join(dataDir, 'data'), '--schema', schemaFile, '--persisted-only', '--persisted-lru-entries', '50', '--persisted-max-registered', '300'], {
      PERSISTED_MAX_QUERY_BYTES: '4096',
      PERSISTED_MAX_REGISTERED_BYTES: '100000',
    });
    try {
      await expectSafelistServed(cli);
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect((await cli.exit).code).toBe(0);
  });

  it('the --max-* flags and their variables reach the service', async () => {
    const schemaFile = join(dataDir, 'schema.graphql');
    await writeFile(schemaFile, TASKS_SCHEMA);
    const cli = runCli(['--port', '0', '--data', join(dataDir, 'data'), '--schema', schemaFile, '--max-depth', '2'], { MAX_COST: '5' });
    try {
      const { url } = (await cli.waitForLog('started')) as { url: string };
      const refusalOf = async (query: string) => {
        const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        const body = (await response.json()) as { errors?: Array<{ message: string }> };
        return [response.status, body.errors?.map((error) => error.message)];
      };
      expect(await refusalOf('{ queryTask(first: 5) { title } }')).toEqual([200, undefined]);
      expect(await refusalOf('{ queryTask(first: 6) { title } }')).toEqual([400, [
        'the estimated cost of the anonymous query is 6 objects, over the limit 5 (a list counts its first argument, 1000 without it, and multiplies what it selects: pass smaller first values); raise it with --max-cost or MAX_COST',
      ]]);
      expect(await refusalOf('{ queryTask(first: 1) { user { username } } }')).toEqual([400, [
        'the depth of the anonymous query is 3, over the limit 2; raise it with --max-depth or MAX_DEPTH',
      ]]);
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect((await cli.exit).code).toBe(0);
  });

  async function expectSafelistServed(cli: Cli): Promise<void> {
    const started = await cli.waitForLog('started');
    expect(started.persistedQueries).toEqual({
      persistedOnly: true, lruMaxEntries: 50, lruMaxBytes: 32 * 1024 * 1024, maxQueryBytes: 4096, maxRegisteredQueries: 300, maxRegisteredBytes: 100000,
    });
    const url = started.url as string;
    const query = 'query Titles { queryTask { title } }';
    const post = (body: unknown) =>
      fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const refused = await post({ query });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');

    const hash = createHash('sha256').update(query).digest('hex');
    const manifest = { format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: hash, name: 'Titles', type: 'query', body: query }] };
    const upload = await fetch(`${url}/admin/persisted-queries`, { method: 'POST', body: JSON.stringify(manifest) });
    expect(upload.status).toBe(200);
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });
    const byHash = await fetch(`${url}/graphql?${new URLSearchParams({ extensions })}`, { headers: { 'content-type': 'application/json' } });
    expect(await byHash.json()).toEqual({ data: { queryTask: [] } });
  }

  it('--introspection (off under NODE_ENV=production), IDE, --cors-origins and --max-body-bytes reach the service', async () => {
    const schemaFile = join(dataDir, 'schema.graphql');
    await writeFile(schemaFile, TASKS_SCHEMA);
    const cli = runCli(['--port', '0', '--data', join(dataDir, 'data'), '--schema', schemaFile, '--max-body-bytes', '1024'], {
      NODE_ENV: 'production',
      CORS_ORIGINS: 'https://app.example.com',
      IDE: 'true',
    });
    try {
      const { url } = (await cli.waitForLog('started')) as { url: string };
      const ide = await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await ide.text()).toContain('<title>Autograph GraphQL IDE</title>');
      expect((await fetch(`${url}/ui/vendor/graphiql.min.js`)).status).toBe(200);
      const introspection = await gql(url, '{ __schema { queryType { name } } }');
      expect(introspection.status).toBe(400);
      expect(introspection.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

      const preflight = await fetch(`${url}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');

      const tooLarge = await gql(url, `{ queryTask { title } } # ${'x'.repeat(2048)}`);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toEqual({
        errors: [{ message: "request body is larger than the limit of 1024 bytes (the service's --max-body-bytes)", extensions: { code: 'PAYLOAD_TOO_LARGE' } }],
      });
    } finally {
      cli.child.kill('SIGTERM');
    }
    expect((await cli.exit).code).toBe(0);
  });

  it('exits 1 with a one-line hint, not a stack trace, when the data folder is locked or the port is taken', async () => {
    const first = runCli(['--port', '0', '--data', dataDir]);
    try {
      const { port } = (await first.waitForLog('started')) as { port: number };

      const locked = runCli(['--port', '0', '--data', dataDir]);
      const lockedExit = await locked.exit;
      expect(lockedExit.code).toBe(1);
      expect(lockedExit.stderr).toBe(
        `autograph: the data folder ${dataDir} is in use by process ${first.child.pid} (another autograph?): stop that process, or give this one another folder with --data (DATA_DIR)\n`,
      );
      expect(lockedExit.stdout).not.toMatch(/\n\s+at /);

      const busy = runCli(['--port', String(port), '--data', join(dataDir, 'other')]);
      const busyExit = await busy.exit;
      expect(busyExit.code).toBe(1);
      expect(busyExit.stderr).toBe(
        `autograph: port ${port} on 127.0.0.1 is already in use: stop the program listening there, or choose another port with --port (PORT)\n`,
      );
      expect(busy.logs.at(-1)).toMatchObject({ level: 60, msg: 'cannot listen', hint: expect.stringMatching(/^port \d+ on 127\.0\.0\.1 is already in use/) });
      expect(busyExit.stdout).not.toMatch(/\n\s+at /);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect((await first.exit).code).toBe(0);
  });

  it('exits 2 with a clear message on an unknown flag or a bad value', async () => {
    const unknown = await runCli(['--prot', '80']).exit;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('autograph: unknown option --prot (see --help)\n');

    const badEnv = await runCli([], { PORT: 'http' }).exit;
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toBe('autograph: PORT: expected a port number from 0 to 65535, got "http"\n');

    const missingFile = await runCli(['--schema', join(dataDir, 'nope.graphql')]).exit;
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toMatch(/^autograph: cannot read the schema file .*nope\.graphql: ENOENT/);
  });

  it('prints the help and exits 0', async () => {
    const { code, stdout } = await runCli(['--help']).exit;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: autograph \[options\]/);
    expect(stdout).toMatch(/--admin-token TOKEN/);
    expect(stdout).toMatch(/^  --ide +the GraphQL IDE \(GraphiQL, served offline\) at \/ and for a browser opening \/graphql \(default: off when NODE_ENV=production, on otherwise\) \[IDE\]$/m);
  });
});
