import { GraphQLError, type ASTNode, type Source } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import { howToRaise, type OperationLimitName } from './settings.js';

/**
 * A refusal: what was measured, the value found, the limit and how to raise it, e.g. `the depth of query
 * Q is 70, over the limit 64; raise it with --max-depth or MAX_DEPTH`. HTTP 400 with a client code: the
 * request must change, or the operator must raise the limit.
 */
export function limitExceeded(
  name: OperationLimitName,
  subject: string,
  found: string | number,
  limit: number,
  options: { nodes?: ASTNode | readonly ASTNode[]; source?: Source; positions?: readonly number[]; code?: typeof ErrorCode.GRAPHQL_VALIDATION_FAILED | typeof ErrorCode.BAD_USER_INPUT; hint?: string } = {},
): GraphQLError {
  const hint = options.hint ? ` (${options.hint})` : '';
  return new GraphQLError(`${subject} is ${found}, over the limit ${limit}${hint}; ${howToRaise(name)}`, {
    nodes: options.nodes,
    source: options.source,
    positions: options.positions,
    extensions: { code: options.code ?? ErrorCode.GRAPHQL_VALIDATION_FAILED, limit: name, http: { status: 400 } },
  });
}

/** Large estimates print as `1.2e+120`, not 121 digits. */
export function formatCount(value: number): string {
  return value < 1e15 ? String(Math.round(value)) : value.toExponential(1);
}

/** `query Name` or `the anonymous query`, for messages about one operation. */
export function operationLabel(operation: { operation: string; name?: { value: string } | undefined }): string {
  return operation.name ? `${operation.operation} ${operation.name.value}` : `the anonymous ${operation.operation}`;
}
