import { rm } from 'node:fs/promises';
import { gql, gqlData } from '../helpers/gql';
import { makeTempDir, startTestServer, TEST_BACKEND_KIND, type TestServer } from '../helpers/server';
import { EVERYTHING, exportLines, exportText, importText, seed, storedDocuments, UNICODE_TITLE } from './fixture';

/**
 * Issue 18: export → import over HTTP, with every scalar type, from the run's backend into a fresh store
 * of the same backend and into a fresh embedded store (in the mongodb-wire project: MongoDB → MongoDB and
 * MongoDB → embedded, plus embedded → MongoDB, the documented migration path).
 */

let source: TestServer;
let exported: string;
let exportHeaders: Headers;
let sourceEverything: unknown;

beforeAll(async () => {
  source = await startTestServer();
  await seed(source.url);
  sourceEverything = await gqlData(source.url, EVERYTHING);
  const answer = await exportText(source.url);
  expect(answer.status).toBe(200);
  exported = answer.text;
  exportHeaders = answer.headers;
});

afterAll(() => source.close());

test('the export is a header with the schema and script, a line per collection and document, and an end line with the counts', () => {
  const lines = exportLines(exported);
  const header = lines[0]!;
  expect(header).toEqual({
    format: 'autograph-export',
    version: 1,
    exportedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    store: TEST_BACKEND_KIND,
    consistency: TEST_BACKEND_KIND === 'embedded' ? 'point-in-time' : 'per-document',
    schema: expect.stringContaining('type Person {'),
    lambda: expect.stringContaining("'Person.greeting'"),
  });
  expect(exportHeaders.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
  expect(exportHeaders.get('x-autograph-consistency')).toBe(header.consistency);
  expect(exportHeaders.get('content-disposition')).toMatch(/^attachment; filename="autograph-export-\d{4}-\d\d-\d\dT[\d-]+Z\.ndjson"$/);
  // The schema's own collection follows with the text tokeniser's record only: its active text is in the header.
  expect(lines.filter((line) => 'collection' in line)).toEqual([{ collection: 'Person' }, { collection: 'Task' }, { collection: '_autograph_schema' }]);
  expect(lines.filter((line) => line._id === 'active')).toEqual([]);
  expect(lines[lines.length - 1]).toEqual({ end: 'autograph-export', documents: { Person: 2, Task: 3, _autograph_schema: 1 } });
  const task = lines.find((line) => line.title === UNICODE_TITLE)!;
  expect(task.score).toEqual({ $float: '-0' });
  expect(task.weights).toEqual([1.5, { $float: '-0' }, 5e-324]);
  expect(task.big).toBe(9007199254740991);
  expect(task.due).toBe('2026-01-31T12:00:00.123Z');
});

const targets: Array<[string, () => Promise<{ server: TestServer; cleanup: () => Promise<void> }>]> = [
  [`a fresh ${TEST_BACKEND_KIND} store`, async () => ({ server: await startTestServer(), cleanup: async () => undefined })],
];
if (TEST_BACKEND_KIND !== 'embedded') {
  targets.push([
    'a fresh embedded store',
    async () => {
      const dataDir = await makeTempDir();
      return { server: await startTestServer({ dataDir }), cleanup: () => rm(dataDir, { recursive: true, force: true }) };
    },
  ]);
}

describe.each(targets)('imported into %s', (_name, start) => {
  let target: TestServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ server: target, cleanup } = await start());
  });

  afterAll(async () => {
    await target.close();
    await cleanup();
  });

  test('answers the counts and serves the same objects, schema and lambda fields', async () => {
    const { status, body } = await importText(target.url, exported);
    expect(status).toBe(200);
    expect(body).toEqual({ data: { documents: { Person: 2, Task: 3, _autograph_schema: 1 }, total: 6, schemaActivated: true, lambdaActivated: true } });
    expect(await gqlData(target.url, EVERYTHING)).toEqual(sourceEverything);
    const byId = await gqlData(target.url, '{ getPerson(handle: "ada") { name tasks { title } } q: queryPerson(filter: { name: { anyofterms: "lovelace" } }) { handle } }');
    expect(byId).toEqual({ getPerson: { name: 'Ada Lovelace', tasks: [{ title: UNICODE_TITLE }] }, q: [{ handle: 'ada' }] });
  });

  test('every stored document is the same, -0 included; the export of the copy equals the original but for its header', async () => {
    for (const collection of ['Person', 'Task']) {
      expect(await storedDocuments(target.store, collection)).toEqual(await storedDocuments(source.store, collection));
    }
    const tokeniserRecord = (server: TestServer) => server.store.collection('_autograph_schema').find({ _id: 'text-tokens' });
    expect(await tokeniserRecord(target)).toEqual(await tokeniserRecord(source));
    const [task] = (await target.store.collection('Task').find({ title: UNICODE_TITLE }));
    expect(Object.is(task!.score, -0)).toBe(true);
    expect(Object.is((task!.weights as number[])[1], -0)).toBe(true);
    const again = exportLines((await exportText(target.url)).text);
    expect(again.slice(1)).toEqual(exportLines(exported).slice(1));
  });

  test('a unique @id still holds: adding a second "ada" is refused', async () => {
    const { body } = await gql(target.url, 'mutation { addPerson(input: [{ handle: "ada" }]) { numUids } }');
    expect(body.errors?.map((error) => error.extensions?.code)).toEqual(['DUPLICATE_ID']);
  });
});

if (TEST_BACKEND_KIND !== 'embedded') {
  test('embedded → MongoDB: an export of the embedded store imports into MongoDB', async () => {
    const dataDir = await makeTempDir();
    const embedded = await startTestServer({ dataDir });
    const mongo = await startTestServer();
    try {
      await seed(embedded.url);
      const { status, body } = await importText(mongo.url, (await exportText(embedded.url)).text);
      expect(status).toBe(200);
      expect(body.data.total).toBe(6);
      expect(await gqlData(mongo.url, EVERYTHING)).toEqual(await gqlData(embedded.url, EVERYTHING));
      const [task] = await mongo.store.collection('Task').find({ title: UNICODE_TITLE });
      expect(Object.is(task!.score, -0)).toBe(true);
    } finally {
      await mongo.close();
      await embedded.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
}
