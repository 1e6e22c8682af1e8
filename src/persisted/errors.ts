import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { STORE_UNAVAILABLE_CODE } from '../store/port.js';

/**
 * The errors of the persisted query protocol. Each carries its HTTP status in `extensions.http`, which
 * Apollo Server turns into the response status and strips from the body.
 *
 * Messages that Apollo Client or Apollo Server already define keep their wording (clients match
 * `PersistedQueryNotFound`); the rest say what was wrong and with which value.
 */
export const PersistedQueryErrorCode = {
  notFound: 'PERSISTED_QUERY_NOT_FOUND',
  /** As GraphOS Router names it: the operation is not in the persisted query list (safelist). */
  notInList: 'PERSISTED_QUERY_NOT_IN_LIST',
  hashMismatch: 'PERSISTED_QUERY_HASH_MISMATCH',
  invalidHash: 'PERSISTED_QUERY_INVALID_HASH',
  invalidExtension: 'PERSISTED_QUERY_INVALID_EXTENSION',
  unsupportedVersion: 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED',
  tooLarge: 'PERSISTED_QUERY_TOO_LARGE',
  storeUnavailable: STORE_UNAVAILABLE_CODE,
  internal: 'INTERNAL_SERVER_ERROR',
} as const;

type Code = (typeof PersistedQueryErrorCode)[keyof typeof PersistedQueryErrorCode];

/** The codes above that describe a request at fault (for logging at a quieter level than service faults). */
export const PERSISTED_QUERY_CLIENT_ERROR_CODES: ReadonlySet<string> = new Set([
  PersistedQueryErrorCode.notFound,
  PersistedQueryErrorCode.notInList,
  PersistedQueryErrorCode.hashMismatch,
  PersistedQueryErrorCode.invalidHash,
  PersistedQueryErrorCode.invalidExtension,
  PersistedQueryErrorCode.unsupportedVersion,
  PersistedQueryErrorCode.tooLarge,
]);

function protocolError(message: string, code: Code, status: number, headers?: HeaderMap): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code, http: { status, headers: headers ?? new HeaderMap() } },
  });
}

/**
 * 200, as Apollo Server answers it: Apollo Client reads the error from the body and retries with the
 * query text. Never cached, since the hash may be registered a moment later.
 */
export function persistedQueryNotFound(): GraphQLError {
  return protocolError(
    'PersistedQueryNotFound',
    PersistedQueryErrorCode.notFound,
    200,
    new HeaderMap([['cache-control', 'private, no-cache, must-revalidate']]),
  );
}

/** Safelist mode, hash alone: 404 as GraphOS Router answers it; clients must not retry with the text. */
export function hashNotInSafelist(hash: string): GraphQLError {
  return protocolError(
    `persisted query ${hash} is not in the persisted query list: this server runs only registered operations`,
    PersistedQueryErrorCode.notInList,
    404,
    new HeaderMap([['cache-control', 'private, no-cache, must-revalidate']]),
  );
}

/** Safelist mode, query text that is not registered: 403 as GraphOS Router answers it. */
export function queryNotInSafelist(hash: string): GraphQLError {
  return protocolError(
    `this operation (SHA-256 ${hash}) is not in the persisted query list: this server runs only registered ` +
      'operations, and clients cannot register new ones',
    PersistedQueryErrorCode.notInList,
    403,
  );
}

export function hashMismatch(givenHash: string, actualHash: string): GraphQLError {
  return protocolError(
    `provided sha does not match query: extensions.persistedQuery.sha256Hash is ${givenHash}, ` +
      `but the SHA-256 of the query text is ${actualHash}`,
    PersistedQueryErrorCode.hashMismatch,
    400,
  );
}

export function unsupportedVersion(version: unknown): GraphQLError {
  return protocolError(
    `Unsupported persisted query version: extensions.persistedQuery.version is ${describe(version)}; ` +
      'this server supports version 1',
    PersistedQueryErrorCode.unsupportedVersion,
    400,
  );
}

export function invalidHash(hash: unknown): GraphQLError {
  return protocolError(
    'extensions.persistedQuery.sha256Hash must be the 64 hexadecimal digits of a SHA-256 hash, ' +
      `got ${describe(hash)}`,
    PersistedQueryErrorCode.invalidHash,
    400,
  );
}

export function invalidExtension(persistedQuery: unknown): GraphQLError {
  return protocolError(
    'extensions.persistedQuery must be an object such as { "sha256Hash": "<hex>" }, ' +
      `got ${describe(persistedQuery)}`,
    PersistedQueryErrorCode.invalidExtension,
    400,
  );
}

export function queryTooLarge(bytes: number, limit: number): GraphQLError {
  return protocolError(
    `the query text is ${bytes} bytes; queries to persist may be at most ${limit} bytes`,
    PersistedQueryErrorCode.tooLarge,
    400,
  );
}

export function lookupFailed(reason: string, unavailable: boolean): GraphQLError {
  return unavailable
    ? protocolError(`persisted query lookup failed: ${reason}`, PersistedQueryErrorCode.storeUnavailable, 503)
    : protocolError('persisted query lookup failed', PersistedQueryErrorCode.internal, 500);
}

function describe(value: unknown): string {
  if (value === undefined) {
    return 'missing';
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
