import type { BaseContext, GraphQLRequest, GraphQLRequestContext, GraphQLRequestListener } from '@apollo/server';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphQLError } from 'graphql';
import { createPersistedQueryPlugin, markTrustedRequest, type PersistedQueryPluginOptions } from '../../src/persisted/index.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { SYSTEM_COLLECTIONS } from '../../src/store/port.js';
import { MemoryStore, type MemoryCollection } from './memory-store.js';

const KNOWN = '{ known }';
const NEW = '{ fresh }';
const KNOWN_HASH = createHash('sha256').update(KNOWN).digest('hex');
const NEW_HASH = createHash('sha256').update(NEW).digest('hex');
const UNKNOWN_HASH = 'c'.repeat(64);

let store: MemoryStore;
let collection: MemoryCollection;
let warnings: string[];
const logger = { warn: (message: string) => warnings.push(message) };

beforeEach(() => {
  store = new MemoryStore();
  collection = store.collection(SYSTEM_COLLECTIONS.persistedQueries);
  collection.documents.set(KNOWN_HASH, { _id: KNOWN_HASH, query: KNOWN, createdAt: '2026-01-01T00:00:00.000Z', source: 'manifest' });
  warnings = [];
});

function plugin(options: Partial<PersistedQueryPluginOptions> = {}) {
  return createPersistedQueryPlugin({ store, ...options });
}

const pq = (sha256Hash: string) => ({ persistedQuery: { version: 1, sha256Hash } });

/** What `queryOf` answers, as plain values: the query text and whether it will register, or the error's code and status. */
async function answer(persistedOnly: boolean, query: string | undefined, extensions: Record<string, unknown> | undefined) {
  const result = await plugin({ persistedOnly }).queryOf(query, extensions, logger);
  if ('error' in result) {
    const http = result.error.extensions.http as { status: number } | undefined;
    return { message: result.error.message, code: result.error.extensions.code, status: http?.status };
  }
  return { query: result.query, registers: result.registerOnceAccepted !== undefined };
}

const NO_QUERY = { message: 'the request has no query', code: 'BAD_REQUEST', status: undefined };
const notFound = { message: 'PersistedQueryNotFound', code: 'PERSISTED_QUERY_NOT_FOUND', status: 200 };
const notInList = (hash: string, status: 403 | 404) => ({
  message:
    status === 404
      ? `persisted query ${hash} is not in the persisted query list: this server runs only registered operations`
      : `this operation (SHA-256 ${hash}) is not in the persisted query list: this server runs only registered operations, and clients cannot register new ones`,
  code: 'PERSISTED_QUERY_NOT_IN_LIST',
  status,
});

