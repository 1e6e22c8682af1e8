/**
 * The cap on client-registered persisted queries, over the real embedded store: which registrations a
 * sequence of registrations, uses and manifest uploads leaves in the store.
 */
import { rm } from 'node:fs/promises';
import { PersistedQueryCache, sha256Hex } from '../../src/persisted/index.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { SYSTEM_COLLECTIONS, type Store } from '../../src/store/port.js';
import { makeTempDir } from '../helpers/server.js';

/** `register x`: a client registers query x; `use x`: a hash-only lookup of x; `manifest x`: x on the safelist. */
type Step = `register ${string}` | `use ${string}` | `manifest ${string}`;

/** Query text of `name`, padded to 40 bytes so byte limits are easy to reckon. */
function queryOf(name: string): string {
  return `{ ${name} }`.padEnd(40, ' ');
}

let dataDir: string;
let store: Store;

beforeEach(async () => {
  dataDir = await makeTempDir('autograph-registration-cap-');
  store = await openEmbeddedStore(dataDir);
});

afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs `steps` on a new cache over the store; answers the names stored and in memory (of `known` and those named in steps). */
async function run(
  limits: { maxQueries: number; maxBytes: number },
  steps: Step[],
  known: string[] = [],
): Promise<{ stored: string[]; inMemory: string[] }> {
  const cache = new PersistedQueryCache(store, { maxEntries: 100, maxBytes: 100_000 }, limits);
  const names = new Set<string>(known);
  for (const step of steps) {
    const [action, name] = step.split(' ') as [string, string];
    names.add(name);
    const query = queryOf(name);
    if (action === 'register') await cache.register(sha256Hex(query), query);
    else if (action === 'use') expect(await cache.get(sha256Hex(query))).toBe(query);
    else await cache.registerAll([{ hash: sha256Hex(query), query }]);
  }
  const documents = await store.collection(SYSTEM_COLLECTIONS.persistedQueries).find({});
  const nameOf = new Map([...names].map((name) => [sha256Hex(queryOf(name)), name]));
  return {
    stored: documents.map((document) => nameOf.get(document._id)!).sort(),
    inMemory: [...names].filter((name) => cache.isRemembered(sha256Hex(queryOf(name)))).sort(),
  };
}

const BY_COUNT = { maxQueries: 3, maxBytes: 1_000_000 };

test.each<[string, { maxQueries: number; maxBytes: number }, Step[], string[]]>([
  ['up to the count limit, nothing is evicted', BY_COUNT, ['register a', 'register b', 'register c'], ['a', 'b', 'c']],
  ['past it, the oldest go, down to 90% of the limit (at least one)', BY_COUNT, ['register a', 'register b', 'register c', 'register d'], ['c', 'd']],
  ['a query used since it was registered outlives older unused ones', BY_COUNT,
    ['register a', 'register b', 'register c', 'use a', 'register d'], ['a', 'd']],
  ['uses between passes all count as used at the next pass, after the registrations before it', BY_COUNT,
    ['register a', 'register b', 'use a', 'register c', 'use b', 'register d'], ['a', 'b']],
  ['a limit of one keeps the latest registration', { maxQueries: 1, maxBytes: 1_000_000 }, ['register a', 'register b', 'register c'], ['c']],
  ['past the byte limit, the oldest go until 90% of it (40 bytes each, limit 100)', { maxQueries: 100, maxBytes: 100 },
    ['register a', 'register b', 'register c'], ['b', 'c']],
  ['exactly at the byte limit, nothing is evicted (40 bytes each, limit 80)', { maxQueries: 100, maxBytes: 80 }, ['register a', 'register b'], ['a', 'b']],
  ['an eviction pass goes down to 90% of the byte limit, not just under it (limit 200: keep at most 180)', { maxQueries: 100, maxBytes: 200 },
    ['register a', 'register b', 'register c', 'register d', 'register e', 'register f'], ['c', 'd', 'e', 'f']],
  ['a pass stops once exactly at 90% of the byte limit (limit 178: keep at most 160)', { maxQueries: 100, maxBytes: 178 },
    ['register a', 'register b', 'register c', 'register d', 'register e'], ['b', 'c', 'd', 'e']],
  ['manifest queries are neither counted nor evicted', BY_COUNT,
    ['manifest m1', 'manifest m2', 'manifest m3', 'register a', 'register b', 'register c', 'register d'], ['c', 'd', 'm1', 'm2', 'm3']],
  ['a manifest promotes only the client registrations it lists', BY_COUNT,
    ['register a', 'register b', 'manifest a', 'register c', 'register d', 'register e'], ['a', 'd', 'e']],
  ['a client registration that a manifest then lists is never evicted', BY_COUNT,
    ['register a', 'manifest a', 'register b', 'register c', 'register d', 'register e'], ['a', 'd', 'e']],
])('%s', async (_title, limits, steps, expected) => {
  const { stored, inMemory } = await run(limits, steps);
  expect(stored).toEqual(expected);
  // What was evicted from the store is gone from memory too.
  expect(inMemory).toEqual(expected);
});

