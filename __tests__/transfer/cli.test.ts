import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { EXIT } from '../../src/cli/command';
import { runCli } from '../../src/cli/main';
import { gqlData } from '../helpers/gql';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { EVERYTHING, exportLines, seed } from './fixture';

/** Issue 18: `autograph export`, `import` and `backup` in-process against real servers, with their exit codes. */

const TOKEN = 'cli-secret';

function cli(url: string, cwd: string, token: string | undefined = TOKEN) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const collected = { out: '', err: '' };
  stdout.on('data', (chunk: Buffer) => (collected.out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (collected.err += chunk.toString()));
  const env: NodeJS.ProcessEnv = token === undefined ? {} : { ADMIN_TOKEN: token };
  return {
    run: (...args: string[]) => runCli(['--url', url, ...args], { env, cwd, stdout, stderr }),
    collected,
  };
}

let source: TestServer;
let work: string;

beforeAll(async () => {
  source = await startTestServer({ adminToken: TOKEN });
  await seed(source.url, TOKEN);
  work = await makeTempDir('autograph-cli-');
});

afterAll(async () => {
  await source.close();
  await rm(work, { recursive: true, force: true });
});

test('export writes the file, import loads it into a fresh service (exit 0 both), which then serves the same data', async () => {
  const exporter = cli(source.url, work);
  await expect(exporter.run('export', 'data.ndjson')).resolves.toBe(EXIT.ok);
  expect(exporter.collected.err).toBe(`exported to ${join(work, 'data.ndjson')}\n`);
  expect(await readdir(work)).toEqual(['data.ndjson']);
  const lines = exportLines(await readFile(join(work, 'data.ndjson'), 'utf8'));
  expect(lines[lines.length - 1]).toEqual({ end: 'autograph-export', documents: { Person: 2, Task: 3, _autograph_schema: 1 } });

  const target = await startTestServer({ adminToken: TOKEN });
  try {
    const importer = cli(target.url, work);
    await expect(importer.run('import', 'data.ndjson')).resolves.toBe(EXIT.ok);
    expect(importer.collected.out).toBe('imported 6 documents (Person 2, Task 3, _autograph_schema 1); schema activated, lambda script activated\n');
    expect(await gqlData(target.url, EVERYTHING)).toEqual(await gqlData(source.url, EVERYTHING));

    const again = cli(target.url, work);
    await expect(again.run('import', 'data.ndjson')).resolves.toBe(EXIT.refused);
    expect(again.collected.err).toBe(
      'autograph: the service answered 409 STORE_NOT_EMPTY: the store is not empty: Person (2), Task (3) hold documents; import only into a fresh store (a new --data folder or an empty MongoDB database)\n',
    );
  } finally {
    await target.close();
  }
});

test('export without a file writes the stream to stdout', async () => {
  const exporter = cli(source.url, work);
  await expect(exporter.run('export')).resolves.toBe(EXIT.ok);
  expect(exportLines(exporter.collected.out)[0]).toMatchObject({ format: 'autograph-export', version: 1 });
});

test('a file with a bad line exits 1 with the line; a wrong token exits 1; a missing file or bad arguments exit 2', async () => {
  await writeFile(join(work, 'bad.ndjson'), '{"format":"autograph-export","version":1,"schema":null,"lambda":null}\n{"_id":"x"}\n');
  const target = await startTestServer({ adminToken: TOKEN });
  try {
    const bad = cli(target.url, work);
    await expect(bad.run('import', 'bad.ndjson')).resolves.toBe(EXIT.refused);
    expect(bad.collected.err).toBe(
      'autograph: the service answered 400 BAD_IMPORT_FILE: line 2: is a document before any {"collection": …} line; nothing was imported\n',
    );
    const wrongToken = cli(target.url, work, 'nope');
    await expect(wrongToken.run('export', 'x.ndjson')).resolves.toBe(EXIT.refused);
    expect(wrongToken.collected.err).toBe('autograph: the service answered 401 UNAUTHENTICATED: the admin token is not valid\n');
  } finally {
    await target.close();
  }
  const usage = cli(source.url, work);
  await expect(usage.run('import')).resolves.toBe(EXIT.usage);
  await expect(usage.run('import', 'missing.ndjson')).resolves.toBe(EXIT.usage);
  await expect(usage.run('backup', 'relative/folder')).resolves.toBe(EXIT.usage);
  expect(usage.collected.err).toBe(
    'autograph import: expected one export file, got 0 arguments\nusage: autograph import <file>\n' +
      `autograph import: cannot read ${join(work, 'missing.ndjson')}: ENOENT: no such file or directory, stat '${join(work, 'missing.ndjson')}'\nusage: autograph import <file>\n` +
      'autograph backup: the folder must be an absolute path on the service\'s machine, got "relative/folder"\nusage: autograph backup <absolute folder>\n',
  );
});

test('an unreachable service exits 3', async () => {
  const unreachable = cli('http://127.0.0.1:9', work);
  await expect(unreachable.run('export', 'never.ndjson')).resolves.toBe(EXIT.unavailable);
  expect(unreachable.collected.err).toMatch(/^autograph: cannot reach the service at http:\/\/127\.0\.0\.1:9/);
});

test('an export the service cuts short exits 3 and leaves no file', async () => {
  const cutShort = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write('{"format":"autograph-export","version":1}\n{"collection":"Task"}\n');
    setTimeout(() => res.destroy(), 20);
  });
  await new Promise<void>((resolve) => cutShort.listen(0, '127.0.0.1', resolve));
  try {
    const exporter = cli(`http://127.0.0.1:${(cutShort.address() as AddressInfo).port}`, work);
    await expect(exporter.run('export', 'short.ndjson')).resolves.toBe(EXIT.unavailable);
    expect(exporter.collected.err).toMatch(/^autograph export: (the export stream broke off: |the service cut the export short)/);
    expect(await readdir(work)).not.toContain('short.ndjson');
    expect(await readdir(work)).not.toContain('short.ndjson.partial');
  } finally {
    cutShort.close();
  }
});

test('backup writes a folder a service starts from', async () => {
  const dataDir = await makeTempDir();
  const server = await startTestServer({ dataDir, adminToken: TOKEN });
  try {
    const folder = join(work, 'backup-1');
    const backup = cli(server.url, work);
    await expect(backup.run('backup', folder)).resolves.toBe(EXIT.ok);
    expect(backup.collected.out).toMatch(new RegExp(`^backed up 0 documents \\(\\d+ bytes\\) to ${folder}; start a service on it with --data ${folder}\\n$`));
    const again = cli(server.url, work);
    await expect(again.run('backup', folder)).resolves.toBe(EXIT.refused);
    expect(again.collected.err).toBe(`autograph: the service answered 400 BAD_USER_INPUT: the backup folder ${folder} is not empty (it holds 1 entries); name a new or empty folder\n`);
    const restored = await startTestServer({ dataDir: folder });
    await restored.close();
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
