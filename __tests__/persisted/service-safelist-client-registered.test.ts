/**
 * Safelist mode and the queries clients registered (APQ, stored with `source: 'client'`) while the service
 * ran without it, through the real service over HTTP. Only an administrator's registrations run in safelist
 * mode (README, "Safelist mode"): a client's hash answers as an unregistered one does, by hash (404) and
 * sent in full (403), until a manifest upload lists it.
 */
import { sha256Hex } from '../../src/persisted/index.js';
import type { Store } from '../../src/store/port.js';
import type { TestServer } from '../helpers/server.js';
import { overriding } from '../helpers/store-wrap.js';
import { apq, getGraphQL, manifestOf, postGraphQL, uploadManifest, type HttpResult } from './http-client.js';
import { ADD, COUNT, LIST, startService, storedQueries } from './service-fixture.js';

const ADMIN_TOKEN = 'client-registered-admin-token';
const LIST_HASH = sha256Hex(LIST);
const BY_HASH_MESSAGE = `persisted query ${LIST_HASH} is not in the persisted query list: this server runs only registered operations`;
const FULL_TEXT_MESSAGE =
  `this operation (SHA-256 ${LIST_HASH}) is not in the persisted query list: this server runs only registered operations, ` +
  'and clients cannot register new ones';
const ONE_TASK = { data: { queryTask: [{ title: 'first', done: false }] } };

let service: TestServer | undefined;
let other: TestServer | undefined;

afterEach(async () => {
  await other?.close();
  other = undefined;
  await service?.close();
  service = undefined;
});

function expectRefused(result: HttpResult, status: number, message: string): void {
  expect(result.status).toBe(status);
  expect(result.body).toEqual({ errors: [{ message, extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }] });
}

/** Every way a client may ask for LIST: refused as if it had never been registered. */
async function expectListRefused(url: string): Promise<void> {
  const byHashGet = await getGraphQL(url, { extensions: apq(LIST_HASH) });
  expectRefused(byHashGet, 404, BY_HASH_MESSAGE);
  expect(byHashGet.headers.get('cache-control')).toBe('private, no-cache, must-revalidate');
  expectRefused(await postGraphQL(url, { extensions: apq(LIST_HASH) }), 404, BY_HASH_MESSAGE);
  // Upper-case hex names the same hash.
  expectRefused(await getGraphQL(url, { extensions: apq(LIST_HASH.toUpperCase()) }), 404, BY_HASH_MESSAGE);
  expectRefused(await postGraphQL(url, { query: LIST }), 403, FULL_TEXT_MESSAGE);
  expectRefused(await postGraphQL(url, { query: LIST, extensions: apq(LIST_HASH) }), 403, FULL_TEXT_MESSAGE);
  expectRefused(await getGraphQL(url, { query: LIST }), 403, FULL_TEXT_MESSAGE);
  expectRefused(await getGraphQL(url, { query: LIST, extensions: apq(LIST_HASH) }), 403, FULL_TEXT_MESSAGE);
}

/** Every way a client may ask for LIST: it runs. */
async function expectListRuns(url: string): Promise<void> {
  expect(await getGraphQL(url, { extensions: apq(LIST_HASH) })).toMatchObject({ status: 200, body: ONE_TASK });
  expect(await postGraphQL(url, { extensions: apq(LIST_HASH) })).toMatchObject({ status: 200, body: ONE_TASK });
  expect(await postGraphQL(url, { query: LIST })).toMatchObject({ status: 200, body: ONE_TASK });
  expect(await postGraphQL(url, { query: LIST, extensions: apq(LIST_HASH) })).toMatchObject({ status: 200, body: ONE_TASK });
}