describe('queryOf, clients may register', () => {
  test.each([
    ['a plain query', NEW, undefined, { query: NEW, registers: false }],
    ['a plain query with other extensions', NEW, { clientLibrary: { name: 'x' } }, { query: NEW, registers: false }],
    ['no query', undefined, undefined, NO_QUERY],
    ['an empty query', '', undefined, NO_QUERY],
    ['a query with version 1 and no hash', NEW, { persistedQuery: { version: 1 } }, { query: NEW, registers: false }],
    [
      'version 2',
      NEW,
      { persistedQuery: { version: 2, sha256Hash: NEW_HASH } },
      {
        message: 'Unsupported persisted query version: extensions.persistedQuery.version is 2; this server supports version 1',
        code: 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED',
        status: 400,
      },
    ],
    ['a stored hash alone', undefined, pq(KNOWN_HASH), { query: KNOWN, registers: false }],
    ['an unknown hash alone', undefined, pq(UNKNOWN_HASH), notFound],
    ['a new hash with its query', NEW, pq(NEW_HASH), { query: NEW, registers: true }],
    ['a stored hash with its query, not yet in memory', KNOWN, pq(KNOWN_HASH), { query: KNOWN, registers: true }],
  ])('%s', async (_label, query, extensions, expected) => {
    expect(await answer(false, query, extensions)).toEqual(expected);
    expect(warnings).toEqual([]);
  });

  test('a hash with its query that is in memory already does not register again', async () => {
    const persisted = plugin();
    expect(await persisted.queryOf(undefined, pq(KNOWN_HASH), logger)).toEqual({ query: KNOWN, registerOnceAccepted: undefined });
    expect(await persisted.queryOf(KNOWN, pq(KNOWN_HASH), logger)).toEqual({ query: KNOWN, registerOnceAccepted: undefined });
  });

  test('registerOnceAccepted stores the query, which later requests then find by hash', async () => {
    const persisted = plugin();
    const first = await persisted.queryOf(NEW, pq(NEW_HASH), logger);
    expect(collection.documents.has(NEW_HASH)).toBe(false);
    if (!('registerOnceAccepted' in first) || first.registerOnceAccepted === undefined) throw new Error('expected a registration');
    await first.registerOnceAccepted();
    expect(collection.documents.get(NEW_HASH)).toMatchObject({ _id: NEW_HASH, query: NEW, source: 'client' });
    expect(await plugin().queryOf(undefined, pq(NEW_HASH), logger)).toEqual({ query: NEW, registerOnceAccepted: undefined });
  });

  test('a registration the store refuses is logged, not thrown', async () => {
    const registration = await plugin().queryOf(NEW, pq(NEW_HASH), logger);
    store.unavailable = true;
    await (registration as { registerOnceAccepted: () => Promise<void> }).registerOnceAccepted();
    expect(warnings).toEqual([`persisted query ${NEW_HASH} was not stored: data store unavailable: the test made the store unavailable`]);
  });

  test('a registration that fails with a non-Error value logs that value', async () => {
    const registration = await plugin().queryOf(NEW, pq(NEW_HASH), logger);
    collection.insertMany = () => Promise.reject('disk quota');
    await (registration as { registerOnceAccepted: () => Promise<void> }).registerOnceAccepted();
    expect(warnings).toEqual([`persisted query ${NEW_HASH} was not stored: disk quota`]);
  });
});

describe('queryOf, safelist mode', () => {
  test.each([
    ['a registered query', KNOWN, undefined, { query: KNOWN, registers: false }],
    ['an unregistered query', NEW, undefined, notInList(NEW_HASH, 403)],
    ['an unregistered query with version 1 and no hash', NEW, { persistedQuery: { version: 1 } }, notInList(NEW_HASH, 403)],
    ['no query', undefined, undefined, NO_QUERY],
    ['an empty query', '', undefined, NO_QUERY],
    ['a registered hash alone', undefined, pq(KNOWN_HASH), { query: KNOWN, registers: false }],
    ['an unregistered hash alone', undefined, pq(UNKNOWN_HASH), notInList(UNKNOWN_HASH, 404)],
    ['a registered hash with its query', KNOWN, pq(KNOWN_HASH), { query: KNOWN, registers: false }],
    ['an unregistered hash with its query', NEW, pq(NEW_HASH), notInList(NEW_HASH, 403)],
  ])('%s', async (_label, query, extensions, expected) => {
    expect(await answer(true, query, extensions)).toEqual(expected);
    expect(collection.documents.size).toBe(1);
  });
});

