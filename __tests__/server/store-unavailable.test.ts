/**
 * The store cannot be reached (MongoDB down): what /graphql answers, and a schema or lambda script given
 * at start waits for the store instead of failing the start.
 */
import { InitialSchemaError } from '../../src/server/app';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { SYSTEM_COLLECTIONS } from '../../src/store/port';
import { activateSchema, gql } from '../helpers/gql';
import { withOutage, type StoreWithOutage } from '../helpers/outage';
import { startTestServer, type TestServer } from '../helpers/server';
import { closedLoopbackPort, until } from '../helpers/wait';
import { BROKEN_SCHEMA, TASKS_SCHEMA } from './schemas';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const STORE_UNAVAILABLE = { message: expect.stringMatching(/^data store unavailable: /), extensions: { code: 'STORE_UNAVAILABLE' } };

test('with MongoDB unreachable and no schema yet, /graphql answers 503 "data store unavailable", not "upload a schema"', async () => {
  const port = await closedLoopbackPort();
  const store = await openMongoStore(`mongodb://127.0.0.1:${port}/?directConnection=true`, { serverSelectionTimeoutMS: 200, reconnectDelayMS: 100 });
  server = await startTestServer({ store });

  const response = await gql(server.url, '{ __typename }');
  expect(response.status).toBe(503);
  expect(response.body).toEqual({
    errors: [
      {
        message: 'data store unavailable: the mongodb store does not answer, so no schema is loaded yet; the service retries by itself',
        extensions: { code: 'STORE_UNAVAILABLE' },
      },
    ],
  });
  expect((await fetch(`${server.url}/health/ready`)).status).toBe(503);
});

test('with a schema loaded, requests the store cannot answer fail with STORE_UNAVAILABLE, and work again once it answers', async () => {
  let outage!: StoreWithOutage;
  server = await startTestServer({ wrapStore: (store) => (outage = withOutage(store)).store });
  await activateSchema(server.url, TASKS_SCHEMA);
  const add = 'mutation { addUser(input: [{ username: "ada" }]) { numUids } }';
  expect((await gql(server.url, add)).body).toEqual({ data: { addUser: { numUids: 1 } } });

  outage.down();
  const query = await gql(server.url, '{ queryUser { username } }');
  expect(query.body.errors).toEqual([expect.objectContaining(STORE_UNAVAILABLE)]);
  expect(query.body.errors?.[0]?.path).toEqual(['queryUser']);
  const mutation = await gql(server.url, 'mutation { addUser(input: [{ username: "bob" }]) { numUids } }');
  expect(mutation.body.errors).toEqual([expect.objectContaining(STORE_UNAVAILABLE)]);

  outage.up();
  expect((await gql(server.url, '{ queryUser { username } }')).body).toEqual({ data: { queryUser: [{ username: 'ada' }] } });
});

describe('a schema given at start while the store is unreachable', () => {
  it('does not stop the start: it is activated and stored once the store answers', async () => {
    let outage!: StoreWithOutage;
    server = await startTestServer({
      wrapStore: (store) => (outage = withOutage(store, { startDown: true })).store,
      initialSchema: TASKS_SCHEMA,
      storedSchemaRetryMs: 10,
    });
    expect(server.app.active).toBeUndefined();
    const waiting = await gql(server.url, '{ queryUser { username } }');
    expect(waiting.status).toBe(503);
    expect(waiting.body.errors).toEqual([STORE_UNAVAILABLE]);

    outage.up();
    await until(() => server!.app.active !== undefined);
    expect((await gql(server.url, '{ queryUser { username } }')).body).toEqual({ data: { queryUser: [] } });
    const [stored] = await server.store.collection(SYSTEM_COLLECTIONS.schema).find({ _id: 'active' });
    expect(stored?.text).toBe(TASKS_SCHEMA);
  });

  it('comes up together with a lambda script given at start that serves its @lambda field', async () => {
    let outage!: StoreWithOutage;
    server = await startTestServer({
      wrapStore: (store) => (outage = withOutage(store, { startDown: true })).store,
      initialSchema: 'type Query { hello: String @lambda }',
      initialLambda: `self.addGraphQLResolvers({ 'Query.hello': () => 'hello after the outage' });`,
      storedSchemaRetryMs: 10,
    });
    outage.up();
    await until(() => server!.app.active !== undefined);
    expect((await gql(server.url, '{ hello }')).body).toEqual({ data: { hello: 'hello after the outage' } });
    const [storedScript] = await server.store.collection(SYSTEM_COLLECTIONS.lambda).find({});
    expect(storedScript?.text).toContain('hello after the outage');
  });

  it('is still refused at start when it has errors: they do not depend on the store', async () => {
    const attempt = startTestServer({ wrapStore: (store) => withOutage(store, { startDown: true }).store, initialSchema: BROKEN_SCHEMA });
    await expect(attempt).rejects.toBeInstanceOf(InitialSchemaError);
  });

  it('gives way to a schema uploaded after start', async () => {
    let outage!: StoreWithOutage;
    // Without retries in the test's time frame, so the upload surely comes first.
    server = await startTestServer({
      wrapStore: (store) => (outage = withOutage(store, { startDown: true })).store,
      initialSchema: TASKS_SCHEMA,
      storedSchemaRetryMs: 60_000,
    });
    outage.up();
    const uploaded = 'type Note { id: ID! text: String }';
    await activateSchema(server.url, uploaded);
    await server.app.checkStore();
    expect(server.app.active?.text).toBe(uploaded);
    const [stored] = await server.store.collection(SYSTEM_COLLECTIONS.schema).find({ _id: 'active' });
    expect(stored?.text).toBe(uploaded);
  });
});
