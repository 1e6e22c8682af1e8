import http from 'node:http';
import { gqlData } from '../helpers/gql';
import { until } from '../helpers/wait';
import { withOutage, type StoreWithOutage } from '../helpers/outage';
import { startTestServer, TEST_BACKEND_KIND, type TestServer } from '../helpers/server';
import { exportLines, exportText, importText } from './fixture';

/** Issue 18: what an import refuses, with the line and code, leaving the store as empty as it found it. */

const SCHEMA = `type Note { id: ID! text: String score: Float big: Int64 }
type Tag { name: String! @id }`;

const header = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: 'autograph-export',
    version: 1,
    exportedAt: '2026-01-01T00:00:00.000Z',
    store: 'embedded',
    consistency: 'point-in-time',
    schema: SCHEMA,
    lambda: null,
    ...fields,
  });
const NOTES = ['{"collection":"Note"}', '{"_id":"n1","text":"a"}', '{"_id":"n2","text":"b"}'];
const END = '{"end":"autograph-export","documents":{"Note":2}}';
const file = (...lines: string[]) => `${lines.join('\n')}\n`;

/** V8's own words for the JSON error, which differ between Node versions. */
function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parses`);
}

let target: TestServer;

beforeAll(async () => {
  target = await startTestServer();
});

afterAll(() => target.close());

async function expectNothingStored(): Promise<void> {
  for (const collection of ['Note', 'Tag']) expect(await target.store.collection(collection).count({})).toBe(0);
}

const NOTHING = '; nothing was imported';

test.each<[string, string, string]>([
  ['a file that is not an export', file('{"hello":1}'), 'line 1: is not the header of an Autograph export (expected {"format":"autograph-export",…})'],
  ['another format version', file(header({ version: 2 }), ...NOTES, END), 'line 1: export format version 2 is not supported; this service reads version 1'],
  ['a header whose schema is not text', file(header({ schema: 7 })), `line 1: the header's "schema" must be a string or null, got 7`],
  ['a line that is not JSON', file(header(), '{"collection":"Note"}', '{"_id":"n1",', END), `line 3: is not JSON (${parseError('{"_id":"n1",')})`],
  ['a document before any collection line', file(header(), '{"_id":"n1"}', END), 'line 2: is a document before any {"collection": …} line'],
  ['a document without a string _id', file(header(), '{"collection":"Note"}', '{"_id":5}', END), 'line 3: a document of Note needs a non-empty string "_id", got 5'],
  ['an empty line', file(header(), '{"collection":"Note"}', '', END), 'line 3: is empty'],
  ['a malformed tagged value', file(header(), '{"collection":"Note"}', '{"_id":"n1","score":{"$float":"zero"}}', END), 'line 3: Note "n1": score has {"$float": "zero"}; expected "-0", "NaN", "Infinity" or "-Infinity"'],
  ['a key starting with $ outside {"$object": …}', file(header(), '{"collection":"Note"}', '{"_id":"n1","x":{"$set":1,"y":2}}', END), 'line 3: Note "n1": x has the key "$set": keys starting with "$" are written inside {"$object": ...}'],
  [
    'the active schema as data',
    file(header(), '{"collection":"_autograph_schema"}', '{"_id":"active","text":"type Note { id: ID! }"}', END),
    'line 3: the active document of _autograph_schema is carried by the header ("schema" and "lambda"), not as data',
  ],
  ['a collection twice', file(header(), ...NOTES, '{"collection":"Note"}', END), 'line 5: collection Note appears a second time'],
  ['a file cut short (no end line)', file(header(), ...NOTES), 'line 4: the file ends here without its end line {"end":"autograph-export",…}: it is incomplete (was the export interrupted?)'],
  ['counts that differ from the documents', file(header(), ...NOTES, '{"end":"autograph-export","documents":{"Note":3}}'), 'line 5: the end line counts 3 documents of Note, but the file holds 2: it is incomplete or was edited'],
  ['a line after the end line', file(header(), ...NOTES, END, '{"_id":"n3"}'), 'line 6: follows the end line (line 5); nothing may come after it'],
  [
    'a repeated _id after another collection was written',
    file(header(), ...NOTES, '{"collection":"Tag"}', '{"_id":"t1","name":"x"}', '{"_id":"t1","name":"y"}', '{"end":"autograph-export","documents":{"Note":2,"Tag":2}}'),
    'line 7: Tag "t1" appears twice',
  ],
])('%s: 400 BAD_IMPORT_FILE naming the line, nothing stored', async (_case, text, message) => {
  const { status, body } = await importText(target.url, text);
  expect({ status, body }).toEqual({ status: 400, body: { errors: [{ message: `${message}${NOTHING}`, extensions: { code: 'BAD_IMPORT_FILE' } }] } });
  await expectNothingStored();
});

test('a line longer than the largest request body is refused before it is read whole', async () => {
  const small = await startTestServer({ maxBodyBytes: 1024 });
  try {
    const { status, body } = await importText(small.url, file(header({ schema: null }), '{"collection":"Note"}', `{"_id":"n1","text":"${'x'.repeat(2000)}"}`, END));
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ message: `line 3: is longer than 1024 bytes${NOTHING}`, extensions: { code: 'BAD_IMPORT_FILE' } }]);
  } finally {
    await small.close();
  }
});

test('a schema that does not activate undoes the import: 400 BAD_SCHEMA, no documents left', async () => {
  const { status, body } = await importText(target.url, file(header({ schema: 'type Note { id: ID! text: Strin }' }), ...NOTES, END));
  expect(status).toBe(400);
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0].extensions).toEqual({ code: 'BAD_SCHEMA' });
  expect(body.errors[0].message).toMatch(/^the file's schema did not activate, so its documents were removed again: .*Strin/);
  await expectNothingStored();
  expect((await fetch(`${target.url}/admin/schema`)).status).toBe(404);
});

