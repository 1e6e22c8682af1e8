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

/**
 * By design on a standalone (README, Deployment): no multi-document transactions. A mutation decides its
 * rules and finds its duplicates before it writes (the staged store), so most failures leave nothing; what
 * still cannot be undone is a write that fails midway (a deadline passed between two writes).
 */
const NO_TRANSACTIONS = 'all-or-nothing needs transactions; a standalone server has none';
const LEFT_BY_FAILED_MUTATION = 'all-or-nothing, knock-on: counts the object an earlier failed mutation in this file left written';

export const EXPECTED_WIRE_FAILURES: readonly ExpectedFailure[] = [
  // __tests__/limits/budget-http.test.ts
  { file: '__tests__/limits/budget-http.test.ts', test: 'request time limit rolls back a mutation whose second write comes after its deadline, leaving nothing written', reason: NO_TRANSACTIONS },
  { file: '__tests__/limits/budget-http.test.ts', test: 'object cap answers a request whose answer holds exactly the cap', reason: LEFT_BY_FAILED_MUTATION },
  // __tests__/mongo/mongo-store.test.ts: the store's own transactions, called directly
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb transactions rolls back inserts, updates and deletes in every collection when the work throws', reason: NO_TRANSACTIONS },
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb transactions rolls back when a write inside the transaction fails', reason: NO_TRANSACTIONS },
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb change feed says nothing of a rolled-back transaction or of a write that changed nothing', reason: NO_TRANSACTIONS },
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb deadlines rolls back the whole transaction when one of its writes is past its deadline', reason: NO_TRANSACTIONS },
];

export function expectedFailure(file: string, test: string): ExpectedFailure | undefined {
  return EXPECTED_WIRE_FAILURES.find((entry) => entry.file === file && entry.test === test);
}
