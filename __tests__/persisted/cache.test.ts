import { createHash } from 'node:crypto';
import { PersistedQueryCache, sha256Hex } from '../../src/persisted/index.js';
import { DuplicateKeyError, SYSTEM_COLLECTIONS } from '../../src/store/port.js';
import { MemoryStore, type MemoryCollection } from './memory-store.js';

const queries = ['{ a }', '{ b }', '{ c }'].map((query) => ({ query, hash: sha256Hex(query) }));
const [a, b, c] = queries as [(typeof queries)[0], (typeof queries)[0], (typeof queries)[0]];

let store: MemoryStore;
let collection: MemoryCollection;

beforeEach(() => {
  store = new MemoryStore();
  collection = store.collection(SYSTEM_COLLECTIONS.persistedQueries);
});

function newCache(limits = { maxEntries: 100, maxBytes: 1_000_000 }): PersistedQueryCache {
  return new PersistedQueryCache(store, limits);
}

test('a registered query is found in memory; a new cache over the same store finds it in the store', async () => {
  const first = newCache();
  expect(await first.register(a.hash, a.query)).toBe(true);
  expect(await first.get(a.hash)).toBe(a.query);
  expect(first.stats()).toMatchObject({ memoryHits: 1, storeHits: 0, misses: 0, entries: 1 });

  const second = newCache();
  expect(await second.get(a.hash)).toBe(a.query);
  expect(await second.get(a.hash)).toBe(a.query);
  expect(second.stats()).toMatchObject({ memoryHits: 1, storeHits: 1, misses: 0 });
  expect(collection.findCalls).toBe(1);
});

test('an unknown hash is a miss and asks the store every time (another instance may register it)', async () => {
  const cache = newCache();
  expect(await cache.get(a.hash)).toBeUndefined();
  await newCache().register(a.hash, a.query);
  expect(await cache.get(a.hash)).toBe(a.query);
  expect(cache.stats()).toMatchObject({ misses: 1, storeHits: 1 });
});

test('past maxEntries the least recently used query leaves memory and is then found in the store', async () => {
  const cache = newCache({ maxEntries: 2, maxBytes: 1_000_000 });
  for (const { hash, query } of queries) await cache.register(hash, query);
  expect(cache.isRemembered(a.hash)).toBe(false);
  expect(cache.isRemembered(c.hash)).toBe(true);
  const findsBefore = collection.findCalls;
  expect(await cache.get(a.hash)).toBe(a.query);
  expect(collection.findCalls).toBe(findsBefore + 1);
  expect(cache.stats()).toMatchObject({ storeHits: 1, entries: 2 });
  expect(cache.isRemembered(a.hash)).toBe(true);
  expect(cache.isRemembered(b.hash)).toBe(false);
});

test('past maxBytes queries leave memory by size: text bytes plus the 64-byte hash', async () => {
  const sized = [0, 1, 2].map((index) => `{ ${'x'.repeat(99)}${index} }`);
  const entryBytes = 64 + Buffer.byteLength(sized[0]!);
  const cache = newCache({ maxEntries: 100, maxBytes: 2 * entryBytes });
  for (const query of sized) await cache.register(sha256Hex(query), query);
  expect(cache.stats()).toMatchObject({ entries: 2, bytes: 2 * entryBytes });
  expect(cache.isRemembered(sha256Hex(sized[0]!))).toBe(false);
  expect(await cache.get(sha256Hex(sized[0]!))).toBe(sized[0]);
  expect(cache.stats()).toMatchObject({ storeHits: 1 });
});

test('concurrent lookups of one cold hash share a single store round trip', async () => {
  await newCache().register(a.hash, a.query);
  const cache = newCache();
  const findsBefore = collection.findCalls;
  const found = await Promise.all([cache.get(a.hash), cache.get(a.hash), cache.get(a.hash)]);
  expect(found).toEqual([a.query, a.query, a.query]);
  expect(collection.findCalls).toBe(findsBefore + 1);
});

test('a duplicate insert from a racing instance counts as already registered', async () => {
  const cache = newCache();
  collection.beforeNextInsert = () => {
    collection.documents.set(a.hash, { _id: a.hash, query: a.query, createdAt: new Date().toISOString() });
  };
  expect(await cache.register(a.hash, a.query)).toBe(false);
  expect(cache.isRemembered(a.hash)).toBe(true);
  expect(collection.documents.size).toBe(1);
});

test('a query already in memory is not written again', async () => {
  const cache = newCache();
  await cache.register(a.hash, a.query);
  expect(await cache.register(a.hash, a.query)).toBe(false);
  expect(collection.insertCalls).toBe(1);
});

test('a stored document whose query does not hash to its _id is refused, never returned', async () => {
  collection.documents.set(a.hash, { _id: a.hash, query: b.query, createdAt: new Date().toISOString() });
  await expect(newCache().get(a.hash)).rejects.toThrow(`the stored persisted query ${a.hash} in _autograph_persisted_queries is corrupt`);
});

