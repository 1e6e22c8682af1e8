/**
 * Over the real embedded store: a registered hash survives a restart on the same data folder, and a
 * hash evicted from the LRU is found again in the store.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../../src/persisted/index.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Store } from '../../src/store/port.js';
import { startHarness, type Harness } from './harness.js';
import { apq, getGraphQL, postGraphQL } from './http-client.js';

const HELLO = 'query Hello($name: String) { hello(name: $name) }';
const COUNTER = 'query Counter { counter }';

let dataDir: string;
const open: { store?: Store; harness?: Harness } = {};

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'autograph-persisted-'));
});

afterEach(async () => {
  await open.harness?.close();
  await open.store?.close();
  open.harness = undefined;
  open.store = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

async function start(options: { lruMaxEntries?: number; persistedOnly?: boolean } = {}): Promise<Harness> {
  open.store = await openEmbeddedStore(dataDir);
  open.harness = await startHarness({ store: open.store, ...options });
  return open.harness;
}

async function stop(): Promise<void> {
  await open.harness?.close();
  await open.store?.close();
  open.harness = undefined;
  open.store = undefined;
}

test('a hash registered before a restart on the same data folder runs after it, read from the store', async () => {
  const before = await start();
  expect((await postGraphQL(before.url, { query: HELLO, extensions: apq(sha256Hex(HELLO)) })).body).toEqual({ data: { hello: 'hello world' } });
  await stop();

  const after = await start();
  const result = await getGraphQL(after.url, { variables: { name: 'again' }, extensions: apq(sha256Hex(HELLO)) });
  expect(result.body).toEqual({ data: { hello: 'hello again' } });
  expect(after.persisted.cache.stats()).toMatchObject({ storeHits: 1, misses: 0 });
});

test('a safelist uploaded before a restart still applies after it', async () => {
  const before = await start({ persistedOnly: true });
  await before.persisted.registerManifest({
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: [{ id: sha256Hex(COUNTER), name: 'Counter', type: 'query', body: COUNTER }],
  });
  await stop();

  const after = await start({ persistedOnly: true });
  expect((await getGraphQL(after.url, { extensions: apq(sha256Hex(COUNTER)) })).body).toEqual({ data: { counter: 0 } });
  expect((await postGraphQL(after.url, { query: HELLO })).status).toBe(403);
});

test('a hash evicted from the LRU is found in the store', async () => {
  const harness = await start({ lruMaxEntries: 1 });
  await postGraphQL(harness.url, { query: HELLO, extensions: apq(sha256Hex(HELLO)) });
  await postGraphQL(harness.url, { query: COUNTER, extensions: apq(sha256Hex(COUNTER)) });
  expect(harness.persisted.cache.isRemembered(sha256Hex(HELLO))).toBe(false);

  const result = await getGraphQL(harness.url, { extensions: apq(sha256Hex(HELLO)) });
  expect(result.body).toEqual({ data: { hello: 'hello world' } });
  expect(harness.persisted.cache.stats()).toMatchObject({ storeHits: 1, entries: 1 });
  expect(harness.persisted.cache.isRemembered(sha256Hex(HELLO))).toBe(true);
});
