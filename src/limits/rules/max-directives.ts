import type { ASTVisitor, ValidationContext, ValidationRule } from 'graphql';
import { limitExceeded, operationLabel } from '../errors.js';
import { measureSelectionSet, type SelectionMeasure } from './measure-selections.js';

/** Directives on fields, fragments and spreads, a fragment's counted again at every spread. */
const directives: SelectionMeasure = {
  field: (node, inner) => (node.directives?.length ?? 0) + inner,
  inlineFragment: (node, inner) => (node.directives?.length ?? 0) + inner,
  fragmentSpread: (node, fragment) => (node.directives?.length ?? 0) + fragment,
  fragmentDefinition: (node, inner) => (node.directives?.length ?? 0) + inner,
  combine: (a, b) => a + b,
};

/** Refuses an operation with more than `limit` directives (its own included), fragments followed. */
export function maxDirectivesRule(limit: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const memo = new Map<string, number>();
    const fragments = (name: string) => context.getFragment(name);
    return {
      OperationDefinition(operation) {
        const found = (operation.directives?.length ?? 0) + measureSelectionSet(operation.selectionSet, directives, fragments, memo);
        if (found > limit) {
          context.reportError(limitExceeded('maxDirectives', `the number of directives in ${operationLabel(operation)}`, found, limit, { nodes: operation }));
        }
        return false;
      },
    };
  };
}
