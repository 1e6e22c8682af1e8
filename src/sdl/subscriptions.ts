import type { FieldModel } from './model.js';

/**
 * Dgraph's rule for `@withSubscription` on a field: only a Query field, and only one whose data Autograph
 * can watch. Dgraph asks for `@custom(dql:)`; here that is `@lambda`, re-run when any stored type changes.
 * An `@custom(http:)` query reads a remote service whose changes no store feed reports.
 */
export function subscribedOperationProblem(root: 'Query' | 'Mutation', field: FieldModel): string | undefined {
  if (root === 'Mutation') return '@withSubscription applies to types and to @lambda Query fields, not to mutations';
  if (!field.lambda) return '@withSubscription on a Query field needs @lambda: the changes behind an @custom(http:) call cannot be watched';
  return undefined;
}
