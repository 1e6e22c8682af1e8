/**
 * The test files the `mongodb-wire` jest project runs: the MongoDB store contract suite and every suite
 * that starts the service on the run's test backend (`startTestServer(`, another `start…TestServer(`
 * helper, or `createTestBackend(`, in the file or in a module beside it that it imports, such as a
 * harness). Benchmarks stay out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const USES_TEST_BACKEND = /\b(start\w*TestServer|createTestBackend)\(/;
const LOCAL_IMPORT = /from '\.\/([\w.-]+?)(?:\.js)?'/g;
const LEFT_OUT = new Set(['bench']);

export const CONTRACT_SUITE = '__tests__/mongo/mongo-store.test.ts';

/** Paths relative to `rootDir`, with forward slashes. */
export function wireSuites(rootDir: string): string[] {
  const testsDir = join(rootDir, '__tests__');
  const files = testFiles(testsDir).filter((file) => !LEFT_OUT.has(relative(testsDir, file).split(/[\\/]/)[0]!));
  const suites = files.filter((file) => usesTestBackend(file)).map((file) => relative(rootDir, file).split('\\').join('/'));
  return [CONTRACT_SUITE, ...suites.filter((suite) => suite !== CONTRACT_SUITE)].sort();
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function usesTestBackend(file: string): boolean {
  const source = readFileSync(file, 'utf8');
  if (USES_TEST_BACKEND.test(source)) return true;
  for (const [, name] of source.matchAll(LOCAL_IMPORT)) {
    try {
      if (USES_TEST_BACKEND.test(readFileSync(join(dirname(file), `${name}.ts`), 'utf8'))) return true;
    } catch {
      // not a TypeScript module beside the file (a JSON fixture, say)
    }
  }
  return false;
}
