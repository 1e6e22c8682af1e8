/** A wire test server and a driver client connected to it, for the tests of one file. */
import { MongoClient, type Db } from 'mongodb';
import { startWireMongo, type WireMongo } from '../helpers/wire-mongo/server';

export interface WireFixture {
  server: WireMongo;
  client: MongoClient;
  /** A database of its own for each call. */
  db(): Db;
  /** Lines the server logged (unknown commands). */
  logged: string[];
}

export function useWireMongo(): WireFixture {
  const fixture = { logged: [] as string[] } as WireFixture;
  let databases = 0;
  beforeAll(async () => {
    fixture.server = await startWireMongo({ log: (line) => fixture.logged.push(line) });
    fixture.client = new MongoClient(fixture.server.uri, { serverSelectionTimeoutMS: 2000 });
    await fixture.client.connect();
  });
  afterAll(async () => {
    await fixture.client?.close();
    await fixture.server?.close();
  });
  fixture.db = () => fixture.client.db(`wire_test_${++databases}`);
  return fixture;
}
