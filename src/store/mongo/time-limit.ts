import { MongoServerError } from 'mongodb';
import { DeadlineExceededError, type OperationScope } from '../port.js';

/** MongoDB's code for an operation it stopped at its `maxTimeMS`. */
const MAX_TIME_MS_EXPIRED = 50;

/**
 * The driver option that makes the server stop `operation` at the scope's deadline: `{ maxTimeMS }`, or
 * nothing without a deadline. A deadline already passed throws at once, since `maxTimeMS: 0` would mean
 * "no limit".
 */
export function timeLimitOf(scope: OperationScope | undefined, operation: string): { maxTimeMS?: number } {
  if (scope?.deadline === undefined) return {};
  const remaining = Math.ceil(scope.deadline - Date.now());
  if (remaining <= 0) throw new DeadlineExceededError(operation);
  return { maxTimeMS: remaining };
}

export function isTimeLimitError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === MAX_TIME_MS_EXPIRED;
}
