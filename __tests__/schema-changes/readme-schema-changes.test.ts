/**
 * The README's "Schema changes" walkthrough, run as written on the quick start's schema and data: the `sed`
 * rename, the dry run's answer and the `schema diff` output it shows (`...` stands for lines left out, the
 * example object's id differs from run to run).
 */
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/main';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { postSchema } from './admin-http';

const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');

function section(title: string): string {
  const start = README.indexOf(`## ${title}\n`);
  if (start < 0) throw new Error(`README: no section "${title}"`);
  return README.slice(start, README.indexOf('\n## ', start + 1));
}

function quickStart(): { schema: string; requests: string[] } {
  const text = section('Quick start');
  const schema = /cat > schema\.graphql <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(text)?.[1];
  if (schema === undefined) throw new Error('README quick start: no schema heredoc found');
  const requests = [...text.matchAll(/--data-binary @- <<'EOF'\n([\s\S]*?)\nEOF\n/g)].map((match) => match[1]!);
  return { schema: `${schema}\n`, requests };
}

const walkthrough = section('Schema changes');

/** The `sed 's/from/to/'` of the walkthrough, applied as sed would (first match per line). */
function renamed(schema: string): string {
  const [, from, to] = /sed 's\/([^/]+)\/([^/]+)\/' schema\.graphql > renamed\.graphql/.exec(walkthrough) ?? [];
  if (from === undefined || to === undefined) throw new Error('README: no sed rename in Schema changes');
  return schema.split('\n').map((line) => line.replace(from, to)).join('\n');
}

/** The `# ...` output lines shown after `npx autograph --url "$URL" schema diff renamed.graphql`. */
function shownDiffOutput(): string[] {
  const block = /\nURL=\$\{URL:-http:\/\/127\.0\.0\.1:8080\}\nnpx autograph --url "\$URL" schema diff renamed\.graphql\n((?:# .*\n)+)echo \$\?\s+# (\d)/.exec(walkthrough);
  if (!block) throw new Error('README: no schema diff example in Schema changes');
  return [...block[1]!.trimEnd().split('\n').map((line) => line.slice(2)), `exit ${block[2]}`];
}

/** Whether `actual` lines are `shown`, where a shown `...` line stands for any lines and ids are any ids. */
function matchesShown(actual: string[], shown: string[]): boolean {
  const anyId = (line: string) => line.replace(/"[0-9a-f]{24}"/g, '"<id>"');
  const pattern = shown.map((line) => (line.trim() === '...' ? '(?:.*\\n)*?' : `${escape(anyId(line))}\\n`)).join('');
  return new RegExp(`^${pattern}$`).test(actual.map((line) => `${anyId(line)}\n`).join(''));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

let server: TestServer;
let dir: string;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the walkthrough answers what the README shows', async () => {
  server = await startTestServer();
  dir = await makeTempDir('autograph-readme-changes-');
  const { schema, requests } = quickStart();
  expect((await postSchema(server.url, schema)).status).toBe(200);
  for (const body of requests) {
    await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  }
  const next = renamed(schema);
  expect(next).not.toBe(schema);
  await writeFile(join(dir, 'renamed.graphql'), next);

  const dry = await postSchema(server.url, next, '?dryRun=true');
  expect(dry.body.data).toEqual(expect.objectContaining({ message: 'dry run: nothing was activated', wouldActivate: false }));
  expect(dry.body.data.report).toEqual(
    expect.objectContaining({
      types: { added: [], removed: [] },
      fields: { added: [{ type: 'Task', field: 'name', typeText: 'String!' }], removed: [{ type: 'Task', field: 'title', typeText: 'String!' }], retyped: [] },
      breaksClients: true,
      needsForce: true,
    }),
  );

  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await runCli(['--url', server.url, 'schema', 'diff', 'renamed.graphql'], { env: {}, cwd: dir, stdout, stderr });
  const printed = `${String(stdout.read() ?? '')}${String(stderr.read() ?? '')}`.trimEnd().split('\n');
  expect({ matches: matchesShown([...printed, `exit ${code}`], shownDiffOutput()), printed }).toEqual({ matches: true, printed });
});

test('the match of shown lines fails on a changed line', () => {
  expect(matchesShown(['a', 'b', 'c'], ['a', '...', 'c'])).toBe(true);
  expect(matchesShown(['a', 'x', 'c'], ['a', 'b', 'c'])).toBe(false);
  expect(matchesShown(['a "0123456789abcdef01234567"'], ['a "6b04efc4cfc302adde3f1838"'])).toBe(true);
});
