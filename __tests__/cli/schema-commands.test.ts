/**
 * The CLI's schema and lambda commands, run in-process (`runCli`) against a real started service: what
 * they print and the exit codes a CI pipeline reads (0 done, 1 refused or breaking, 2 bad command line,
 * 3 service unreachable or failing).
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { EXIT } from '../../src/cli/command';
import { runCli } from '../../src/cli/main';
import { gqlData } from '../helpers/gql';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

const V1 = 'type Task {\n  id: ID!\n  label: String!\n}\n';
const V2 = 'type Task {\n  id: ID!\n  label: String!\n  done: Boolean\n}\n';
const RENAMED = 'type Task {\n  id: ID!\n  title: String!\n}\n';
const ADMIN_TOKEN = 'cli-test-token';

let server: TestServer;
let dir: string;

beforeEach(async () => {
  server = await startTestServer({ adminToken: ADMIN_TOKEN });
  dir = await makeTempDir('autograph-cli-');
  await writeFile(join(dir, 'v1.graphql'), V1);
  await writeFile(join(dir, 'v2.graphql'), V2);
  await writeFile(join(dir, 'renamed.graphql'), RENAMED);
  await writeFile(join(dir, 'broken.graphql'), 'type Task {\n  id: ID!\n  label: Strin\n}\n');
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI against the test server with the admin token; answers the exit code and both outputs. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await runCli(['--url', server.url, ...argv], { env: { ADMIN_TOKEN }, cwd: dir, stdout, stderr });
  return { code, out: String(stdout.read() ?? ''), err: String(stderr.read() ?? '') };
}

async function served(): Promise<string> {
  return (await fetch(`${server.url}/admin/schema`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
}

describe('schema push', () => {
  it('activates a schema and prints the report and the revision', async () => {
    const first = await cli('schema', 'push', 'v1.graphql');
    expect(first.code).toBe(EXIT.ok);
    expect(first.out).toContain('types added: Task\n');
    expect(first.out).toMatch(/schema activated as revision 1\n$/);
    const second = await cli('schema', 'push', 'v2.graphql');
    expect(second).toEqual({ code: EXIT.ok, err: '', out: expect.stringContaining('fields added: Task.done: Boolean\n') });
    expect(await served()).toBe(V2);
  });

  it('exits 1 with every schema error at its line and column', async () => {
    const { code, err } = await cli('schema', 'push', 'broken.graphql');
    expect(code).toBe(EXIT.refused);
    expect(err).toMatch(/^error: 3:10 .*Strin.* \[BAD_SCHEMA\]\n$/);
  });

  it('exits 1 for a change that makes stored data unreadable, and 0 with --force', async () => {
    await cli('schema', 'push', 'v1.graphql');
    await gqlData(server.url, 'mutation { addTask(input: [{ label: "a" }]) { numUids } }');
    const refused = await cli('schema', 'push', 'renamed.graphql');
    expect(refused.code).toBe(EXIT.refused);
    expect(refused.out).toContain('stored data:\n  needs --force: Task.label (String!) is removed');
    expect(refused.err.split('\n').filter((line) => line.endsWith('[SCHEMA_BREAKS_STORED_DATA]'))).toHaveLength(2);
    expect(await served()).toBe(V1);

    const dry = await cli('schema', 'push', 'renamed.graphql', '--dry-run');
    expect(dry.code).toBe(EXIT.refused);
    expect(dry.out).toMatch(/dry run: nothing was activated; the upload would be refused without --force\n$/);

    const forced = await cli('schema', 'push', 'renamed.graphql', '--force');
    expect(forced.code).toBe(EXIT.ok);
    expect(await served()).toBe(RENAMED);
  });

  it('exits 2 for a missing file or an unknown option, and 3 when the service cannot be reached', async () => {
    const missing = await cli('schema', 'push', 'nope.graphql');
    expect(missing).toEqual({ code: EXIT.usage, out: '', err: 'autograph schema push: cannot read nope.graphql: ENOENT\nusage: autograph schema push <file> [--force] [--dry-run]\n' });
    expect((await cli('schema', 'push', 'v1.graphql', '--yes')).code).toBe(EXIT.usage);
    expect((await cli('schema', 'push')).code).toBe(EXIT.usage);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const code = await runCli(['--url', 'http://127.0.0.1:9', 'schema', 'push', 'v1.graphql'], { env: {}, cwd: dir, stdout, stderr });
    expect(code).toBe(EXIT.unavailable);
  });

  it('exits 1 without the admin token', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const code = await runCli(['--url', server.url, 'schema', 'push', 'v1.graphql'], { env: { ADMIN_TOKEN: 'wrong' }, cwd: dir, stdout, stderr });
    expect(code).toBe(EXIT.refused);
    expect(String(stderr.read())).toMatch(/^autograph: the service answered 401 UNAUTHENTICATED: /);
  });
});

describe('schema diff', () => {
  beforeEach(async () => {
    expect((await cli('schema', 'push', 'v2.graphql')).code).toBe(EXIT.ok);
  });

  it('exits 0 for a change that breaks no client, and activates nothing', async () => {
    await writeFile(join(dir, 'v3.graphql'), `${V2}type Note {\n  id: ID!\n}\n`);
    const { code, out } = await cli('schema', 'diff', 'v3.graphql');
    expect(code).toBe(EXIT.ok);
    expect(out).toContain('types added: Note\n');
    expect(await served()).toBe(V2);
  });

  it('exits 1 for a breaking change, naming it', async () => {
    const { code, out, err } = await cli('schema', 'diff', 'v1.graphql');
    expect(code).toBe(EXIT.refused);
    expect(out).toContain('breaking for existing clients:\n  FIELD_REMOVED: Task.done was removed.\n');
    expect(err).toBe('the schema breaks existing clients\n');
    expect(await served()).toBe(V2);
  });

  it('exits 0 and prints "no changes" for the served schema', async () => {
    expect(await cli('schema', 'diff', 'v2.graphql')).toEqual({ code: EXIT.ok, out: 'no changes\n', err: '' });
  });
});

describe('schema history and rollback', () => {
  it('lists the revisions with the active one marked, and rolls back to one', async () => {
    await cli('schema', 'push', 'v1.graphql');
    await cli('schema', 'push', 'v2.graphql');
    const history = await cli('schema', 'history');
    expect(history.code).toBe(EXIT.ok);
    const lines = history.out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^\* {8}2 {2}\d{4}-\d\d-\d\dT[\d:.]+Z {2}[0-9a-f]{12}$/);
    expect(lines[2]).toMatch(/^ {9}1 /);

    const rolled = await cli('schema', 'rollback', '1');
    expect(rolled.code).toBe(EXIT.ok);
    expect(rolled.out).toMatch(/schema revision 1 activated again as revision 3\n$/);
    expect(await served()).toBe(V1);
    const after = (await cli('schema', 'history', '--limit', '1')).out.trimEnd().split('\n');
    expect(after).toHaveLength(2);
    expect(after[1]).toMatch(/^\* {8}3 .* rollback to 1$/);
  });

  it('exits 1 for an unknown revision and 2 for one that is not a number', async () => {
    await cli('schema', 'push', 'v1.graphql');
    const unknown = await cli('schema', 'rollback', '7');
    expect(unknown).toEqual({ code: EXIT.refused, out: '', err: 'autograph: the service answered 404 NOT_FOUND: there is no schema revision 7: GET /admin/schema/history lists them\n' });
    expect((await cli('schema', 'rollback', 'latest')).code).toBe(EXIT.usage);
  });

  it('says so when there is no revision yet', async () => {
    expect(await cli('schema', 'history')).toEqual({ code: EXIT.ok, out: 'no schema revisions yet\n', err: '' });
  });
});

describe('lambda push', () => {
  it('loads a script and prints its resolvers; exits 1 for a script that does not load', async () => {
    await writeFile(join(dir, 'hello.js'), `self.addGraphQLResolvers({ 'Query.hello': () => 'hi' });`);
    await writeFile(join(dir, 'broken.js'), 'this is not javascript (');
    expect(await cli('lambda', 'push', 'hello.js')).toEqual({ code: EXIT.ok, out: 'lambda script loaded (resolvers: Query.hello)\n', err: '' });
    const broken = await cli('lambda', 'push', 'broken.js');
    expect(broken.code).toBe(EXIT.refused);
    expect(broken.err).toMatch(/\[BAD_LAMBDA_SCRIPT\]\n$/);
  });
});
