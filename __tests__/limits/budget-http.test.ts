/**
 * The request budget through the real HTTP endpoint: a request past its time limit or its object cap
 * ends with one error that names the limit and its flag, nothing it wrote remains, and the service keeps
 * serving this client and others.
 */
import { rm } from 'node:fs/promises';
import { createApp } from '../../src/server/app.js';
import { startServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { activateSchema, gql, gqlData } from '../helpers/gql.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server.js';
import { slowStore, type Operation } from './slow-store.js';

const SCHEMA = `
type Mission {
  id: ID!
  designation: String! @search(by: [hash])
  crew: [Astronaut]
}

type Astronaut {
  name: String! @id
  missions: [Mission] @hasInverse(field: crew)
}
`;

const TIMEOUT_MS = 300;
const MAX_OBJECTS = 8;

const TIMED_OUT = {
  data: null,
  errors: [{ message: `request timed out: it ran longer than ${TIMEOUT_MS} ms (--request-timeout-ms)`, extensions: { code: 'REQUEST_TIMEOUT' } }],
};
const TOO_LARGE = {
  data: null,
  errors: [
    {
      message: `result too large: the answer would hold more than ${MAX_OBJECTS} objects (--max-result-objects); ask for fewer with first, filter or a shallower selection`,
      extensions: { code: 'RESULT_TOO_LARGE' },
    },
  ],
};

let server: TestServer;
let slow: ((operation: Operation, collection: string) => boolean) | undefined;

beforeAll(async () => {
  server = await startTestServer({
    requestTimeoutMs: TIMEOUT_MS,
    maxResultObjects: MAX_OBJECTS,
    // The cost estimate would refuse the multiplying nestings below before they run: raised to its
    // highest, so these tests show the object budget holding where the estimate let a request through.
    limits: { maxCost: Number.MAX_SAFE_INTEGER },
    wrapStore: (store) => slowStore(store, () => slow),
  });
  await activateSchema(server.url, SCHEMA);
  await gqlData(server.url, 'mutation { addAstronaut(input: [{ name: "ann" }, { name: "bob" }]) { numUids } }');
  await gqlData(
    server.url,
    `mutation { addMission(input: [
      { designation: "A", crew: [{ name: "ann" }, { name: "bob" }] },
      { designation: "B", crew: [{ name: "ann" }, { name: "bob" }] }
    ]) { numUids } }`,
  );
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  slow = undefined;
});

const MISSIONS = '{ queryMission(order: { asc: designation }) { designation crew(order: { asc: name }) { name } } }';
const MISSIONS_DATA = {
  queryMission: [
    { designation: 'A', crew: [{ name: 'ann' }, { name: 'bob' }] },
    { designation: 'B', crew: [{ name: 'ann' }, { name: 'bob' }] },
  ],
};

describe('request time limit', () => {
  it.each<[string, string, (operation: Operation, collection: string) => boolean]>([
    ['a query whose read is too slow', '{ queryMission { designation } }', (operation, collection) => operation === 'find' && collection === 'Mission'],
    ['a relation load that is too slow', MISSIONS, (operation, collection) => (operation === 'find' || operation === 'findPerKey') && collection === 'Astronaut'],
    ['an aggregate that is too slow', '{ aggregateMission { count } }', (operation) => operation === 'aggregate'],
  ])('ends %s with REQUEST_TIMEOUT, then serves the next request', async (_label, query, slowCalls) => {
    slow = slowCalls;
    const late = await gql(server.url, query);
    expect(late.status).toBe(200);
    expect(late.body).toEqual(TIMED_OUT);

    slow = undefined;
    expect(await gqlData(server.url, MISSIONS)).toEqual(MISSIONS_DATA);
  });

  it('serves another client while one request waits on a slow read', async () => {
    slow = (operation, collection) => operation === 'find' && collection === 'Mission';
    const waiting = gql(server.url, '{ queryMission { designation } }');
    const other = await gql(server.url, '{ queryAstronaut(order: { asc: name }) { name } }');
    expect(other.body).toEqual({ data: { queryAstronaut: [{ name: 'ann' }, { name: 'bob' }] } });
    expect((await waiting).body).toEqual(TIMED_OUT);
  });

  it('rolls back a mutation whose second write comes after its deadline, leaving nothing written', async () => {
    let writes = 0;
    slow = (operation) => operation !== 'find' && operation !== 'count' && operation !== 'aggregate' && ++writes === 2;
    const add = 'mutation { addMission(input: [{ designation: "C", crew: [{ name: "cat" }] }]) { numUids } }';
    const late = await gql(server.url, add);
    expect(late.body).toEqual(TIMED_OUT);
    expect(writes).toBe(2);

    slow = undefined;
    const check = '{ queryMission(filter: { designation: { eq: "C" } }) { designation } getAstronaut(name: "cat") { name } }';
    expect(await gqlData(server.url, check)).toEqual({ queryMission: [], getAstronaut: null });
    expect(await gqlData(server.url, add)).toEqual({ addMission: { numUids: 2 } });
    expect(await gqlData(server.url, check)).toEqual({ queryMission: [{ designation: 'C' }], getAstronaut: { name: 'cat' } });
    await gqlData(server.url, 'mutation { deleteMission(filter: { designation: { eq: "C" } }) { numUids } deleteAstronaut(filter: { name: { eq: "cat" } }) { numUids } }');
  });
});

describe('object cap', () => {
  const AT_THE_CAP = '{ queryMission(order: { asc: designation }) { designation crew(order: { asc: name }) { name } } queryAstronaut(order: { asc: name }) { name } }';

  it('answers a request whose answer holds exactly the cap', async () => {
    // 2 missions + 4 crew members + 2 astronauts = 8 objects.
    expect(await gqlData(server.url, AT_THE_CAP)).toEqual({ ...MISSIONS_DATA, queryAstronaut: [{ name: 'ann' }, { name: 'bob' }] });
  });

  it('ends a request with one object more with RESULT_TOO_LARGE, then serves the next request', async () => {
    const over = await gql(server.url, AT_THE_CAP.replace(/ }$/, ' getAstronaut(name: "ann") { name } }'));
    expect(over.status).toBe(200);
    expect(over.body).toEqual(TOO_LARGE);
    expect(await gqlData(server.url, MISSIONS)).toEqual(MISSIONS_DATA);
  });

  it('stops a nesting that multiplies the answer at every level', async () => {
    const nested = '{ queryMission(first: 2) { crew(first: 2) { missions(first: 2) { crew(first: 2) { missions(first: 2) { crew(first: 2) { name } } } } } } }';
    const response = await gql(server.url, nested);
    expect(response.body).toEqual(TOO_LARGE);
  });
});

