/**
 * "Reconnects by itself", with the real MongoConnection and the official driver against a stand-in
 * server (./fake-mongod) that appears on a port nobody listened on at start, goes away, and comes back.
 */
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { closedLoopbackPort, until } from '../helpers/wait';
import { startFakeMongod, type FakeMongod } from './fake-mongod';

let server: TestServer | undefined;
let mongod: FakeMongod | undefined;
afterEach(async () => {
  await server?.close();
  await mongod?.close();
  server = undefined;
  mongod = undefined;
});

async function readiness(url: string): Promise<number> {
  return (await fetch(`${url}/health/ready`)).status;
}

/** The store's part of readiness (the service as a whole stays unready here: no schema is ever uploaded). */
async function storeReady(url: string): Promise<boolean> {
  const body = (await (await fetch(`${url}/health/ready`)).json()) as { storeReady: boolean };
  return body.storeReady;
}

test('the service goes from not ready to ready without a restart once MongoDB answers, and again after it went away', async () => {
  const port = await closedLoopbackPort();
  const store = await openMongoStore(`mongodb://127.0.0.1:${port}/?directConnection=true`, {
    dbName: 'autograph_reconnect',
    serverSelectionTimeoutMS: 300,
    heartbeatFrequencyMS: 500,
    reconnectDelayMS: 50,
  });
  server = await startTestServer({ store, storedSchemaRetryMs: 50 });
  const { url } = server;

  expect(await readiness(url)).toBe(503);
  const waiting = await gql(url, '{ __typename }');
  expect(waiting.status).toBe(503);
  expect(waiting.body.errors?.[0]?.extensions?.code).toBe('STORE_UNAVAILABLE');

  mongod = await startFakeMongod(port);
  await until(() => storeReady(url));
  expect(mongod.commands).toEqual(expect.arrayContaining(['ismaster', 'hello']));
  // The stored schema was looked for again (and there is none): /graphql now asks for an upload.
  await until(async () => (await gql(url, '{ __typename }')).body.errors?.[0]?.extensions?.code === 'SCHEMA_NOT_LOADED');
  expect(mongod.commands).toContain('find');

  await mongod.close();
  await until(async () => !(await storeReady(url)));

  mongod = await startFakeMongod(port);
  await until(() => storeReady(url));
});
