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

/** The fields of a collection's index by the index's name (`_id_` covers `_id`); undefined when unknown. */
export type IndexFields = (indexName: string) => readonly string[] | undefined;

/** The raw write error of the first duplicate in a bulk write, with the position of its operation in the batch. */
interface FailedWrite {
  index?: number;
  errmsg?: string;
  keyValue?: Record<string, unknown>;
}

function firstDuplicateWrite(error: MongoServerError): FailedWrite | undefined {
  const listed: unknown = error.writeErrors;
  const writeErrors: unknown[] = Array.isArray(listed) ? listed : listed ? [listed] : [];
  for (const writeError of writeErrors) {
    // Driver 7's WriteError keeps the server's raw write error in `err`; its getters expose index, code and errmsg.
    const raw = isPlainRecord(writeError) && isPlainRecord(writeError.err) ? writeError.err : writeError;
    if (!isPlainRecord(raw) || !DUPLICATE_KEY_CODES.has(Number(raw.code))) continue;
    return {
      index: typeof raw.index === 'number' ? raw.index : undefined,
      errmsg: typeof raw.errmsg === 'string' ? raw.errmsg : undefined,
      keyValue: isPlainRecord(raw.keyValue) ? raw.keyValue : undefined,
    };
  }
  return undefined;
}

/**
 * The duplicate of a failed `insertMany`, named by the field and the value of the document that failed.
 * Driver 7 sends `insertMany` through its bulk writer, whose MongoBulkWriteError keeps each write
 * error's position in the batch (`index`) and message but drops the server's `keyValue`/`keyPattern`:
 * the document comes from `documents[index]`, the fields from the index the message names
 * (`... index: ag_id_username dup key: ...`), mapped through `indexFields`.
 */
export function duplicateKeyOfInsert(error: MongoServerError, documents: readonly Record<string, unknown>[], indexFields: IndexFields): { field: string; value: unknown } {
  const failed = firstDuplicateWrite(error);
  const document = failed?.index === undefined ? undefined : documents[failed.index];
  const indexName = /index: (\S+)/.exec(failed?.errmsg ?? String(error.errmsg ?? error.message))?.[1];
  const fields = failed?.keyValue ? Object.keys(failed.keyValue) : indexName === '_id_' ? ['_id'] : indexName ? indexFields(indexName) : undefined;
  if (document && fields && fields.length > 0) {
    if (fields.length === 1) return { field: fields[0]!, value: document[fields[0]!] ?? null };
    return { field: fields.join(','), value: Object.fromEntries(fields.map((field) => [field, document[field] ?? null])) };
  }
  return duplicateKeyOf(error);
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
