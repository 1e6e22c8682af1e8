import fs from 'node:fs';
import { activateSchema, gqlData } from '../helpers/gql';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { SYSTEM_COLLECTIONS } from '../../src/store/port.js';

/**
 * Stored term/fulltext tokens always come from the current tokeniser: tokens an older version wrote are
 * rebuilt when the service starts on them, and a field that gains a term index gets tokens for the
 * objects stored before.
 */
const SCHEMA = `
type Note {
  id: ID!
  title: String @search(by: [term, fulltext])
  body: String
}
`;

const titles = async (server: TestServer, filter: string): Promise<string[]> =>
  (await gqlData(server.url, `{ queryNote(filter: ${filter}, order: { asc: title }) { title } }`)).queryNote.map((note: { title: string }) => note.title);

let server: TestServer | undefined;
let dataDir: string;

beforeEach(async () => {
  dataDir = await makeTempDir('autograph-text-tokens-');
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('tokens written by the version-1 tokeniser are rebuilt at restart', async () => {
  server = await startTestServer({ dataDir });
  await activateSchema(server.url, SCHEMA);
  await gqlData(server.url, `mutation { addNote(input: [{ title: "Don't panic at example.com" }, { title: "don t stop" }]) { numUids } }`);
  // What version 1 stored: every non-alphanumeric character split words.
  const notes = server.store.collection('Note');
  await notes.updateMany({ title: "Don't panic at example.com" }, { $set: { _term_title: ['don', 't', 'panic', 'at', 'example', 'com'], _fulltext_title: ['don', 't', 'panic', 'exampl', 'com'] } });
  await server.store.collection(SYSTEM_COLLECTIONS.schema).updateMany({ _id: 'text-tokens' }, { $set: { version: 1 } });
  expect(await titles(server, `{ title: { allofterms: "don't" } }`)).toEqual([]);
  expect(await titles(server, `{ title: { anyofterms: "example" } }`)).toEqual(["Don't panic at example.com"]);

  server = await server.restart();
  expect(await titles(server, `{ title: { allofterms: "don't" } }`)).toEqual(["Don't panic at example.com"]);
  expect(await titles(server, `{ title: { anyofterms: "example" } }`)).toEqual([]);
  expect(await titles(server, `{ title: { anyofterms: "example.com" } }`)).toEqual(["Don't panic at example.com"]);
  expect(await titles(server, `{ title: { allofterms: "don t" } }`)).toEqual(['don t stop']);
  expect(await titles(server, `{ title: { anyoftext: "panics" } }`)).toEqual(["Don't panic at example.com"]);
  const [marker] = await server.store.collection(SYSTEM_COLLECTIONS.schema).find({ _id: 'text-tokens' });
  expect(marker).toEqual({ _id: 'text-tokens', version: 2, fields: ['Note._fulltext_title', 'Note._term_title'] });
});

test('a field that gains a term index gets tokens for the objects stored before', async () => {
  server = await startTestServer({ dataDir });
  await activateSchema(server.url, SCHEMA);
  await gqlData(server.url, `mutation { addNote(input: [{ title: "a", body: "Stored before the index" }, { title: "b", body: "other words" }, { title: "c" }]) { numUids } }`);
  await activateSchema(server.url, SCHEMA.replace('body: String', 'body: String @search(by: [term])'));
  expect(await titles(server, `{ body: { anyofterms: "before" } }`)).toEqual(['a']);
  expect(await titles(server, `{ body: { anyofterms: "words stored" } }`)).toEqual(['a', 'b']);
  expect(await server.store.collection('Note').find({ title: 'c' })).toEqual([expect.not.objectContaining({ _term_body: expect.anything() })]);
});
