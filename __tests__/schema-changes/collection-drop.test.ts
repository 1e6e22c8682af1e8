/**
 * `DELETE /admin/collections/<Type>` drops the collection of a type the active schema no longer has,
 * and only those: never a served type, never implicitly (removing a type from the schema keeps its data).
 */
import { activateSchema, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { dropCollection, postSchema } from './admin-http';

const WITH_NOTES = `type Task {
  id: ID!
  title: String
}
type Note {
  id: ID!
  code: String! @id
  text: String @search(by: [term])
}
`;
const WITHOUT_NOTES = 'type Task {\n  id: ID!\n  title: String\n}\n';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  await activateSchema(server.url, WITH_NOTES);
  await gqlData(server.url, 'mutation { addNote(input: [{ code: "a", text: "one" }, { code: "b", text: "two" }]) { numUids } }');
  await gqlData(server.url, 'mutation { addTask(input: [{ title: "stays" }]) { numUids } }');
});
afterEach(async () => {
  await server.close();
});

test('a type still in the schema is refused with 409 COLLECTION_IN_USE, and its objects stay', async () => {
  const { status, body } = await dropCollection(server.url, 'Note');
  expect(status).toBe(409);
  expect(body).toEqual({
    errors: [
      {
        message: 'type Note is in the active schema: only the data of a type the schema no longer has can be dropped; remove Note from the schema first',
        extensions: { code: 'COLLECTION_IN_USE' },
      },
    ],
  });
  expect(await gqlData(server.url, '{ aggregateNote { count } }')).toEqual({ aggregateNote: { count: 2 } });
});

test('a removed type keeps its objects until dropped; the drop removes its collection with them and its indexes, and leaves other types alone', async () => {
  await activateSchema(server.url, WITHOUT_NOTES);
  expect(await server.store.collection('Note').count({})).toBe(2);
  // The activation dropped the removed type's indexes; one left behind (by a service that started with the
  // new schema over old data, say) and one made by someone else go with the collection.
  expect(await server.store.listIndexes('Note')).toEqual([]);
  await server.store.syncIndexes('Note', [{ name: 'ag_search_text', keys: { text: 1 } }], 'ag_');
  await server.store.syncIndexes('Note', [{ name: 'ops_by_code', keys: { code: 1 } }], 'ops_');

  const { status, body } = await dropCollection(server.url, 'Note');
  expect(status).toBe(200);
  expect(body).toEqual({
    data: {
      message: 'dropped the collection of type Note with its stored objects and indexes',
      type: 'Note',
      collectionDropped: true,
      deleted: 2,
      indexesDropped: ['Note.ag_search_text', 'Note.ops_by_code'],
    },
  });
  expect(await server.store.listIndexes('Note')).toEqual([]);
  const snapshot = await server.store.openSnapshot();
  expect(snapshot.collections.map((collection) => collection.name)).not.toContain('Note');
  await snapshot.close();
  expect(await gqlData(server.url, '{ queryTask { title } }')).toEqual({ queryTask: [{ title: 'stays' }] });

  const again = await dropCollection(server.url, 'Note');
  expect(again.status).toBe(200);
  expect(again.body.data).toEqual({ message: 'type Note has no collection: nothing to drop', type: 'Note', collectionDropped: false, deleted: 0, indexesDropped: [] });

  await activateSchema(server.url, WITH_NOTES);
  expect(await gqlData(server.url, '{ queryNote { code } }')).toEqual({ queryNote: [] });
});

test('dropping a type that never had a collection answers that nothing was dropped', async () => {
  const { status, body } = await dropCollection(server.url, 'Gone');
  expect(status).toBe(200);
  expect(body.data).toEqual({ message: 'type Gone has no collection: nothing to drop', type: 'Gone', collectionDropped: false, deleted: 0, indexesDropped: [] });
});

test.each([
  ['a service collection', '_autograph_schema'],
  ['a name with a dot', 'a.b'],
])('%s is refused with 400 BAD_REQUEST', async (_case, name) => {
  const { status, body } = await dropCollection(server.url, name);
  expect(status).toBe(400);
  expect(body.errors[0]).toEqual({
    message: `"${name}" is not a type name: a collection of a type is named like the type (letters, digits and _, not starting with _)`,
    extensions: { code: 'BAD_REQUEST' },
  });
  expect(await server.store.collection('_autograph_schema').count({ _id: 'active' })).toBe(1);
});

test('only DELETE is allowed', async () => {
  const response = await fetch(`${server.url}/admin/collections/Note`, { method: 'POST' });
  expect(response.status).toBe(405);
  expect(response.headers.get('allow')).toBe('DELETE');
});

test('a dry run of the removal reports the objects it keeps, with the way to drop them', async () => {
  const { body } = await postSchema(server.url, WITHOUT_NOTES, '?dryRun=true');
  expect(body.data.report.storedData).toEqual([
    {
      kind: 'OBJECTS_KEPT',
      type: 'Note',
      exampleId: expect.any(String),
      blocking: false,
      message: expect.stringMatching(/^type Note is removed; its stored objects stay unreadable until the type comes back or DELETE \/admin\/collections\/Note drops them \(one of them: ".+"\)$/),
    },
  ]);
});

test('a removed type whose collection a served type took over (@dgraph(type:)) is refused with 409 COLLECTION_IN_USE, and its objects stay', async () => {
  const renamed = WITH_NOTES.replace('type Note {', 'type Memo @dgraph(type: "Note") {');
  await activateSchema(server.url, renamed);
  expect(await gqlData(server.url, '{ aggregateMemo { count } }')).toEqual({ aggregateMemo: { count: 2 } });

  const { status, body } = await dropCollection(server.url, 'Note');
  expect(status).toBe(409);
  expect(body).toEqual({
    errors: [
      {
        message: 'the collection Note holds the objects of type Memo (@dgraph(type: "Note")), which the active schema serves: nothing was dropped',
        extensions: { code: 'COLLECTION_IN_USE' },
      },
    ],
  });
  expect(await server.store.collection('Note').count({})).toBe(2);
  expect(await gqlData(server.url, '{ queryMemo(order: { asc: code }) { code text } }')).toEqual({ queryMemo: [{ code: 'a', text: 'one' }, { code: 'b', text: 'two' }] });
});

test('a removed type stored under another collection name (@dgraph(type:)) is reported with, and dropped by, that name', async () => {
  const stored = 'type Task {\n  id: ID!\n  title: String\n}\ntype Memo @dgraph(type: "Jotting") {\n  id: ID!\n  text: String\n}\n';
  await activateSchema(server.url, stored);
  await gqlData(server.url, 'mutation { addMemo(input: [{ text: "kept" }]) { numUids } }');
  const { body } = await postSchema(server.url, WITHOUT_NOTES, '?dryRun=true');
  expect(body.data.report.storedData).toEqual([
    {
      kind: 'OBJECTS_KEPT',
      type: 'Memo',
      exampleId: expect.any(String),
      blocking: false,
      message: expect.stringMatching(/^type Memo is removed; its stored objects stay unreadable until the type comes back or DELETE \/admin\/collections\/Jotting drops them \(one of them: ".+"\)$/),
    },
  ]);
  await activateSchema(server.url, WITHOUT_NOTES);
  expect(await server.store.collection('Jotting').count({})).toBe(1);
  const { status, body: dropped } = await dropCollection(server.url, 'Jotting');
  expect(status).toBe(200);
  expect(dropped.data).toEqual(expect.objectContaining({ type: 'Jotting', collectionDropped: true, deleted: 1 }));
  expect(await server.store.collection('Jotting').count({})).toBe(0);
});
