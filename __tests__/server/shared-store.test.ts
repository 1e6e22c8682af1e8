/**
 * Several instances over one database: a schema or lambda script uploaded to one is picked up by the
 * others (the periodic store check, or `app.checkStore()`). Here two services share one store object.
 */
import { buildSchemaModel } from '../../src/sdl/build';
import { indexesFor } from '../../src/store/indexes';
import type { Store } from '../../src/store/port';
import { loadLambda } from '../custom-e2e/lambda-upload';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { until } from '../helpers/wait';
import { overriding } from '../helpers/store-wrap';

const NOTES_V1 = `type Note {
  id: ID!
  code: String! @id
  text: String @search(by: [hash])
}
type Query { hello: String @lambda }
`;
/** The @lambda field renamed, and `text` no longer searchable (its index goes). */
const NOTES_V2 = `type Note {
  id: ID!
  code: String! @id
  text: String
}
type Query { bye: String @lambda }
`;
const HELLO = `self.addGraphQLResolvers({ 'Query.hello': () => 'hello from the script' });`;
const HELLO_AND_BYE = `self.addGraphQLResolvers({ 'Query.hello': () => 'hello', 'Query.bye': () => 'bye' });`;
const BYE = `self.addGraphQLResolvers({ 'Query.bye': () => 'bye from the script' });`;

let first: TestServer;
let second: TestServer | undefined;

beforeEach(async () => {
  first = await startTestServer();
});
afterEach(async () => {
  await second?.close();
  second = undefined;
  await first.close();
});

/** The same store for a second service, which must not close it: the first one does. */
function borrowed(store: Store): Store {
  return overriding(store, { close: async () => undefined });
}

async function servedSchema(server: TestServer): Promise<string> {
  return (await fetch(`${server.url}/admin/schema`)).text();
}

async function servedScript(server: TestServer): Promise<string> {
  return (await fetch(`${server.url}/admin/lambda`)).text();
}

test('an instance serves the schema and lambda script uploaded to another one, checking the store every few ms', async () => {
  second = await startTestServer({ store: borrowed(first.store), storeCheckMs: 20 });
  expect(second.app.active).toBeUndefined();

  await loadLambda(first.url, HELLO);
  await activateSchema(first.url, NOTES_V1);
  await until(async () => (await servedSchema(second!)) === NOTES_V1);

  expect((await gql(second.url, '{ hello }')).body).toEqual({ data: { hello: 'hello from the script' } });
  await gql(first.url, 'mutation { addNote(input: [{ code: "n1", text: "written on the first" }]) { numUids } }');
  expect((await gql(second.url, '{ getNote(code: "n1") { text } }')).body).toEqual({ data: { getNote: { text: 'written on the first' } } });
});

test('a renamed @lambda field (script with both, schema, script with the new one) is picked up in one check', async () => {
  second = await startTestServer({ store: borrowed(first.store) });
  await loadLambda(first.url, HELLO);
  await activateSchema(first.url, NOTES_V1);
  await second.app.checkStore();
  expect(await servedSchema(second)).toBe(NOTES_V1);

  await loadLambda(first.url, HELLO_AND_BYE);
  await activateSchema(first.url, NOTES_V2);
  await loadLambda(first.url, BYE);
  await second.app.checkStore();

  expect(await servedSchema(second)).toBe(NOTES_V2);
  expect(await servedScript(second)).toBe(BYE);
  expect((await gql(second.url, '{ bye }')).body).toEqual({ data: { bye: 'bye from the script' } });
});

test('an instance started with --lambda (schema checked first) takes a schema that needs the script stored with it', async () => {
  await loadLambda(first.url, HELLO);
  await activateSchema(first.url, NOTES_V1);
  second = await startTestServer({ store: borrowed(first.store), initialLambda: HELLO });
  expect(await servedSchema(second)).toBe(NOTES_V1);

  await loadLambda(first.url, HELLO_AND_BYE);
  await activateSchema(first.url, NOTES_V2);
  // The schema comes first here and needs `bye`, which only the script read after it serves.
  await second.app.checkStore();

  expect(await servedSchema(second)).toBe(NOTES_V2);
  expect((await gql(second.url, '{ bye }')).body).toEqual({ data: { bye: 'bye' } });
});

test('indexes dropped by one instance: the other keeps answering correctly, and following the schema does not bring them back', async () => {
  second = await startTestServer({ store: borrowed(first.store) });
  await loadLambda(first.url, HELLO);
  await activateSchema(first.url, NOTES_V1);
  await second.app.checkStore();
  await gql(first.url, 'mutation { addNote(input: [{ code: "a", text: "alpha" }, { code: "b", text: "beta" }]) { numUids } }');
  expect(await indexNames(first.store)).toContain('ag_search_text');

  await loadLambda(first.url, HELLO_AND_BYE);
  await activateSchema(first.url, NOTES_V2);
  expect(await indexNames(first.store)).not.toContain('ag_search_text');

  // Still on NOTES_V1: its filter on `text` runs without the index.
  expect(await servedSchema(second)).toBe(NOTES_V1);
  expect((await gql(second.url, '{ queryNote(filter: { text: { eq: "beta" } }) { code } }')).body).toEqual({ data: { queryNote: [{ code: 'b' }] } });

  await second.app.checkStore();
  expect(await servedSchema(second)).toBe(NOTES_V2);
  expect(await indexNames(first.store)).toEqual(wantedIndexNames(NOTES_V2));
});

test('a stored schema this instance cannot activate leaves it serving the one it has', async () => {
  // Only the second instance knows the secret the next schema names.
  second = await startTestServer({ store: borrowed(first.store), customSecrets: { TOKEN: 't' }, customAllow: ['127.0.0.1'] });
  await loadLambda(second.url, HELLO);
  await activateSchema(second.url, NOTES_V1);
  await first.app.checkStore();
  expect(await servedSchema(first)).toBe(NOTES_V1);

  const withSecret = `${NOTES_V1}extend type Query { weather: String @custom(http: { url: "http://127.0.0.1:9/w", method: GET, secretHeaders: ["Authorization:TOKEN"] }) }
`;
  await activateSchema(second.url, withSecret);
  await first.app.checkStore();
  expect(await servedSchema(first)).toBe(NOTES_V1);
  expect((await gql(first.url, '{ hello }')).body).toEqual({ data: { hello: 'hello from the script' } });
});

async function indexNames(store: Store): Promise<string[]> {
  return (await store.listIndexes('Note')).map((spec) => spec.name).sort();
}

function wantedIndexNames(schema: string): string[] {
  const { model } = buildSchemaModel(schema);
  if (!model) throw new Error('test schema does not build');
  return (indexesFor(model).get('Note') ?? []).map((spec) => spec.name).sort();
}