describe('a failed lookup', () => {
  const unavailable = { message: 'persisted query lookup failed: data store unavailable: the test made the store unavailable', code: 'STORE_UNAVAILABLE', status: 503 };
  const internal = { message: 'persisted query lookup failed', code: 'INTERNAL_SERVER_ERROR', status: 500 };

  test.each([
    ['a hash alone', false, undefined, pq(KNOWN_HASH)],
    ['a plain query in safelist mode', true, KNOWN, undefined],
    ['a hash alone in safelist mode', true, undefined, pq(KNOWN_HASH)],
    ['a hash with its query in safelist mode', true, KNOWN, pq(KNOWN_HASH)],
  ])('when the store is unavailable, refuses %s with 503 and logs nothing', async (_label, persistedOnly, query, extensions) => {
    store.unavailable = true;
    expect(await answer(persistedOnly, query, extensions)).toEqual(unavailable);
    expect(warnings).toEqual([]);
  });

  test.each([
    ['a hash alone', false, undefined, pq(KNOWN_HASH)],
    ['a plain query in safelist mode', true, KNOWN, undefined],
    ['a hash with its query in safelist mode', true, KNOWN, pq(KNOWN_HASH)],
  ])('when the stored query is corrupt, refuses %s with 500 and logs why', async (_label, persistedOnly, query, extensions) => {
    collection.documents.set(KNOWN_HASH, { _id: KNOWN_HASH, query: NEW, createdAt: '2026-01-01T00:00:00.000Z' });
    expect(await answer(persistedOnly, query, extensions)).toEqual(internal);
    expect(warnings).toEqual([
      `persisted query lookup of ${KNOWN_HASH} failed: the stored persisted query ${KNOWN_HASH} in _autograph_persisted_queries is corrupt: ` +
        'its query is not a string whose SHA-256 is its _id',
    ]);
  });

  test('a store failing with a non-Error value is logged with that value', async () => {
    collection.find = () => Promise.reject('socket closed');
    expect(await answer(false, undefined, pq(KNOWN_HASH))).toEqual(internal);
    expect(warnings).toEqual([`persisted query lookup of ${KNOWN_HASH} failed: socket closed`]);
  });
});

/** Calls the plugin's `requestDidStart` as Apollo Server does, with the request and a logger. */
async function start(
  options: Partial<PersistedQueryPluginOptions>,
  request: GraphQLRequest,
  requestLogger = { warn: (message: string) => warnings.push(`request logger: ${message}`) },
) {
  const context = { request, logger: requestLogger, metrics: {} } as unknown as GraphQLRequestContext<BaseContext>;
  const listener = (await plugin(options).plugin.requestDidStart!(context)) as GraphQLRequestListener<BaseContext> | undefined;
  return { listener, context };
}