/** Outside safelist mode: a task to list, and LIST registered by a client through APQ. */
async function registerListAsClient(url: string, store: Store): Promise<void> {
  expect((await postGraphQL(url, { query: ADD, variables: { title: 'first' } })).body).toEqual({ data: { addTask: { numUids: 1 } } });
  expect(await getGraphQL(url, { extensions: apq(LIST_HASH) })).toMatchObject({ status: 200, body: { errors: [{ message: 'PersistedQueryNotFound' }] } });
  expect(await postGraphQL(url, { query: LIST, extensions: apq(LIST_HASH) })).toMatchObject({ status: 200, body: ONE_TASK });
  expect((await storedQueries(store)).get(LIST_HASH)).toMatchObject({ query: LIST, source: 'client' });
  expect(await getGraphQL(url, { extensions: apq(LIST_HASH) })).toMatchObject({ status: 200, body: ONE_TASK });
}

test('restarted in safelist mode, a query a client registered before does not run until a manifest lists it', async () => {
  service = await startService({ adminToken: ADMIN_TOKEN });
  await registerListAsClient(service.url, service.store);

  service = await service.restart({ persistedQueries: { persistedOnly: true } });
  expect(service.app.persistedQueries.settings.persistedOnly).toBe(true);
  await expectListRefused(service.url);
  // The refused lookups left the client's registration in memory: it is refused from there as well.
  expect(service.app.persistedQueries.cache.isRemembered(LIST_HASH)).toBe(true);
  await expectListRefused(service.url);
  // Refusing changed nothing: still the client's registration, and nothing else was stored.
  const stored = await storedQueries(service.store);
  expect([...stored.keys()]).toEqual([LIST_HASH]);
  expect(stored.get(LIST_HASH)).toMatchObject({ source: 'client' });

  const upload = await uploadManifest(service.url, manifestOf([{ name: 'List', type: 'query', body: LIST }]), ADMIN_TOKEN);
  expect(upload).toEqual({ status: 200, body: { data: { message: 'persisted query manifest registered', operations: 1, added: 0, alreadyRegistered: 1 } } });
  expect((await storedQueries(service.store)).get(LIST_HASH)).toMatchObject({ source: 'manifest' });
  await expectListRuns(service.url);
  // Other operations stay refused.
  expect((await postGraphQL(service.url, { query: COUNT })).status).toBe(403);

  // Promoted in the store, so it also runs after another restart (found in the store, not in memory).
  service = await service.restart();
  expect(service.app.persistedQueries.cache.isRemembered(LIST_HASH)).toBe(false);
  await expectListRuns(service.url);
});

test('turning safelist mode off again: the client registration runs as before', async () => {
  service = await startService();
  await registerListAsClient(service.url, service.store);
  service = await service.restart({ persistedQueries: { persistedOnly: true } });
  await expectListRefused(service.url);
  service = await service.restart({ persistedQueries: { persistedOnly: false } });
  await expectListRuns(service.url);
});

/** The same store for a second service, which must not close it: the first one does. */
function borrowed(store: Store): Store {
  return overriding(store, { close: async () => undefined });
}

test('an instance in safelist mode beside one without it: what clients register on the other never runs on it; a manifest upload on the other does', async () => {
  service = await startService({ adminToken: ADMIN_TOKEN });
  other = await startService({ store: borrowed(service.store), adminToken: ADMIN_TOKEN, persistedQueries: { persistedOnly: true } });
  await registerListAsClient(service.url, service.store);

  await expectListRefused(other.url);
  expect(other.app.persistedQueries.cache.isRemembered(LIST_HASH)).toBe(true);
  await expectListRefused(other.url);
  // The instance without safelist mode runs it, as before.
  await expectListRuns(service.url);

  // The administrator uploads the manifest to the first instance: the safelist instance, which holds the
  // client's registration in memory, sees the promotion in the store.
  const upload = await uploadManifest(service.url, manifestOf([{ name: 'List', type: 'query', body: LIST }]), ADMIN_TOKEN);
  expect(upload.status).toBe(200);
  expect(upload.body).toMatchObject({ data: { added: 0, alreadyRegistered: 1 } });
  await expectListRuns(other.url);
});