test('a new instance over the same store counts what is already stored', async () => {
  await run(BY_COUNT, ['register a', 'register b', 'register c']);
  expect((await run(BY_COUNT, ['register d'], ['a', 'b', 'c'])).stored).toEqual(['c', 'd']);
});

test('a client registration stored without a byte count counts as 0 bytes, and still as one query', async () => {
  const legacy = queryOf('legacy');
  await store.collection(SYSTEM_COLLECTIONS.persistedQueries).insertMany([{ _id: sha256Hex(legacy), query: legacy, source: 'client', lastUsedAt: 0 }]);
  // 3 × 40 bytes pass the limit of 100: the oldest go (legacy first, its 0 bytes freeing nothing) until 80 bytes.
  const { stored } = await run({ maxQueries: 100, maxBytes: 100 }, ['register a', 'register b', 'register c'], ['legacy']);
  expect(stored).toEqual(['b', 'c']);
});

test.each<[number, { maxQueries: number; maxBytes: number }, Step[], string[]]>([
  // Counted as Infinity, it would pass the limit and take the others with it.
  [Number.POSITIVE_INFINITY, { maxQueries: 100, maxBytes: 1_000 }, ['register a', 'register b'], ['a', 'b', 'legacy']],
  // Counted as NaN, no byte total would ever pass the limit.
  [Number.NaN, { maxQueries: 100, maxBytes: 100 }, ['register a', 'register b', 'register c'], ['b', 'c']],
])('a stored byte count of %s (MongoDB can hold one, unlike JSON) counts as 0 bytes', async (bytes, limits, steps, expected) => {
  const legacy = queryOf('legacy');
  await store.collection(SYSTEM_COLLECTIONS.persistedQueries).insertMany([{ _id: sha256Hex(legacy), query: legacy, source: 'client', bytes: 0, lastUsedAt: 0 }]);
  // The embedded store keeps only finite numbers, so the non-finite count is put into what its reads answer.
  const embedded = store;
  const withNonFiniteCount = Object.create(embedded) as Store;
  withNonFiniteCount.collection = (name) => {
    const real = embedded.collection(name);
    const altered = Object.create(real) as typeof real;
    altered.find = async (filter, options) => (await real.find(filter, options))
      .map((document) => (document._id === sha256Hex(legacy) ? { ...document, bytes } : document));
    return altered;
  };
  store = withNonFiniteCount;
  try {
    expect((await run(limits, steps, ['legacy'])).stored).toEqual(expected);
  } finally {
    store = embedded;
  }
});

test('a registration that a racing instance stored first is not counted again, so it starts no eviction pass', async () => {
  await run({ maxQueries: 1, maxBytes: 1_000_000 }, ['register x']);
  // Another instance stores the same query just before this one's insert, which then fails as a duplicate.
  const racing = Object.create(store) as Store;
  racing.collection = (name) => {
    const real = store.collection(name);
    const raced = Object.create(real) as typeof real;
    raced.insertMany = async (documents) => {
      await real.insertMany(documents);
      return real.insertMany(documents);
    };
    return raced;
  };
  const y = queryOf('y');
  const cache = new PersistedQueryCache(racing, { maxEntries: 100, maxBytes: 100_000 }, { maxQueries: 1, maxBytes: 1_000_000 });
  expect(await cache.register(sha256Hex(y), y)).toBe(false);
  const stored = await store.collection(SYSTEM_COLLECTIONS.persistedQueries).find({});
  expect(stored.map((document) => document.query).sort()).toEqual([queryOf('x'), y]);
});

test('a client registration that a manifest lists is then stored as the manifest\'s, the others stay the client\'s', async () => {
  await run(BY_COUNT, ['register a', 'register b', 'manifest a', 'manifest m']);
  const documents = await store.collection(SYSTEM_COLLECTIONS.persistedQueries).find({}, { projection: { query: 1, source: 1 } });
  const sources = Object.fromEntries(documents.map((document) => [document.query, document.source]));
  expect(sources).toEqual({ [queryOf('a')]: 'manifest', [queryOf('b')]: 'client', [queryOf('m')]: 'manifest' });
});
