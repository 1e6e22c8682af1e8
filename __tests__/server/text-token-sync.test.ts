import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { syncTextTokens } from '../../src/server/text-token-sync.js';
import { buildSchemaModel } from '../../src/sdl/build.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { SYSTEM_COLLECTIONS, type Collection, type Store, type StoredDocument } from '../../src/store/port.js';
import { overriding } from '../helpers/store-wrap.js';

/**
 * The token rebuild on both write paths: the embedded store replaces each batch in its transaction, any
 * other store (MongoDB, whose standalone transactions are not atomic) updates document by document.
 */
const { model } = buildSchemaModel(`
type Note {
  id: ID!
  title: String @search(by: [term, fulltext])
  tags: [String] @search(by: [term])
  body: String
}
`);

const STALE: StoredDocument[] = [
  { _id: 'n1', title: "Don't panic at example.com", _term_title: ['don', 't', 'panic', 'at', 'example', 'com'], _fulltext_title: ['stale'], body: 'kept' },
  { _id: 'n2', tags: ['Home work', 'pi 3.14'], _term_tags: ['home', 'work', 'pi', '3', '14'] },
  { _id: 'n3', title: null, _term_title: ['left', 'over'], _fulltext_title: ['left'] },
];

const REBUILT: StoredDocument[] = [
  { _id: 'n1', title: "Don't panic at example.com", _term_title: ["don't", 'panic', 'at', 'example.com'], _fulltext_title: ['panic', 'example.com'], body: 'kept' },
  { _id: 'n2', tags: ['Home work', 'pi 3.14'], _term_tags: ['home', 'work', 'pi', '3.14'] },
  { _id: 'n3', title: null },
];

let folder: string;
let store: Store;

beforeEach(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-token-sync-'));
  store = await openEmbeddedStore(folder);
  await store.collection('Note').insertMany(STALE.map((document) => structuredClone(document)));
});

afterEach(async () => {
  await store.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('the embedded store: every token field rebuilt, the marker written, nothing rebuilt the second time', async () => {
  expect(await syncTextTokens(store, model!)).toEqual({ rebuilt: ['Note._term_title', 'Note._fulltext_title', 'Note._term_tags'], documents: 3 });
  expect(await store.collection('Note').find({}, { sort: { _id: 1 } })).toEqual(REBUILT);
  expect(await store.collection(SYSTEM_COLLECTIONS.schema).find({ _id: 'text-tokens' })).toEqual([
    { _id: 'text-tokens', version: 2, fields: ['Note._fulltext_title', 'Note._term_tags', 'Note._term_title'] },
  ]);
  expect(await syncTextTokens(store, model!)).toEqual({ rebuilt: [], documents: 0 });
});

test('another store: one update per document, never a delete, with the same result', async () => {
  const calls: string[] = [];
  const recording = overriding(store, {
    kind: 'mongodb',
    collection: (name) => {
      const inner = store.collection(name);
      const wrapped: Collection = Object.create(inner);
      wrapped.updateMany = (filter, update, scope) => (calls.push(`updateMany ${name}`), inner.updateMany(filter, update, scope));
      wrapped.deleteMany = (filter, scope) => (calls.push(`deleteMany ${name}`), inner.deleteMany(filter, scope));
      return wrapped;
    },
  });
  expect(await syncTextTokens(recording, model!)).toEqual({ rebuilt: ['Note._term_title', 'Note._fulltext_title', 'Note._term_tags'], documents: 3 });
  expect(calls).toEqual(['updateMany Note', 'updateMany Note', 'updateMany Note', `deleteMany ${SYSTEM_COLLECTIONS.schema}`]);
  expect(await store.collection('Note').find({}, { sort: { _id: 1 } })).toEqual(REBUILT);
});

test('a marker of an older version rebuilds every field; a new token field alone is rebuilt when the rest is current', async () => {
  await syncTextTokens(store, model!);
  const { model: withBody } = buildSchemaModel(`
type Note {
  id: ID!
  title: String @search(by: [term, fulltext])
  tags: [String] @search(by: [term])
  body: String @search(by: [term])
}
`);
  expect(await syncTextTokens(store, withBody!)).toEqual({ rebuilt: ['Note._term_body'], documents: 3 });
  expect((await store.collection('Note').find({ _id: 'n1' }))[0]!._term_body).toEqual(['kept']);
  await store.collection(SYSTEM_COLLECTIONS.schema).updateMany({ _id: 'text-tokens' }, { $set: { version: 1 } });
  expect(await syncTextTokens(store, withBody!)).toEqual({ rebuilt: ['Note._term_title', 'Note._fulltext_title', 'Note._term_tags', 'Note._term_body'], documents: 3 });
});
