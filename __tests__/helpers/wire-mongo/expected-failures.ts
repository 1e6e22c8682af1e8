/**
 * Tests known to fail over the wire test server (a standalone: no transactions), one entry per test with
 * the reason. The wire project's environment (./environment.ts) turns a listed test's failure into a pass
 * and its pass into a failure, so an entry must be removed as soon as the behaviour is fixed.
 *
 * `file` is relative to the repository root; `test` is the full name (describe blocks and test, joined by spaces).
 */
export interface ExpectedFailure {
  file: string;
  test: string;
  reason: string;
}

export const EXPECTED_WIRE_FAILURES: readonly ExpectedFailure[] = [];

export function expectedFailure(file: string, test: string): ExpectedFailure | undefined {
  return EXPECTED_WIRE_FAILURES.find((entry) => entry.file === file && entry.test === test);
}
