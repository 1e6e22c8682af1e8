/**
 * The in-process tests of src/resolve/mutations, one concern per `*.cases.ts` module, run from this one
 * file so that a run loads the source modules once. Mutation testing (stryker.config.mjs) runs the tests
 * covering each mutant, loading every test file that holds one: one file instead of eight makes each mutant
 * several times cheaper. A module's store hooks sit in its own describe block, so they run only when one
 * of its tests does.
 */
import './input-rules.cases';
import './duplicates.cases';
import './references.cases';
import './add.cases';
import './update-delete.cases';
import './identities.cases';
import './auth-guard.cases';
import './store-calls.cases';
import './reference-guard.cases';
import './interface-ids.cases';
import './objects.cases';
import './verdicts-before.cases';
import './transaction-scope.cases';
import './edges.cases';
