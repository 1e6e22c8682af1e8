/**
 * Every stored activation is kept in the schema history (`GET /admin/schema/history`), and any revision can
 * be activated again (`POST /admin/schema/history/<n>/activate`) through the same path as an upload, so
 * other instances over the same store follow it as an ordinary schema change.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../../src/store/port';
import { loadLambda } from '../custom-e2e/lambda-upload';
import { activateSchema, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { overriding } from '../helpers/store-wrap';
import { getHistory, postSchema, rollback, servedSchema } from './admin-http';

const V1 = 'type Note {\n  id: ID!\n  text: String\n}\n';
const V2 = 'type Note {\n  id: ID!\n  text: String\n  pinned: Boolean\n}\n';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let server: TestServer;
let second: TestServer | undefined;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await second?.close();
  second = undefined;
  await server.close();
});

/** The same store for a second service, which must not close it: the first one does. */
function borrowed(store: Store): Store {
  return overriding(store, { close: async () => undefined });
}

test('the history lists every activation, newest first, with revision, time and hash, and marks the active one', async () => {
  expect((await getHistory(server.url)).body).toEqual({ data: { active: null, revisions: [] } });
  const before = Date.now();
  const first = await postSchema(server.url, V1);
  expect(first.body.data.revision).toBe(1);
  await activateSchema(server.url, V2);

  const { status, body } = await getHistory(server.url);
  expect(status).toBe(200);
  expect(body.data.active).toBe(2);
  expect(body.data.revisions).toEqual([
    { revision: 2, hash: sha256(V2), activatedAt: expect.stringMatching(ISO_TIME) },
    { revision: 1, hash: sha256(V1), activatedAt: expect.stringMatching(ISO_TIME) },
  ]);
  expect(Date.parse(body.data.revisions[1].activatedAt)).toBeGreaterThanOrEqual(before - 1000);
  expect((await fetch(`${server.url}/admin/schema/history/1`).then((response) => response.text()))).toBe(V1);
  expect((await getHistory(server.url, '?limit=1')).body.data.revisions.map((entry: { revision: number }) => entry.revision)).toEqual([2]);
});

test('a refused upload, a dry run and the latest text uploaded again add no revision', async () => {
  await activateSchema(server.url, V1);
  expect((await postSchema(server.url, V1)).body.data.revision).toBe(1);
  expect((await postSchema(server.url, 'type Broken {', '')).status).toBe(400);
  expect((await postSchema(server.url, V2, '?dryRun=true')).status).toBe(200);
  expect((await getHistory(server.url)).body.data.revisions).toHaveLength(1);
});

test('an entry records the lambda script stored when the schema was activated', async () => {
  const script = `self.addGraphQLResolvers({ 'Query.hello': () => 'hi' });`;
  await loadLambda(server.url, script);
  await activateSchema(server.url, `${V1}type Query { hello: String @lambda }\n`);
  const [entry] = (await getHistory(server.url)).body.data.revisions;
  expect(entry.lambda).toEqual({ revision: expect.stringMatching(/^[0-9a-f-]{36}$/), hash: sha256(script) });
});

test('a rollback activates an earlier revision again as a new revision, and the data written meanwhile stays', async () => {
  await activateSchema(server.url, V1);
  await activateSchema(server.url, V2);
  await gqlData(server.url, 'mutation { addNote(input: [{ text: "kept", pinned: true }]) { numUids } }');

  const { status, body } = await rollback(server.url, 1);
  expect(status).toBe(200);
  expect(body.data).toEqual(expect.objectContaining({ message: 'schema revision 1 activated again', revision: 3 }));
  expect(body.data.report.fields.removed).toEqual([{ type: 'Note', field: 'pinned', typeText: 'Boolean' }]);
  expect(await servedSchema(server.url)).toBe(V1);
  expect(await gqlData(server.url, '{ queryNote { text } }')).toEqual({ queryNote: [{ text: 'kept' }] });

  const history = (await getHistory(server.url)).body.data;
  expect(history.active).toBe(3);
  expect(history.revisions[0]).toEqual({ revision: 3, hash: sha256(V1), activatedAt: expect.stringMatching(ISO_TIME), restoredFrom: 1 });
});

