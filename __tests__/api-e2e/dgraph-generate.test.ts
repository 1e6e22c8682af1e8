import { gqlData, uploadSchema } from '../helpers/gql';
import { startTestServer } from '../helpers/server';
import { useService } from './harness';

/** `@generate` over HTTP: a switched-off operation is not in the API, so asking for it fails validation. */

const SCHEMA = `
type Person @generate(query: {get: false, aggregate: false}, mutation: {update: false, delete: false}) {
  id: ID!
  name: String! @search(by: [hash])
}

type Log @generate(query: {get: false, query: false, aggregate: false}, mutation: {add: true, update: false, delete: false}) {
  id: ID!
  line: String!
}
`;

const api = useService(SCHEMA);

test('the operations left on work', async () => {
  expect(await api.data(`mutation { addPerson(input: [{ name: "Ada" }, { name: "Bob" }]) { numUids } }`)).toEqual({ addPerson: { numUids: 2 } });
  expect(await api.data(`{ queryPerson(filter: { name: { eq: "Ada" } }) { name } }`)).toEqual({ queryPerson: [{ name: 'Ada' }] });
  expect(await api.data(`mutation { addLog(input: [{ line: "started" }]) { log { line } } }`)).toEqual({ addLog: { log: [{ line: 'started' }] } });
});

test.each([
  ['getPerson', `{ getPerson(id: "0x1") { name } }`, 'Cannot query field "getPerson" on type "Query". Did you mean "queryPerson"?'],
  ['aggregatePerson', `{ aggregatePerson { count } }`, 'Cannot query field "aggregatePerson" on type "Query".'],
  ['updatePerson', `mutation { updatePerson(input: { filter: {}, set: { name: "x" } }) { numUids } }`, 'Cannot query field "updatePerson" on type "Mutation". Did you mean "addPerson"?'],
  ['deletePerson', `mutation { deletePerson(filter: {}) { numUids } }`, 'Cannot query field "deletePerson" on type "Mutation".'],
  ['queryLog', `{ queryLog { line } }`, 'Cannot query field "queryLog" on type "Query".'],
])('%s is switched off: a validation error', async (_name, request, message) => {
  expect(await api.errors(request)).toEqual([{ code: 'GRAPHQL_VALIDATION_FAILED', message }]);
});

test('the types of switched-off operations are not in the API either', async () => {
  const result = await api.data(`{
    patch: __type(name: "PersonPatch") { name }
    updateInput: __type(name: "UpdatePersonInput") { name }
    deletePayload: __type(name: "DeletePersonPayload") { name }
    addInput: __type(name: "AddPersonInput") { name }
  }`);
  expect(result).toEqual({ patch: null, updateInput: null, deletePayload: null, addInput: { name: 'AddPersonInput' } });
});

test('a schema whose types switch every query off still serves (the API keeps the federation fields of Query)', async () => {
  const server = await startTestServer();
  try {
    const upload = await uploadSchema(server.url, 'type Note @generate(query: {get: false, query: false, aggregate: false}) { id: ID!  text: String }');
    expect(upload.status).toBe(200);
    expect(await gqlData(server.url, 'mutation { addNote(input: [{ text: "a" }]) { numUids } }')).toEqual({ addNote: { numUids: 1 } });
  } finally {
    await server.close();
  }
});