if (TEST_BACKEND_KIND === 'embedded') {
  test('a 64-bit integer beyond 2^53 cannot go into the embedded store (JSON numbers only): the line says so', async () => {
    const { status, body } = await importText(target.url, file(header(), '{"collection":"Note"}', '{"_id":"n1","big":{"$int64":"9223372036854775807"}}', '{"end":"autograph-export","documents":{"Note":1}}'));
    expect(status).toBe(400);
    expect(body.errors[0]).toEqual({
      message: 'line 3: Note "n1" was refused by the store: invalid document for collection Note: big is a bigint; the embedded store keeps JSON values only; nothing was imported',
      extensions: { code: 'BAD_IMPORT_FILE' },
    });
    await expectNothingStored();
  });
} else {
  test('a 64-bit integer beyond 2^53 (a MongoDB Long another tool wrote) goes into MongoDB and comes back out exactly', async () => {
    const fresh = await startTestServer();
    try {
      const text = file(header({ schema: null }), '{"collection":"Note"}', '{"_id":"n1","big":{"$int64":"9223372036854775807"},"small":{"$int64":"-9223372036854775808"}}', '{"end":"autograph-export","documents":{"Note":1}}');
      expect((await importText(fresh.url, text)).status).toBe(200);
      const [stored] = await fresh.store.collection('Note').find({});
      expect(String(stored!.big)).toBe('9223372036854775807');
      expect(exportLines((await exportText(fresh.url)).text)).toContainEqual({ _id: 'n1', big: { $int64: '9223372036854775807' }, small: { $int64: '-9223372036854775808' } });
    } finally {
      await fresh.close();
    }
  });
}

test('a store that holds data is refused with 409 STORE_NOT_EMPTY, naming its collections', async () => {
  expect((await importText(target.url, file(header(), ...NOTES, END))).status).toBe(200);
  expect(await gqlData(target.url, '{ queryNote(order: { asc: text }) { text } }')).toEqual({ queryNote: [{ text: 'a' }, { text: 'b' }] });
  const { status, body } = await importText(target.url, file(header(), ...NOTES, END));
  expect(status).toBe(409);
  expect(body.errors).toEqual([
    {
      message: 'the store is not empty: Note (2) hold documents; import only into a fresh store (a new --data folder or an empty MongoDB database)',
      extensions: { code: 'STORE_NOT_EMPTY' },
    },
  ]);
});

test('the data endpoints are admin endpoints: a wrong token is refused', async () => {
  const guarded = await startTestServer({ adminToken: 'secret' });
  try {
    for (const [method, path] of [['GET', '/admin/export'], ['POST', '/admin/import'], ['POST', '/admin/backup']] as const) {
      const response = await fetch(`${guarded.url}${path}`, { method, headers: { authorization: 'Bearer wrong' }, body: method === 'POST' ? '{}' : undefined });
      expect([path, response.status, ((await response.json()) as any).errors[0].extensions.code]).toEqual([path, 401, 'UNAUTHENTICATED']);
    }
  } finally {
    await guarded.close();
  }
});

test('a client that goes away mid-file leaves nothing behind, and the next import runs', async () => {
  const fresh = await startTestServer();
  try {
    const { port } = new URL(fresh.url);
    const request = http.request({ host: '127.0.0.1', port: Number(port), path: '/admin/import', method: 'POST' });
    request.on('error', () => undefined);
    request.write(`${header({ schema: null })}\n{"collection":"Note"}\n`);
    for (let i = 0; i < 1500; i++) request.write(`{"_id":"n${i}","text":"t"}\n`);
    // The first batch of 1,000 is written before the file ends; then the client is gone.
    await until(async () => (await fresh.store.collection('Note').count({})) > 0);
    request.destroy();
    await until(async () => (await fresh.store.collection('Note').count({})) === 0);
    expect((await importText(fresh.url, file(header({ schema: null }), ...NOTES, END))).body).toEqual({
      data: { documents: { Note: 2 }, total: 2, schemaActivated: false, lambdaActivated: false },
    });
  } finally {
    await fresh.close();
  }
});

test('when the store goes away mid-import and the clean-up fails too, 503 says which collections to empty', async () => {
  let outage!: StoreWithOutage;
  const fresh = await startTestServer({ wrapStore: (store) => (outage = withOutage(store)).store });
  try {
    const { port } = new URL(fresh.url);
    const answer = new Promise<{ status: number | undefined; body: string }>((resolve) => {
      const request = http.request({ host: '127.0.0.1', port: Number(port), path: '/admin/import', method: 'POST' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      request.write(`${header({ schema: null })}\n{"collection":"Note"}\n`);
      for (let i = 0; i < 1500; i++) request.write(`{"_id":"n${i}","text":"t"}\n`);
      void until(async () => (await fresh.store.collection('Note').count({})) > 0).then(() => {
        outage.down();
        request.end('{"end":"autograph-export","documents":{"Note":1500}}\n');
      });
    });
    const { status, body } = await answer;
    expect(status).toBe(503);
    expect(JSON.parse(body)).toEqual({
      errors: [
        {
          message:
            'data store unavailable: connection refused (test outage); deleting the documents imported so far failed too ' +
            '(data store unavailable: connection refused (test outage)), so Note may still hold some: empty those collections (or use a fresh store) before importing again',
          extensions: { code: 'STORE_UNAVAILABLE' },
        },
      ],
    });
    outage.up();
    expect(await fresh.store.collection('Note').count({})).toBe(1000);
  } finally {
    outage.up();
    await fresh.close();
  }
});
