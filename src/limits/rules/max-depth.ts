import type { ASTVisitor, ValidationContext, ValidationRule } from 'graphql';
import { limitExceeded, operationLabel } from '../errors.js';
import { measureSelectionSet, type SelectionMeasure } from './measure-selections.js';

/** Field depth: `{ a { b } }` is 2; fragments add the depth of what they select, inline fragments nothing. */
const depth: SelectionMeasure = {
  field: (_node, inner) => 1 + inner,
  inlineFragment: (_node, inner) => inner,
  fragmentSpread: (_node, fragment) => fragment,
  combine: Math.max,
};

/** Refuses an operation whose fields nest deeper than `limit`, fragments followed. */
export function maxDepthRule(limit: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const memo = new Map<string, number>();
    const fragments = (name: string) => context.getFragment(name);
    return {
      OperationDefinition(operation) {
        const found = measureSelectionSet(operation.selectionSet, depth, fragments, memo);
        if (found > limit) {
          context.reportError(limitExceeded('maxDepth', `the depth of ${operationLabel(operation)}`, found, limit, { nodes: operation }));
        }
        return false;
      },
    };
  };
}
