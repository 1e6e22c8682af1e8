import { classifyPersistedQueryRequest, createPersistedQueryPlugin, sha256Hex, withoutPersistedQuery } from '../../src/persisted/index.js';
import { MemoryStore } from './memory-store.js';

const QUERY = '{ hello }';
const HASH = sha256Hex(QUERY);

function kindOf(query: string | undefined, extensions: Record<string, unknown> | undefined, maxQueryBytes = 1000) {
  const asked = classifyPersistedQueryRequest(query, extensions, maxQueryBytes);
  return asked.kind === 'invalid' ? { kind: 'invalid', code: asked.error.extensions.code, status: (asked.error.extensions.http as { status: number }).status } : asked;
}

test.each([
  ['no extensions', QUERY, undefined, { kind: 'ordinary' }],
  ['other extensions only', QUERY, { clientLibrary: {} }, { kind: 'ordinary' }],
  ['persistedQuery null', QUERY, { persistedQuery: null }, { kind: 'ordinary' }],
  ['persistedQuery without a hash', QUERY, { persistedQuery: { version: 1 } }, { kind: 'unpersisted' }],
  ['persistedQuery without a hash, version 9', QUERY, { persistedQuery: { version: 9 } }, { kind: 'invalid', code: 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED', status: 400 }],
  ['persistedQuery without a hash or version (version 1)', QUERY, { persistedQuery: {} }, { kind: 'unpersisted' }],
  ['persistedQuery with a null hash', QUERY, { persistedQuery: { version: 1, sha256Hash: null } }, { kind: 'unpersisted' }],
  ['a hash in upper case with its query', QUERY, { persistedQuery: { version: 1, sha256Hash: HASH.toUpperCase() } }, { kind: 'register', hash: HASH, query: QUERY }],
  ['a hash alone', undefined, { persistedQuery: { version: 1, sha256Hash: HASH } }, { kind: 'lookup', hash: HASH }],
  ['a hash and an empty query', '', { persistedQuery: { version: 1, sha256Hash: HASH } }, { kind: 'lookup', hash: HASH }],
  ['a hash in upper case', undefined, { persistedQuery: { version: 1, sha256Hash: HASH.toUpperCase() } }, { kind: 'lookup', hash: HASH }],
  ['a hash with its query', QUERY, { persistedQuery: { version: 1, sha256Hash: HASH } }, { kind: 'register', hash: HASH, query: QUERY }],
  ['a hash of another query', '{ other }', { persistedQuery: { version: 1, sha256Hash: HASH } }, { kind: 'invalid', code: 'PERSISTED_QUERY_HASH_MISMATCH', status: 400 }],
  ['version 2', QUERY, { persistedQuery: { version: 2, sha256Hash: HASH } }, { kind: 'invalid', code: 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED', status: 400 }],
  ['no version (spec 2.3: version 1), a hash alone', undefined, { persistedQuery: { sha256Hash: HASH } }, { kind: 'lookup', hash: HASH }],
  ['no version, a hash with its query', QUERY, { persistedQuery: { sha256Hash: HASH } }, { kind: 'register', hash: HASH, query: QUERY }],
  ['a null version, a hash alone', undefined, { persistedQuery: { version: null, sha256Hash: HASH } }, { kind: 'lookup', hash: HASH }],
  ['no version, a hash of another query', '{ other }', { persistedQuery: { sha256Hash: HASH } }, { kind: 'invalid', code: 'PERSISTED_QUERY_HASH_MISMATCH', status: 400 }],
  ['version "1" (a string)', QUERY, { persistedQuery: { version: '1', sha256Hash: HASH } }, { kind: 'invalid', code: 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED', status: 400 }],
  ['version 0', QUERY, { persistedQuery: { version: 0, sha256Hash: HASH } }, { kind: 'invalid', code: 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED', status: 400 }],
  ['a short hash', undefined, { persistedQuery: { version: 1, sha256Hash: 'abc' } }, { kind: 'invalid', code: 'PERSISTED_QUERY_INVALID_HASH', status: 400 }],
  ['a numeric hash', undefined, { persistedQuery: { version: 1, sha256Hash: 12 } }, { kind: 'invalid', code: 'PERSISTED_QUERY_INVALID_HASH', status: 400 }],
  ['a hash inside a list', undefined, { persistedQuery: { version: 1, sha256Hash: [HASH] } }, { kind: 'invalid', code: 'PERSISTED_QUERY_INVALID_HASH', status: 400 }],
  ['a hash with one more digit', undefined, { persistedQuery: { version: 1, sha256Hash: `${HASH}0` } }, { kind: 'invalid', code: 'PERSISTED_QUERY_INVALID_HASH', status: 400 }],
  ['persistedQuery true', QUERY, { persistedQuery: true }, { kind: 'invalid', code: 'PERSISTED_QUERY_INVALID_EXTENSION', status: 400 }],
  ['persistedQuery an array', QUERY, { persistedQuery: [] }, { kind: 'invalid', code: 'PERSISTED_QUERY_INVALID_EXTENSION', status: 400 }],
])('%s', (_label, query, extensions, expected) => {
  expect(kindOf(query, extensions)).toEqual(expected);
});

test('a query over the size limit is invalid before its hash is checked', () => {
  expect(kindOf(QUERY, { persistedQuery: { version: 1, sha256Hash: sha256Hex('x') } }, 5)).toEqual({
    kind: 'invalid',
    code: 'PERSISTED_QUERY_TOO_LARGE',
    status: 400,
  });
});

test('the size limit counts UTF-8 bytes', () => {
  const text = '{ hello(name: "ééé") }';
  expect(kindOf(text, { persistedQuery: { version: 1, sha256Hash: sha256Hex(text) } }, text.length).kind).toBe('invalid');
  expect(kindOf(text, { persistedQuery: { version: 1, sha256Hash: sha256Hex(text) } }, Buffer.byteLength(text)).kind).toBe('register');
});

test('withoutPersistedQuery keeps the other extensions and drops an emptied object', () => {
  expect(withoutPersistedQuery({ persistedQuery: {}, clientLibrary: { name: 'x' } })).toEqual({ clientLibrary: { name: 'x' } });
  expect(withoutPersistedQuery({ persistedQuery: {} })).toBeUndefined();
  expect(withoutPersistedQuery(undefined)).toBeUndefined();
});

test.each([
  [{ lruMaxEntries: 0 }, 'lruMaxEntries must be a positive integer, got 0'],
  [{ lruMaxBytes: 1.5 }, 'lruMaxBytes must be a positive integer, got 1.5'],
  [{ maxQueryBytes: -1 }, 'maxQueryBytes must be a positive integer, got -1'],
  [{ maxQueryBytes: 2000, lruMaxBytes: 1000 }, 'maxQueryBytes (2000) must not exceed lruMaxBytes (1000)'],
  [{ maxRegisteredQueries: 0 }, 'maxRegisteredQueries must be a positive integer, got 0'],
  [{ maxRegisteredBytes: Number.NaN }, 'maxRegisteredBytes must be a positive integer, got NaN'],
  [{ maxQueryBytes: 2000, maxRegisteredBytes: 1999 }, 'maxQueryBytes (2000) must not exceed maxRegisteredBytes (1999)'],
])('plugin options %j are refused', (options, message) => {
  expect(() => createPersistedQueryPlugin({ store: new MemoryStore(), ...options })).toThrow(message);
});

test('plugin options at their limits are accepted, and the settings in force are reported with defaults filled in', () => {
  const { settings } = createPersistedQueryPlugin({ store: new MemoryStore(), maxQueryBytes: 1, lruMaxBytes: 1, maxRegisteredBytes: 1, lruMaxEntries: 1 });
  expect(settings).toEqual({
    persistedOnly: false,
    lruMaxEntries: 1,
    lruMaxBytes: 1,
    maxQueryBytes: 1,
    maxRegisteredQueries: 10_000,
    maxRegisteredBytes: 1,
  });
  expect(createPersistedQueryPlugin({ store: new MemoryStore(), persistedOnly: true }).settings).toEqual({
    persistedOnly: true,
    lruMaxEntries: 10_000,
    lruMaxBytes: 32 * 1024 * 1024,
    maxQueryBytes: 64 * 1024,
    maxRegisteredQueries: 10_000,
    maxRegisteredBytes: 32 * 1024 * 1024,
  });
});
