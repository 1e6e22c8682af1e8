/**
 * `DELETE /admin/collections/<Type>` drops the stored objects of a type the active schema no longer has,
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

test('a removed type keeps its objects until dropped; the drop deletes them and their indexes, and leaves other types alone', async () => {
  await activateSchema(server.url, WITHOUT_NOTES);
  expect(await server.store.collection('Note').count({})).toBe(2);
  // The activation dropped the removed type's indexes; one left behind (by a service that started with the
  // new schema over old data, say) goes with the drop.
  expect(await server.store.listIndexes('Note')).toEqual([]);
  await server.store.syncIndexes('Note', [{ name: 'ag_search_text', keys: { text: 1 } }], 'ag_');

  const { status, body } = await dropCollection(server.url, 'Note');
  expect(status).toBe(200);
  expect(body).toEqual({
    data: {
      message: 'dropped the stored objects of type Note',
      type: 'Note',
      deleted: 2,
      indexesDropped: ['Note.ag_search_text'],
    },
  });
  expect(await server.store.collection('Note').count({})).toBe(0);
  expect((await server.store.listIndexes('Note')).filter((index) => index.name.startsWith('ag_'))).toEqual([]);
  expect(await gqlData(server.url, '{ queryTask { title } }')).toEqual({ queryTask: [{ title: 'stays' }] });

  await activateSchema(server.url, WITH_NOTES);
  expect(await gqlData(server.url, '{ queryNote { code } }')).toEqual({ queryNote: [] });
});

test('dropping a type that has no stored objects answers 0 deleted', async () => {
  const { status, body } = await dropCollection(server.url, 'Gone');
  expect(status).toBe(200);
  expect(body.data).toEqual({ message: 'dropped the stored objects of type Gone', type: 'Gone', deleted: 0, indexesDropped: [] });
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
