/**
 * The cap on client-registered persisted queries through the real service: registering past it evicts
 * the least recently used, an evicted hash answers PERSISTED_QUERY_NOT_FOUND and registers again, and
 * manifest (safelist) queries are never evicted.
 */
import { sha256Hex } from '../../src/persisted/index.js';
import type { TestServer } from '../helpers/server.js';
import { apq, getGraphQL, manifestOf, postGraphQL, uploadManifest } from './http-client.js';
import { LIST, startService, storedQueries } from './service-fixture.js';

const CAP = 10;

/** Distinct queries, as many clients with their own operations would send. */
function queryNumber(i: number): string {
  return `query Q${i} { queryTask(first: ${i + 1}) { title } }`;
}

let service: TestServer;

beforeEach(async () => {
  service = await startService({ persistedQueries: { maxRegisteredQueries: CAP } });
});

afterEach(async () => {
  await service.close();
});

async function register(query: string): Promise<void> {
  const result = await postGraphQL(service.url, { query, extensions: apq(sha256Hex(query)) });
  expect(result.status).toBe(200);
  expect(result.body).toEqual({ data: { queryTask: [] } });
}

async function hashOnly(query: string) {
  return getGraphQL(service.url, { extensions: apq(sha256Hex(query)) });
}

async function clientRegistered(): Promise<string[]> {
  const stored = await storedQueries(service.store);
  return [...stored.values()].filter((document) => document.source === 'client').map((document) => document.query);
}

test('registering past the cap evicts the least recently used; an evicted hash is not found and registers again', async () => {
  const manifest = await uploadManifest(service.url, manifestOf([{ name: 'List', type: 'query', body: LIST }]));
  expect(manifest.status).toBe(200);
  for (let i = 0; i < CAP; i += 1) await register(queryNumber(i));
  expect(await clientRegistered()).toHaveLength(CAP);

  // Q0 is used, so Q1 and Q2 are the least recently used when Q10 passes the cap (down to 90%: 9 stay).
  expect((await hashOnly(queryNumber(0))).body).toEqual({ data: { queryTask: [] } });
  await register(queryNumber(CAP));
  expect((await clientRegistered()).sort()).toEqual([0, 3, 4, 5, 6, 7, 8, 9, 10].map(queryNumber).sort());

  const evicted = await hashOnly(queryNumber(1));
  expect(evicted.status).toBe(200);
  expect(evicted.body).toEqual({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });

  await register(queryNumber(1));
  expect((await hashOnly(queryNumber(1))).body).toEqual({ data: { queryTask: [] } });
  expect((await hashOnly(queryNumber(0))).body).toEqual({ data: { queryTask: [] } });
});

test('a flood of registrations keeps at most the cap in the store; manifest queries are never evicted', async () => {
  await uploadManifest(service.url, manifestOf([{ name: 'List', type: 'query', body: LIST }]));
  for (let i = 0; i < 5 * CAP; i += 1) await register(queryNumber(i));

  const stored = await storedQueries(service.store);
  expect([...stored.values()].filter((document) => document.source === 'client').length).toBeLessThanOrEqual(CAP);
  expect(stored.get(sha256Hex(LIST))).toMatchObject({ query: LIST, source: 'manifest' });
  expect((await hashOnly(LIST)).body).toEqual({ data: { queryTask: [] } });
  // The latest registration is always kept.
  expect((await hashOnly(queryNumber(5 * CAP - 1))).body).toEqual({ data: { queryTask: [] } });
});
