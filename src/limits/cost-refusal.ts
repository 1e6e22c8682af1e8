import type { GraphQLError, OperationDefinitionNode } from 'graphql';
import { formatCount, limitExceeded, operationLabel } from './errors.js';

export function costRefusal(operation: OperationDefinitionNode, cost: number, limit: number, defaultPageSize: number): GraphQLError {
  return limitExceeded('maxCost', `the estimated cost of ${operationLabel(operation)}`, `${formatCount(cost)} objects`, limit, {
    nodes: operation,
    hint: `a list counts its first argument, ${defaultPageSize} without it, and multiplies what it selects: pass smaller first values`,
  });
}
