import type { ASTVisitor, ValidationContext, ValidationRule } from 'graphql';
import { limitExceeded, operationLabel } from '../errors.js';
import { measureSelectionSet, type SelectionMeasure } from './measure-selections.js';

/** Aliased fields, a fragment's counted again at every spread (each spread resolves them again). */
const aliases: SelectionMeasure = {
  field: (node, inner) => (node.alias ? 1 : 0) + inner,
  inlineFragment: (_node, inner) => inner,
  fragmentSpread: (_node, fragment) => fragment,
  combine: (a, b) => a + b,
};

/** Refuses an operation with more than `limit` aliases, fragments followed. */
export function maxAliasesRule(limit: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const memo = new Map<string, number>();
    const fragments = (name: string) => context.getFragment(name);
    return {
      OperationDefinition(operation) {
        const found = measureSelectionSet(operation.selectionSet, aliases, fragments, memo);
        if (found > limit) {
          context.reportError(limitExceeded('maxAliases', `the number of aliases in ${operationLabel(operation)}`, found, limit, { nodes: operation }));
        }
        return false;
      },
    };
  };
}