describe('registerAll', () => {
  test('stores the missing queries in one insert and counts the ones stored before', async () => {
    const cache = newCache();
    await cache.register(a.hash, a.query);
    const insertsBefore = collection.insertCalls;
    expect(await cache.registerAll(queries)).toEqual({ added: 2, existing: 1 });
    expect(collection.insertCalls).toBe(insertsBefore + 1);
    expect([...collection.documents.keys()].sort()).toEqual(queries.map((entry) => entry.hash).sort());
    // The client's registration is now the administrator's too.
    expect(collection.documents.get(a.hash)).toMatchObject({ source: 'manifest' });
    expect(await cache.get(a.hash, { manifestOnly: true })).toBe(a.query);
  });

  test('stores nothing when the insert fails', async () => {
    const cache = newCache();
    collection.beforeNextInsert = () => {
      store.unavailable = true;
    };
    await expect(cache.registerAll(queries)).rejects.toThrow('data store unavailable');
    expect(collection.documents.size).toBe(0);
    store.unavailable = false;
    expect(await cache.get(a.hash)).toBeUndefined();
  });

  test('when another instance stores some meanwhile, inserts the rest again', async () => {
    const cache = newCache();
    collection.beforeNextInsert = () => {
      collection.documents.set(b.hash, { _id: b.hash, query: b.query, createdAt: new Date().toISOString() });
    };
    expect(await cache.registerAll(queries)).toEqual({ added: 2, existing: 1 });
    expect(collection.documents.size).toBe(3);
  });
});

describe('what is stored and held', () => {
  const accented = { query: '{ café }', hash: createHash('sha256').update('{ café }').digest('hex') };

  test('without registration limits a registration is stored as hash, text, time and client source only', async () => {
    await newCache().register(accented.hash, accented.query);
    const stored = collection.documents.get(accented.hash)!;
    expect(Object.keys(stored).sort()).toEqual(['_id', 'createdAt', 'query', 'source']);
    expect(stored).toMatchObject({ _id: accented.hash, query: accented.query, source: 'client' });
    expect(new Date(stored.createdAt as string).toISOString()).toBe(stored.createdAt);
  });

  test('with registration limits it is marked as a client registration with its UTF-8 size', async () => {
    const cache = new PersistedQueryCache(store, { maxEntries: 10, maxBytes: 10_000 }, { maxQueries: 10, maxBytes: 10_000 });
    collection.documents.set(b.hash, { _id: b.hash, query: b.query, createdAt: '2026-01-01T00:00:00.000Z', source: 'client', bytes: 5, lastUsedAt: 0 });
    // The first registration makes the cap count the store, which this test double cannot: give it the count.
    collection.find = (async () => [{ _id: b.hash, bytes: 5 }]) as typeof collection.find;
    expect(await cache.register(accented.hash, accented.query)).toBe(true);
    expect(collection.documents.get(accented.hash)).toMatchObject({ source: 'client', bytes: 9 });
    expect(typeof collection.documents.get(accented.hash)!.lastUsedAt).toBe('number');
  });

  test('memory counts UTF-8 bytes plus the hash', async () => {
    const cache = newCache();
    await cache.register(accented.hash, accented.query);
    expect(cache.stats()).toEqual({ memoryHits: 0, storeHits: 0, misses: 0, entries: 1, bytes: 9 + 64 });
  });

  test('a registration the store refuses propagates and is not held in memory', async () => {
    const cache = newCache();
    store.unavailable = true;
    await expect(cache.register(a.hash, a.query)).rejects.toThrow('data store unavailable: the test made the store unavailable');
    expect(cache.isRemembered(a.hash)).toBe(false);
  });

  test('a stored document whose query is not a string is refused with the whole reason', async () => {
    collection.documents.set(a.hash, { _id: a.hash, query: 42, createdAt: '2026-01-01T00:00:00.000Z' });
    const cache = newCache();
    await expect(cache.get(a.hash)).rejects.toThrow(
      new Error(`the stored persisted query ${a.hash} in _autograph_persisted_queries is corrupt: its query is not a string whose SHA-256 is its _id`),
    );
    expect(cache.isRemembered(a.hash)).toBe(false);
    expect(cache.stats()).toMatchObject({ storeHits: 0, misses: 0 });
  });
});

