import { HeaderMap } from '@apollo/server';
import type { GraphQLError } from 'graphql';
import {
  hashMismatch,
  hashNotInSafelist,
  invalidExtension,
  invalidHash,
  lookupFailed,
  persistedQueryNotFound,
  queryNotInSafelist,
  queryTooLarge,
  unsupportedVersion,
} from '../../src/persisted/errors.js';
import { PERSISTED_QUERY_CLIENT_ERROR_CODES, PersistedQueryErrorCode } from '../../src/persisted/index.js';

const HASH = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const NO_CACHE = [['cache-control', 'private, no-cache, must-revalidate']];

/** An error as a client sees it: message, code, HTTP status and the headers sent with it. */
function seen(error: GraphQLError) {
  const http = error.extensions.http as { status: number; headers: HeaderMap };
  expect(http.headers).toBeInstanceOf(HeaderMap);
  return { message: error.message, code: error.extensions.code, status: http.status, headers: [...http.headers.entries()] };
}

test.each([
  ['persistedQueryNotFound', persistedQueryNotFound(), 'PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 200, NO_CACHE],
  [
    'hashNotInSafelist',
    hashNotInSafelist(HASH),
    `persisted query ${HASH} is not in the persisted query list: this server runs only registered operations`,
    'PERSISTED_QUERY_NOT_IN_LIST',
    404,
    NO_CACHE,
  ],
  [
    'queryNotInSafelist',
    queryNotInSafelist(HASH),
    `this operation (SHA-256 ${HASH}) is not in the persisted query list: this server runs only registered operations, and clients cannot register new ones`,
    'PERSISTED_QUERY_NOT_IN_LIST',
    403,
    [],
  ],
  [
    'hashMismatch',
    hashMismatch(HASH, OTHER),
    `provided sha does not match query: extensions.persistedQuery.sha256Hash is ${HASH}, but the SHA-256 of the query text is ${OTHER}`,
    'PERSISTED_QUERY_HASH_MISMATCH',
    400,
    [],
  ],
  [
    'unsupportedVersion of a number',
    unsupportedVersion(2),
    'Unsupported persisted query version: extensions.persistedQuery.version is 2; this server supports version 1',
    'PERSISTED_QUERY_VERSION_NOT_SUPPORTED',
    400,
    [],
  ],
  [
    'unsupportedVersion of a string',
    unsupportedVersion('1'),
    'Unsupported persisted query version: extensions.persistedQuery.version is "1"; this server supports version 1',
    'PERSISTED_QUERY_VERSION_NOT_SUPPORTED',
    400,
    [],
  ],
  [
    'invalidHash of a string',
    invalidHash('abc'),
    'extensions.persistedQuery.sha256Hash must be the 64 hexadecimal digits of a SHA-256 hash, got "abc"',
    'PERSISTED_QUERY_INVALID_HASH',
    400,
    [],
  ],
  [
    'invalidExtension of true',
    invalidExtension(true),
    'extensions.persistedQuery must be an object such as { "sha256Hash": "<hex>" }, got true',
    'PERSISTED_QUERY_INVALID_EXTENSION',
    400,
    [],
  ],
  [
    'queryTooLarge',
    queryTooLarge(70_000, 65_536),
    'the query text is 70000 bytes; queries to persist may be at most 65536 bytes',
    'PERSISTED_QUERY_TOO_LARGE',
    400,
    [],
  ],
  ['lookupFailed, store unavailable', lookupFailed('no connection', true), 'persisted query lookup failed: no connection', 'STORE_UNAVAILABLE', 503, []],
  ['lookupFailed, another fault (reason not shown)', lookupFailed('corrupt document', false), 'persisted query lookup failed', 'INTERNAL_SERVER_ERROR', 500, []],
])('%s', (_label, error, message, code, status, headers) => {
  expect(seen(error)).toEqual({ message, code, status, headers });
});

test.each([
  ['a value that JSON cannot write is shown as text', Symbol('v1'), 'Symbol(v1)'],
  ['null', null, 'null'],
  ['an object', { version: 1 }, '{"version":1}'],
  ['80 characters are shown whole', 'x'.repeat(78), `"${'x'.repeat(78)}"`],
  ['81 characters are cut to 77 and an ellipsis', 'x'.repeat(79), `"${'x'.repeat(76)}...`],
])('a value in a message: %s', (_label, value, shown) => {
  expect(unsupportedVersion(value).message).toBe(
    `Unsupported persisted query version: extensions.persistedQuery.version is ${shown}; this server supports version 1`,
  );
});

test('each error gets its own headers: a header set on one answer does not leak into the next', () => {
  const first = persistedQueryNotFound().extensions.http as { headers: HeaderMap };
  first.headers.set('x-extra', '1');
  expect([...(persistedQueryNotFound().extensions.http as { headers: HeaderMap }).headers.keys()]).toEqual(['cache-control']);
  const plain = hashMismatch(HASH, OTHER).extensions.http as { headers: HeaderMap };
  plain.headers.set('x-extra', '1');
  expect([...(hashMismatch(HASH, OTHER).extensions.http as { headers: HeaderMap }).headers.keys()]).toEqual([]);
});

test('the codes, and which of them blame the request', () => {
  expect(PersistedQueryErrorCode).toEqual({
    notFound: 'PERSISTED_QUERY_NOT_FOUND',
    notInList: 'PERSISTED_QUERY_NOT_IN_LIST',
    hashMismatch: 'PERSISTED_QUERY_HASH_MISMATCH',
    invalidHash: 'PERSISTED_QUERY_INVALID_HASH',
    invalidExtension: 'PERSISTED_QUERY_INVALID_EXTENSION',
    unsupportedVersion: 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED',
    tooLarge: 'PERSISTED_QUERY_TOO_LARGE',
    storeUnavailable: 'STORE_UNAVAILABLE',
    internal: 'INTERNAL_SERVER_ERROR',
  });
  expect([...PERSISTED_QUERY_CLIENT_ERROR_CODES].sort()).toEqual([
    'PERSISTED_QUERY_HASH_MISMATCH',
    'PERSISTED_QUERY_INVALID_EXTENSION',
    'PERSISTED_QUERY_INVALID_HASH',
    'PERSISTED_QUERY_NOT_FOUND',
    'PERSISTED_QUERY_NOT_IN_LIST',
    'PERSISTED_QUERY_TOO_LARGE',
    'PERSISTED_QUERY_VERSION_NOT_SUPPORTED',
  ]);
});
