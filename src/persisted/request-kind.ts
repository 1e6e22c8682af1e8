import type { GraphQLError } from 'graphql';
import { hashMismatch, invalidExtension, invalidHash, queryTooLarge, unsupportedVersion } from './errors.js';
import { isSha256Hex, sha256Hex, utf8Bytes } from './hash.js';

/**
 * What a GraphQL request asks of persisted query handling: the decision rules of spec section 4.3,
 * applied in order to its `query` and `extensions`. Pure: looking hashes up is the caller's part.
 */
export type PersistedQueryRequest =
  /** Rule 1: no `persistedQuery` extension. */
  | { kind: 'ordinary' }
  /** Rule 2: `persistedQuery` without `sha256Hash`: run the query, persist nothing. */
  | { kind: 'unpersisted' }
  /** Rules 4 and 5: a hash alone: run the stored query, or answer PersistedQueryNotFound. */
  | { kind: 'lookup'; hash: string }
  /** Rule 3: a hash with the query text it was verified against: store it if new, then run it. */
  | { kind: 'register'; hash: string; query: string }
  /** A malformed extension, a version other than 1 (with or without a hash), a hash that is not the query's, a query too large. */
  | { kind: 'invalid'; error: GraphQLError };

export const SUPPORTED_PERSISTED_QUERY_VERSION = 1;

export function classifyPersistedQueryRequest(
  query: string | undefined,
  extensions: Record<string, unknown> | undefined,
  maxQueryBytes: number,
): PersistedQueryRequest {
  const persistedQuery = extensions?.persistedQuery;
  if (persistedQuery === undefined || persistedQuery === null) {
    return { kind: 'ordinary' };
  }
  if (typeof persistedQuery !== 'object' || Array.isArray(persistedQuery)) {
    return { kind: 'invalid', error: invalidExtension(persistedQuery) };
  }
  const { sha256Hash, version } = persistedQuery as Record<string, unknown>;
  // Checked first, as Apollo Server does: a version this server does not know may mean other rules. The
  // spec's request object (section 2.3) has no version at all: a missing one means version 1.
  if (version !== undefined && version !== null && version !== SUPPORTED_PERSISTED_QUERY_VERSION) {
    return { kind: 'invalid', error: unsupportedVersion(version) };
  }
  if (sha256Hash === undefined || sha256Hash === null) {
    return { kind: 'unpersisted' };
  }
  if (!isSha256Hex(sha256Hash)) {
    return { kind: 'invalid', error: invalidHash(sha256Hash) };
  }
  const hash = sha256Hash.toLowerCase();
  if (query === undefined || query === '') {
    return { kind: 'lookup', hash };
  }
  const bytes = utf8Bytes(query);
  if (bytes > maxQueryBytes) {
    return { kind: 'invalid', error: queryTooLarge(bytes, maxQueryBytes) };
  }
  const actualHash = sha256Hex(query);
  if (actualHash !== hash) {
    return { kind: 'invalid', error: hashMismatch(sha256Hash, actualHash) };
  }
  return { kind: 'register', hash, query };
}

/** `extensions` without `persistedQuery`, or `undefined` when nothing else is left. */
export function withoutPersistedQuery(extensions: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (extensions === undefined) {
    return undefined;
  }
  const { persistedQuery: _persistedQuery, ...rest } = extensions;
  return Object.keys(rest).length > 0 ? rest : undefined;
}