describe('registerAll, more', () => {
  test('stores new queries as manifest registrations and holds every listed query in memory', async () => {
    const cache = newCache();
    expect(await cache.registerAll([a, b])).toEqual({ added: 2, existing: 0 });
    expect(collection.documents.get(a.hash)).toMatchObject({ _id: a.hash, query: a.query, source: 'manifest' });
    expect(cache.isRemembered(a.hash) && cache.isRemembered(b.hash)).toBe(true);
  });

  test('a query listed twice is stored once', async () => {
    expect(await newCache().registerAll([a, a, b])).toEqual({ added: 2, existing: 0 });
  });

  test('when everything is stored already, writes nothing', async () => {
    await newCache().registerAll(queries);
    const insertsBefore = collection.insertCalls;
    const cache = newCache();
    expect(await cache.registerAll(queries)).toEqual({ added: 0, existing: 3 });
    expect(collection.insertCalls).toBe(insertsBefore);
    expect(queries.every((entry) => cache.isRemembered(entry.hash))).toBe(true);
  });

  test('gives up after three inserts that collide with racing instances', async () => {
    let inserts = 0;
    collection.insertMany = async () => {
      inserts += 1;
      throw new DuplicateKeyError(SYSTEM_COLLECTIONS.persistedQueries, '_id', a.hash);
    };
    await expect(newCache().registerAll(queries)).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(inserts).toBe(3);
  });

  test('does not retry an insert that failed for another reason than a duplicate', async () => {
    let inserts = 0;
    collection.insertMany = async () => {
      inserts += 1;
      throw new Error('disk full');
    };
    await expect(newCache().registerAll(queries)).rejects.toThrow(new Error('disk full'));
    expect(inserts).toBe(1);
  });

  test('succeeds on the third insert', async () => {
    let inserts = 0;
    const insert = collection.insertMany.bind(collection);
    collection.insertMany = async (documents) => {
      inserts += 1;
      if (inserts < 3) throw new DuplicateKeyError(SYSTEM_COLLECTIONS.persistedQueries, '_id', a.hash);
      return insert(documents);
    };
    expect(await newCache().registerAll(queries)).toEqual({ added: 3, existing: 0 });
  });
});

describe('manifestOnly (safelist mode): only an administrator\'s registrations count', () => {
  const storedAs = (entry: { hash: string; query: string }, source?: unknown) => {
    collection.documents.set(entry.hash, { _id: entry.hash, query: entry.query, createdAt: '2026-01-01T00:00:00.000Z', ...(source === undefined ? {} : { source }) });
  };

  test('a client registration in the store is not found; a manifest one, or one stored before sources were recorded, is', async () => {
    storedAs(a, 'client');
    storedAs(b, 'manifest');
    storedAs(c);
    const cache = newCache();
    expect(await cache.get(a.hash, { manifestOnly: true })).toBeUndefined();
    expect(await cache.get(b.hash, { manifestOnly: true })).toBe(b.query);
    expect(await cache.get(c.hash, { manifestOnly: true })).toBe(c.query);
    // Without manifestOnly, any registration counts (memory now holds all three).
    expect(await cache.get(a.hash)).toBe(a.query);
    expect(cache.stats()).toMatchObject({ memoryHits: 1, storeHits: 3, misses: 0 });
  });

  test('a source other than client or manifest is not an administrator\'s', async () => {
    storedAs(a, 'something-else');
    expect(await newCache().get(a.hash, { manifestOnly: true })).toBeUndefined();
  });

  test('a client registration held in memory is looked up in the store again each time, and found once promoted', async () => {
    storedAs(a, 'client');
    const cache = newCache();
    expect(await cache.get(a.hash)).toBe(a.query);
    expect(cache.isRemembered(a.hash)).toBe(true);
    const findsBefore = collection.findCalls;
    expect(await cache.get(a.hash, { manifestOnly: true })).toBeUndefined();
    expect(await cache.get(a.hash, { manifestOnly: true })).toBeUndefined();
    expect(collection.findCalls).toBe(findsBefore + 2);
    // Another instance's manifest upload promotes it in the store.
    collection.documents.get(a.hash)!.source = 'manifest';
    expect(await cache.get(a.hash, { manifestOnly: true })).toBe(a.query);
    // Now held as the administrator's: answered from memory.
    expect(await cache.get(a.hash, { manifestOnly: true })).toBe(a.query);
    expect(collection.findCalls).toBe(findsBefore + 3);
  });

  test('a registration by a cache without registration limits is a client\'s too: not found, in memory or by another cache', async () => {
    const cache = newCache();
    await cache.register(a.hash, a.query);
    expect(await cache.get(a.hash, { manifestOnly: true })).toBeUndefined();
    expect(await newCache().get(a.hash, { manifestOnly: true })).toBeUndefined();
  });

  test('a client registration held in memory while in the store already as a manifest one is found in the store', async () => {
    const cache = newCache();
    collection.beforeNextInsert = () => storedAs(a, 'manifest');
    expect(await cache.register(a.hash, a.query)).toBe(false);
    expect(await cache.get(a.hash, { manifestOnly: true })).toBe(a.query);
  });

  test('registerAll holds its queries as an administrator\'s: found from memory, no store lookup', async () => {
    const cache = newCache();
    await cache.registerAll([a]);
    const findsBefore = collection.findCalls;
    expect(await cache.get(a.hash, { manifestOnly: true })).toBe(a.query);
    expect(collection.findCalls).toBe(findsBefore);
  });

  test('a registration without manifestOnly is answered from memory, whatever its source', async () => {
    storedAs(a, 'client');
    const cache = newCache();
    await cache.get(a.hash);
    const findsBefore = collection.findCalls;
    expect(await cache.get(a.hash)).toBe(a.query);
    expect(collection.findCalls).toBe(findsBefore);
  });
});