test('a rollback is checked against stored data like an upload: refused, dry-run, then forced and recorded as forced', async () => {
  const starred = 'type Note {\n  id: ID!\n  text: String\n  stars: Int!\n}\n';
  await activateSchema(server.url, V1);
  await activateSchema(server.url, starred);
  await gqlData(server.url, 'mutation { addNote(input: [{ text: "t", stars: 5 }]) { numUids } }');

  const refused = await rollback(server.url, 1);
  expect(refused.status).toBe(409);
  expect(refused.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual(['SCHEMA_BREAKS_STORED_DATA']);
  const dry = await rollback(server.url, 1, '?dryRun=true');
  expect(dry.body.data.wouldActivate).toBe(false);
  expect(dry.body.data.report.storedData).toEqual([expect.objectContaining({ kind: 'VALUES_HIDDEN', field: 'stars', blocking: true })]);
  expect(await servedSchema(server.url)).toBe(starred);
  expect((await getHistory(server.url)).body.data.revisions).toHaveLength(2);

  expect((await rollback(server.url, 1, '?force=true')).status).toBe(200);
  expect(await servedSchema(server.url)).toBe(V1);
  const [latest] = (await getHistory(server.url)).body.data.revisions;
  expect(latest).toEqual({ revision: 3, hash: sha256(V1), activatedAt: expect.stringMatching(ISO_TIME), restoredFrom: 1, forced: true });
});

test('an unknown revision answers 404, a bad limit 400, a wrong method 405', async () => {
  await activateSchema(server.url, V1);
  expect((await rollback(server.url, 9)).body).toEqual({
    errors: [{ message: 'there is no schema revision 9: GET /admin/schema/history lists them', extensions: { code: 'NOT_FOUND' } }],
  });
  expect((await rollback(server.url, 9)).status).toBe(404);
  const badLimit = await getHistory(server.url, '?limit=0');
  expect(badLimit.status).toBe(400);
  expect(badLimit.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  const wrongMethod = await fetch(`${server.url}/admin/schema/history`, { method: 'DELETE' });
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('allow')).toBe('GET');
});

test('a rollback on one instance is followed by another over the same store, and both list the same history', async () => {
  second = await startTestServer({ store: borrowed(server.store) });
  await activateSchema(server.url, V1);
  await activateSchema(server.url, V2);
  await second.app.checkStore();
  expect(await servedSchema(second.url)).toBe(V2);

  expect((await rollback(second.url, 1)).status).toBe(200);
  await server.app.checkStore();
  expect(await servedSchema(server.url)).toBe(V1);
  const fromFirst = (await getHistory(server.url)).body.data;
  expect(fromFirst).toEqual((await getHistory(second.url)).body.data);
  expect(fromFirst.active).toBe(3);
  expect(fromFirst.revisions.map((entry: { revision: number }) => entry.revision)).toEqual([3, 2, 1]);
});

test('the history survives a restart', async () => {
  await activateSchema(server.url, V1);
  await activateSchema(server.url, V2);
  server = await server.restart();
  const history = (await getHistory(server.url)).body.data;
  expect(history.active).toBe(2);
  expect(history.revisions).toHaveLength(2);
});

test('a schema given at start is recorded once, not again at every start with the same text', async () => {
  await server.close();
  server = await startTestServer({ initialSchema: V1 });
  await activateSchema(server.url, V2);
  server = await server.restart();
  const history = (await getHistory(server.url)).body.data;
  expect(history.revisions.map((entry: { revision: number; hash: string }) => [entry.revision, entry.hash])).toEqual([
    [3, sha256(V1)],
    [2, sha256(V2)],
    [1, sha256(V1)],
  ]);
  server = await server.restart();
  expect((await getHistory(server.url)).body.data.revisions).toHaveLength(3);
});