describe('the log of a request past its budget', () => {
  it('holds one line for the budget error, however many fields it failed, at debug for RESULT_TOO_LARGE', async () => {
    const lines: Array<{ level: number; msg: string; code?: string }> = [];
    const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const dataDir = await makeTempDir('autograph-budget-log-');
    const store = await openEmbeddedStore(dataDir);
    const app = await createApp({ store, logger, initialSchema: SCHEMA, maxResultObjects: 3, limits: { maxCost: Number.MAX_SAFE_INTEGER } });
    const server = await startServer({ app, port: 0, host: '127.0.0.1' });
    try {
      await gqlData(server.url, 'mutation { addAstronaut(input: [{ name: "ann" }, { name: "bob" }]) { numUids } }');
      await gqlData(server.url, 'mutation { addMission(input: [{ designation: "A", crew: [{ name: "ann" }, { name: "bob" }] }]) { numUids } }');
      lines.length = 0;
      const response = await gql(server.url, '{ queryMission { crew { missions { crew { name } } } } }');
      expect(response.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'RESULT_TOO_LARGE' } })]);
      const logged = lines.filter((line) => line.msg === 'graphql request rejected' || line.msg === 'graphql request error');
      expect(logged.map(({ level, msg, code }) => ({ level, msg, code }))).toEqual([{ level: 20, msg: 'graphql request rejected', code: 'RESULT_TOO_LARGE' }]);
    } finally {
      await server.close();
      await app.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
