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

/** Issue 19 item 1: add/update rules are checked after the writes, and a standalone cannot roll them back (wt-mongofix). */
const AUTH_AFTER_WRITES = 'issue 19 item 1: a refused mutation stays written on a server without transactions';
/** A later test of the same file sees objects an earlier refused mutation left behind (item 1). */
const LEFT_BY_REFUSED_ADD = 'issue 19 item 1, knock-on: sees the objects an earlier refused add in this file left written';
const LEFT_BY_REFUSED_UPDATE = 'issue 19 item 1, knock-on: sees the edges an earlier refused update in this file left written';
/** By design on a standalone (README): no multi-document transactions, so a failed mutation keeps its earlier writes. */
const NO_TRANSACTIONS = 'all-or-nothing needs transactions; a standalone server has none';
const LEFT_BY_FAILED_MUTATION = 'all-or-nothing, knock-on: counts the object an earlier failed mutation in this file left written';
/** Issue 19 item 3: the driver's bulk-write error drops keyValue/keyPattern, so the adapter names the index, not the field (wt-mongofix). */
const DUPLICATE_KEY_DETAILS = 'issue 19 item 3: DuplicateKeyError names the index and a printed key instead of the field and value';

export const EXPECTED_WIRE_FAILURES: readonly ExpectedFailure[] = [
  // __tests__/auth/http-rules.test.ts
  { file: '__tests__/auth/http-rules.test.ts', test: 'mutation rules add: an object the rule refuses is not written', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'mutation rules add: a multi-object add with one refused object writes nothing', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'mutation rules add: an anonymous caller cannot add under the owner rule', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'mutation rules add: nested objects are checked against their own type\'s add rule', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'mutation rules update: only the objects the rule allows are touched, and the payload shows them', reason: LEFT_BY_REFUSED_ADD },
  { file: '__tests__/auth/http-rules.test.ts', test: 'mutation rules delete: only the objects the rule allows are deleted; the ADMIN role may delete any', reason: LEFT_BY_REFUSED_ADD },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input updateUser cannot link another user\'s task to oneself: refused, nothing written', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input a referenced object that is visible but not updatable (Card: update rule only) updateBoard set: refused with FORBIDDEN naming the update rule, nothing written', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input a referenced object that is visible but not updatable (Card: update rule only) addBoard: refused with FORBIDDEN naming the update rule, nothing written', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input a referenced object that is visible but not updatable (Card: update rule only) updateBoard remove: refused with FORBIDDEN naming the update rule, nothing written', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input a referenced object that is visible but not updatable (Card: update rule only) removing a card that is not linked changes nothing and is not refused', reason: LEFT_BY_REFUSED_UPDATE },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input one-to-one edges: linking takes the target from its previous holder, whose update rule must allow it a free locker may be linked to one\'s own badge, but not pushed onto someone else\'s', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input a field that is its own inverse writes both ends, so both owners\' update rules apply (Pal.friends) updatePal set befriending bob\'s pal is refused: it would write bob-1 too; nothing written', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input a field that is its own inverse writes both ends, so both owners\' update rules apply (Pal.friends) addPal befriending bob\'s pal is refused: it would write bob-1 too; nothing written', reason: AUTH_AFTER_WRITES },
  { file: '__tests__/auth/http-rules.test.ts', test: 'existing objects named in a mutation\'s input a field that is its own inverse writes both ends, so both owners\' update rules apply (Pal.friends) befriending one\'s own pals is allowed and shows from both ends', reason: LEFT_BY_REFUSED_UPDATE },
  // __tests__/auth/closed-by-default.test.ts
  { file: '__tests__/auth/closed-by-default.test.ts', test: 'an HS256 token opens it; the header is the standard Authorization header with Bearer', reason: LEFT_BY_REFUSED_ADD },
  // __tests__/api-e2e/mutations.test.ts
  { file: '__tests__/api-e2e/mutations.test.ts', test: 'all or nothing a second input duplicating an @id the first created leaves nothing behind, nested objects included', reason: NO_TRANSACTIONS },
  { file: '__tests__/api-e2e/mutations.test.ts', test: 'all or nothing a later input duplicating an existing object undoes the earlier inputs and their edges', reason: NO_TRANSACTIONS },
  { file: '__tests__/api-e2e/mutations.test.ts', test: 'all or nothing an input failing after earlier inputs changed existing objects restores them', reason: NO_TRANSACTIONS },
  { file: '__tests__/api-e2e/mutations.test.ts', test: 'all or nothing a reference to a missing id fails the whole update', reason: NO_TRANSACTIONS },
  // __tests__/api-e2e/symmetric-relations.test.ts
  { file: '__tests__/api-e2e/symmetric-relations.test.ts', test: 'a list field that is its own inverse a failed mutation leaves neither direction behind', reason: NO_TRANSACTIONS },
  // __tests__/limits/budget-http.test.ts
  { file: '__tests__/limits/budget-http.test.ts', test: 'request time limit rolls back a mutation whose second write comes after its deadline, leaving nothing written', reason: NO_TRANSACTIONS },
  { file: '__tests__/limits/budget-http.test.ts', test: 'object cap answers a request whose answer holds exactly the cap', reason: LEFT_BY_FAILED_MUTATION },
  // __tests__/mongo/mongo-store.test.ts
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb unique keys and indexes rejects a duplicate _id and writes nothing of the batch', reason: DUPLICATE_KEY_DETAILS },
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb unique keys and indexes enforces a unique sparse index on insert and update, all or nothing', reason: DUPLICATE_KEY_DETAILS },
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb transactions rolls back inserts, updates and deletes in every collection when the work throws', reason: NO_TRANSACTIONS },
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb transactions rolls back when a write inside the transaction fails', reason: NO_TRANSACTIONS },
  { file: '__tests__/mongo/mongo-store.test.ts', test: 'Store contract: mongodb deadlines rolls back the whole transaction when one of its writes is past its deadline', reason: NO_TRANSACTIONS },
];

export function expectedFailure(file: string, test: string): ExpectedFailure | undefined {
  return EXPECTED_WIRE_FAILURES.find((entry) => entry.file === file && entry.test === test);
}
