/**
 * The jest wire project's choice of suites, and the list of expected failures: every entry must name a
 * suite the project runs and a test that suite defines, so a renamed or deleted test cannot leave a stale entry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPECTED_WIRE_FAILURES } from '../helpers/wire-mongo/expected-failures';
import { CONTRACT_SUITE, wireSuites } from '../helpers/wire-mongo/suites';

const ROOT = join(__dirname, '..', '..');
const suites = wireSuites(ROOT);

test.each([
  [CONTRACT_SUITE, true],
  ['__tests__/e2e/core-task-user.test.ts', true],
  ['__tests__/auth/http-rules.test.ts', true],
  // Through its harness: api-e2e/harness.ts starts the service.
  ['__tests__/api-e2e/filters.test.ts', true],
  ['__tests__/persisted/service.test.ts', true],
  // Pure translation and unit tests never start the service.
  ['__tests__/query/filter.test.ts', false],
  ['__tests__/wire-mongo/cursors.test.ts', false],
  // Benchmarks stay out.
  ['__tests__/bench/in-memory-baseline.test.ts', false],
])('%s runs over the wire: %s', (suite, included) => {
  expect(suites.includes(suite)).toBe(included);
});

describe.each(EXPECTED_WIRE_FAILURES.map((entry) => [`${entry.file} › ${entry.test}`, entry] as const))('expected failure %s', (_name, entry) => {
  test('names a suite of the wire project, a test title it defines, and a reason', () => {
    expect(suites).toContain(entry.file);
    // The contract suite's tests are written in store/contract.ts; titles may escape their quotes.
    const files = entry.file === CONTRACT_SUITE ? [entry.file, '__tests__/store/contract.ts'] : [entry.file];
    const source = files.map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n').replace(/\\'/g, "'");
    const title = entry.test.split(' ').slice(-3).join(' ');
    expect(source).toContain(title);
    expect(entry.reason.length).toBeGreaterThan(10);
  });
});

test('no test is listed twice', () => {
  const keys = EXPECTED_WIRE_FAILURES.map((entry) => `${entry.file} ${entry.test}`);
  expect(new Set(keys).size).toBe(keys.length);
});
