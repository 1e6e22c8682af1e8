import {
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { DeadlineExceededError, DuplicateKeyError, StoreUnavailableError } from '../port.js';
import { isTimeLimitError } from './time-limit.js';

const DUPLICATE_KEY_CODES = new Set([11000, 11001]);

/**
 * Server error codes that mean "no usable node right now" (shutdown, step-down, election) rather than
 * "this request is wrong". They surface as StoreUnavailableError, like a refused connection.
 */
const NODE_UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

export function isDuplicateKeyError(error: unknown): error is MongoServerError {
  return error instanceof MongoServerError && typeof error.code === 'number' && DUPLICATE_KEY_CODES.has(error.code);
}

export function isUnavailableError(error: unknown): boolean {
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoNotConnectedError
  ) {
    return true;
  }
  return error instanceof MongoServerError && typeof error.code === 'number' && NODE_UNAVAILABLE_CODES.has(error.code);
}

/** Whether the driver's `withTransaction` retries the whole transaction after this error. */
export function isTransientTransactionError(error: unknown): boolean {
  return error instanceof MongoError && error.hasErrorLabel(MongoErrorLabel.TransientTransactionError);
}

/**
 * The offending key of an E11000 error. MongoDB reports it as `keyValue` (`{ username: "ann" }`) on the
 * error itself (single writes) or on the first write error (bulk writes); older servers only put it in
 * the message (`... index: name dup key: { username: "ann" }`).
 */
export function duplicateKeyOf(error: MongoServerError): { field: string; value: unknown } {
  const keyValue = firstKeyValue(error);
  if (keyValue) {
    const fields = Object.keys(keyValue);
    if (fields.length === 1) {
      return { field: fields[0], value: keyValue[fields[0]] };
    }
    if (fields.length > 1) {
      // Same shape as the embedded store: fields comma-joined, the value an object of them.
      return { field: fields.join(','), value: keyValue };
    }
  }
  const message = String(error.errmsg ?? error.message);
  const dupKey = /dup key: (\{.*\})/.exec(message)?.[1];
  const index = /index: (\S+)/.exec(message)?.[1];
  return { field: index ?? 'unknown key', value: dupKey ?? null };
}

function firstKeyValue(error: MongoServerError): Record<string, unknown> | undefined {
  if (isPlainRecord(error.keyValue)) {
    return error.keyValue;
  }
  const writeErrors: unknown = error.writeErrors;
  if (Array.isArray(writeErrors) && writeErrors.length > 0) {
    const first: unknown = writeErrors[0];
    const raw = isPlainRecord(first) && isPlainRecord(first.err) ? first.err : first;
    if (isPlainRecord(raw) && isPlainRecord(raw.keyValue)) {
      return raw.keyValue;
    }
  }
  return undefined;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Translates a driver error into the port's vocabulary: E11000 becomes DuplicateKeyError, an unreachable
 * or unusable deployment becomes StoreUnavailableError, an operation stopped at its `maxTimeMS` becomes
 * DeadlineExceededError, anything else (a malformed query, say) is returned
 * unchanged so its message still says what is wrong.
 */
export function toStoreError(error: unknown, collection: string): unknown {
  if (error instanceof DuplicateKeyError || error instanceof StoreUnavailableError || error instanceof DeadlineExceededError) {
    return error;
  }
  if (isTimeLimitError(error)) {
    return new DeadlineExceededError(`an operation on ${collection}`);
  }
  if (isDuplicateKeyError(error)) {
    const { field, value } = duplicateKeyOf(error);
    return new DuplicateKeyError(collection, field, value);
  }
  if (isUnavailableError(error)) {
    return new StoreUnavailableError(error instanceof Error ? error.message : String(error));
  }
  return error;
}
