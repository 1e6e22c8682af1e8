import type { ASTVisitor, ValidationContext, ValidationRule } from 'graphql';
import { estimateCost } from '../cost.js';
import type { PageLimits } from '../../query/pagination.js';
import { costRefusal } from '../cost-refusal.js';

/**
 * Refuses an operation whose estimated cost (see cost.ts) exceeds `limit`, before anything runs. Sizes
 * given by variables are not known here (Apollo caches validation per document): they count 0, and the
 * limits plugin checks the exact figure once the request's variables are known.
 */
export function queryCostRule(limit: number, pages: PageLimits): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const { cost } = estimateCost({ schema: context.getSchema(), operation, fragments: (name) => context.getFragment(name), ...pages });
      if (cost > limit) context.reportError(costRefusal(operation, cost, limit, pages.defaultPageSize));
      return false;
    },
  });
}
