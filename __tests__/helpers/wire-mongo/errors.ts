/**
 * Errors the wire server answers with, shaped like mongod's: `{ ok: 0, errmsg, code, codeName }` plus the
 * fields some codes carry (`keyPattern`/`keyValue` for a duplicate key).
 */
import { printDocument, type Document } from './values';

/** The server error codes this stand-in produces, named as in MongoDB's error_codes.yml. */
export const ErrorCode = {
  BadValue: 2,
  Unauthorized: 13,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  MaxTimeMSExpired: 50,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  InvalidIdField: 53,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CannotCreateIndex: 67,
  InvalidIndexSpecificationOption: 197,
  Location40323: 40323,
  Location40324: 40324,
  DuplicateKey: 11000,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

export class CommandError extends Error {
  readonly code: number;

  constructor(
    readonly codeName: ErrorCodeName,
    message: string,
    /** Extra reply fields, e.g. `keyPattern` and `keyValue`. */
    readonly details: Document = {},
  ) {
    super(message);
    this.code = ErrorCode[codeName];
  }

  /** The command reply for this error. */
  reply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.details };
  }

  /** The entry of a write reply's `writeErrors` for the statement at `index`. */
  writeError(index: number): Document {
    return { index, code: this.code, errmsg: this.message, ...this.details };
  }
}

/** E11000 as mongod reports it for the index `indexName` on `namespace`. */
export function duplicateKeyError(namespace: string, indexName: string, keyPattern: Document, keyValue: Document): CommandError {
  return new CommandError(
    'DuplicateKey',
    `E11000 duplicate key error collection: ${namespace} index: ${indexName} dup key: ${printDocument(keyValue)}`,
    { keyPattern, keyValue },
  );
}
