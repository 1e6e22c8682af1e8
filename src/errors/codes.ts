/**
 * Every `extensions.code` the service answers with, and whose fault it is: `client` when the request was
 * wrong (the caller can fix it), `server` when the service could not do what was asked. Logging and
 * error formatting read the side from here, so a new code is classified where it is defined.
 */
export const ERROR_CODES = {
  // Apollo Server's own (errors/index.ts).
  GRAPHQL_PARSE_FAILED: 'client',
  GRAPHQL_VALIDATION_FAILED: 'client',
  BAD_USER_INPUT: 'client',
  BAD_REQUEST: 'client',
  OPERATION_RESOLUTION_FAILURE: 'client',
  PERSISTED_QUERY_NOT_FOUND: 'client',
  PERSISTED_QUERY_NOT_SUPPORTED: 'client',
  INTERNAL_SERVER_ERROR: 'server',
  // The persisted query protocol (persisted/errors.ts).
  PERSISTED_QUERY_NOT_IN_LIST: 'client',
  PERSISTED_QUERY_HASH_MISMATCH: 'client',
  PERSISTED_QUERY_INVALID_HASH: 'client',
  PERSISTED_QUERY_INVALID_EXTENSION: 'client',
  PERSISTED_QUERY_VERSION_NOT_SUPPORTED: 'client',
  PERSISTED_QUERY_TOO_LARGE: 'client',
  BAD_MANIFEST: 'client',
  // A schema uploaded to /admin/schema (or read back from the store) that is refused: invalid, over a
  // --schema-max-* limit, or not fitting the stored data.
  BAD_SCHEMA: 'client',
  // An upload that would make stored objects unreadable (a removed, renamed or retyped field with stored
  // values), refused unless it says ?force=true (schema-changes/).
  SCHEMA_BREAKS_STORED_DATA: 'client',
  // A lambda script uploaded to /admin/lambda that is refused: it does not load, or lacks a @lambda field's resolver.
  BAD_LAMBDA_SCRIPT: 'client',
  // Data lifecycle (transfer/): an export file refused by POST /admin/import (the message names the line),
  // and an import into a store that already holds data.
  BAD_IMPORT_FILE: 'client',
  STORE_NOT_EMPTY: 'client',
  // Who is calling and what they may do.
  UNAUTHENTICATED: 'client',
  FORBIDDEN: 'client',
  // A collection that cannot be dropped: its type is in the active schema (DELETE /admin/collections/<Type>).
  COLLECTION_IN_USE: 'client',
  // Subscriptions (live/): one connection holds too many; a schema swap ended one (subscribe again).
  TOO_MANY_SUBSCRIPTIONS: 'client',
  SCHEMA_CHANGED: 'client',
  // Data the request conflicts with.
  DUPLICATE_ID: 'client',
  // HTTP routing and bodies.
  METHOD_NOT_ALLOWED: 'client',
  NOT_FOUND: 'client',
  PAYLOAD_TOO_LARGE: 'client',
  // A request body in a Content-Encoding the service does not decode (http-io.ts reads gzip and identity).
  UNSUPPORTED_MEDIA_TYPE: 'client',
  // Request budgets (limits/budget.ts): an answer too large is the request's doing; a timeout may be either's, so it is logged as the service's.
  RESULT_TOO_LARGE: 'client',
  REQUEST_TIMEOUT: 'server',
  // The service's state and its dependencies.
  SCHEMA_NOT_LOADED: 'server',
  // This instance runs as many subscriptions as it allows (live/).
  SUBSCRIPTIONS_AT_CAPACITY: 'server',
  LAMBDA_NOT_LOADED: 'server',
  STORE_UNAVAILABLE: 'server',
  // A JWK Set URL of the authorization line cannot be fetched: tokens cannot be checked (auth/keys/).
  KEY_SET_UNAVAILABLE: 'server',
  LAMBDA_FAILED: 'server',
  CUSTOM_HTTP_FAILED: 'server',
  CUSTOM_RESULT_INVALID: 'server',
  // A request asking for more bcrypt work (@secret passwords hashed or checked) than one request may do.
  TOO_MANY_PASSWORD_OPERATIONS: 'client',
} as const satisfies Record<string, 'client' | 'server'>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes by name, for use instead of string literals: `ErrorCode.BAD_USER_INPUT`. */
export const ErrorCode = Object.freeze(Object.fromEntries(Object.keys(ERROR_CODES).map((code) => [code, code]))) as { readonly [C in ErrorCode]: C };

/** Whether `code` says the request was at fault; unknown codes count as the service's. */
export function isClientErrorCode(code: unknown): boolean {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) && ERROR_CODES[code as ErrorCode] === 'client';
}

/**
 * An error thrown below the GraphQL layer (query/, store/, resolve/ helpers) that a client caused. Error
 * formatting answers it with its `code` and message instead of INTERNAL_SERVER_ERROR, so those layers need
 * not import graphql-js to say "your input was wrong".
 */
export class ClientInputError extends Error {
  constructor(message: string, readonly code: ErrorCode = ErrorCode.BAD_USER_INPUT) {
    super(message);
    this.name = 'ClientInputError';
  }
}