describe('the Apollo Server plugin', () => {
  test('an ordinary request passes untouched, with no listener', async () => {
    const extensions = { clientLibrary: { name: 'x' } };
    const request = { query: NEW, extensions };
    const { listener } = await start({}, request);
    expect(listener).toBeUndefined();
    expect(request).toEqual({ query: NEW, extensions: { clientLibrary: { name: 'x' } } });
    expect(request.extensions).toBe(extensions);
  });

  test.each([
    ['no extensions', undefined, undefined],
    ['no extension at all (an empty object)', {}, {}],
    ['a null persistedQuery', { persistedQuery: null }, { persistedQuery: null }],
    ['persistedQuery and another extension', { ...pq(KNOWN_HASH), clientLibrary: { name: 'x' } }, { clientLibrary: { name: 'x' } }],
    ['persistedQuery alone', pq(KNOWN_HASH), undefined],
  ])('extensions with %s: what Apollo Server sees afterwards', async (_label, extensions, after) => {
    const request: GraphQLRequest = { query: KNOWN, extensions };
    await start({}, request);
    expect(request.extensions).toEqual(after);
  });

  test('a stored hash alone: the request gets the stored text and the hit is recorded once the source is resolved', async () => {
    const request: GraphQLRequest = { extensions: pq(KNOWN_HASH) };
    const { listener, context } = await start({}, request);
    expect(request).toEqual({ query: KNOWN, extensions: undefined });
    expect(context.metrics).toEqual({});
    await listener!.didResolveSource!(context as never);
    expect(context.metrics).toEqual({ persistedQueryHit: true });
    expect(listener!.executionDidStart).toBeUndefined();
  });

  test('a new hash with its query is stored only once execution starts, and the registration is recorded', async () => {
    const request: GraphQLRequest = { query: NEW, extensions: pq(NEW_HASH) };
    const { listener, context } = await start({}, request);
    expect(request).toEqual({ query: NEW, extensions: undefined });
    await listener!.didResolveSource!(context as never);
    expect(context.metrics).toEqual({ persistedQueryRegister: true });
    expect(collection.documents.has(NEW_HASH)).toBe(false);
    await listener!.executionDidStart!(context as never);
    expect(collection.documents.get(NEW_HASH)).toMatchObject({ query: NEW, source: 'client' });
  });

  test('a refused request runs a placeholder and its error is thrown synchronously when the operation is resolved', async () => {
    const request: GraphQLRequest = { extensions: pq(UNKNOWN_HASH) };
    const { listener, context } = await start({}, request);
    expect(request).toEqual({ query: '{ __typename }', extensions: undefined });
    let thrown: unknown;
    try {
      void listener!.didResolveOperation!(context as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GraphQLError);
    expect((thrown as GraphQLError).extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(listener!.didResolveSource).toBeUndefined();
  });

  test('safelist mode refuses an unregistered query from a client but runs it when the service itself sent it', async () => {
    const client = await start({ persistedOnly: true }, { query: NEW });
    expect(client.listener?.didResolveOperation).toBeDefined();
    const trusted = markTrustedRequest<GraphQLRequest>({ query: NEW });
    expect((await start({ persistedOnly: true }, trusted)).listener).toBeUndefined();
    expect(trusted.query).toBe(NEW);
  });

  test("failures are logged to the request's logger, or to the configured one when given", async () => {
    collection.find = () => Promise.reject(new Error('socket closed'));
    await start({}, { extensions: pq(KNOWN_HASH) });
    expect(warnings).toEqual([`request logger: persisted query lookup of ${KNOWN_HASH} failed: socket closed`]);
    warnings = [];
    await start({ logger }, { extensions: pq(KNOWN_HASH) });
    expect(warnings).toEqual([`persisted query lookup of ${KNOWN_HASH} failed: socket closed`]);
  });
});

describe('registerManifest', () => {
  const manifest = (bodies: Array<[string, string]>) => ({
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: bodies.map(([name, body]) => ({ id: createHash('sha256').update(body).digest('hex'), name, type: 'query', body })),
  });

  test('counts the operations, the ones it stored and the ones stored before', async () => {
    const result = await plugin().registerManifest(manifest([['Known', 'query Known { known }'], ['A', 'query A { a }'], ['B', 'query B { b }']]));
    expect(result).toEqual({ operations: 3, added: 3, alreadyRegistered: 0 });
    expect(await plugin().registerManifest(manifest([['A', 'query A { a }'], ['C', 'query C { c }']]))).toEqual({ operations: 2, added: 1, alreadyRegistered: 1 });
  });

  test('applies maxQueryBytes to each body', async () => {
    await expect(plugin({ maxQueryBytes: 12 }).registerManifest(manifest([['A', 'query A { a }']]))).rejects.toMatchObject({
      name: 'ManifestError',
      problems: ['operations[0] (A): body is 13 bytes; persisted queries may be at most 12 bytes'],
    });
    expect(await plugin({ maxQueryBytes: 13 }).registerManifest(manifest([['A', 'query A { a }']]))).toEqual({ operations: 1, added: 1, alreadyRegistered: 0 });
  });
});

test('the registration limits reach the store: past maxRegisteredQueries the least recently registered query is evicted', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'autograph-plugin-cap-'));
  const embedded = await openEmbeddedStore(dataDir);
  try {
    const persisted = createPersistedQueryPlugin({ store: embedded, maxRegisteredQueries: 1 });
    for (const [query, hash] of [[KNOWN, KNOWN_HASH], [NEW, NEW_HASH]] as const) {
      const registration = await persisted.queryOf(query, pq(hash), logger);
      await (registration as { registerOnceAccepted: () => Promise<void> }).registerOnceAccepted();
    }
    const stored = await embedded.collection(SYSTEM_COLLECTIONS.persistedQueries).find({});
    expect(stored.map((document) => document._id)).toEqual([NEW_HASH]);
  } finally {
    await embedded.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
