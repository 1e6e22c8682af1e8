import { activateSchema, gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * One add whose inputs mix steps answered at once (Refs by an `@id` value read ahead, nested objects
 * created, an object created earlier in the same mutation) with steps that wait for the store (a Ref by
 * `id`): every object is created in input order, each Ref resolves to the object it names, and a refusal
 * at any step, before or after a step that waited, writes nothing.
 */

const SCHEMA = `
type Task {
  id: ID!
  title: String! @search(by: [term])
  owner: Person!
  tags: [Tag]
}

type Person {
  handle: String! @id
  name: String
  tasks: [Task] @hasInverse(field: owner)
}

type Tag {
  id: ID!
  label: String! @id
}
`;

const ADD_TASKS = 'mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids task(order: { asc: title }) { title owner { handle name } tags(order: { asc: label }) { label } } } }';
const EVERYTHING = '{ queryTask(order: { asc: title }) { title owner { handle } tags(order: { asc: label }) { label } } queryPerson(order: { asc: handle }) { handle name } queryTag(order: { asc: label }) { label } }';

let server: TestServer;
let redTagId: string;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await gqlData(server.url, 'mutation { addPerson(input: [{ handle: "ann", name: "Ann" }]) { numUids } }');
  const added = await gqlData<{ addTag: { tag: Array<{ id: string }> } }>(server.url, 'mutation { addTag(input: [{ label: "red" }]) { tag { id } } }');
  redTagId = added.addTag.tag[0]!.id;
});

afterAll(async () => {
  await server.close();
});

test('an add mixing Refs answered at once and Refs by id creates every object in order, each Ref naming its object', async () => {
  const input = [
    { title: 't1 existing owner, new tag', owner: { handle: 'ann' }, tags: [{ label: 'blue' }] },
    { title: 't2 new owner, tag by id', owner: { handle: 'bob', name: 'Bob' }, tags: [{ id: redTagId }] },
    { title: 't3 owner and tag created above', owner: { handle: 'bob' }, tags: [{ label: 'blue' }, { id: redTagId }] },
    { title: 't4 existing owner', owner: { handle: 'ann' } },
  ];
  const { body } = await gql(server.url, ADD_TASKS, { input });
  expect(body.errors).toBeUndefined();
  expect(body.data).toEqual({
    addTask: {
      numUids: 6,
      task: [
        { title: 't1 existing owner, new tag', owner: { handle: 'ann', name: 'Ann' }, tags: [{ label: 'blue' }] },
        { title: 't2 new owner, tag by id', owner: { handle: 'bob', name: 'Bob' }, tags: [{ label: 'red' }] },
        { title: 't3 owner and tag created above', owner: { handle: 'bob', name: 'Bob' }, tags: [{ label: 'blue' }, { label: 'red' }] },
        { title: 't4 existing owner', owner: { handle: 'ann', name: 'Ann' }, tags: [] },
      ],
    },
  });
  expect(await gqlData(server.url, '{ getPerson(handle: "bob") { tasks(order: { asc: title }) { title } } }')).toEqual({
    getPerson: { tasks: [{ title: 't2 new owner, tag by id' }, { title: 't3 owner and tag created above' }] },
  });
});

test.each<[string, (taskId: string) => Array<Record<string, unknown>>]>([
  ['a duplicate @id value in one add, with no store read before it', () => [{ handle: 'carl' }, { handle: 'carl' }]],
  ['an existing @id value after a Ref by id that took a task from its owner', (taskId) => [{ handle: 'dora', tasks: [{ id: taskId }] }, { handle: 'ann' }]],
])('%s refuses the whole add with DUPLICATE_ID, and writes nothing', async (_case, inputOf) => {
  const { queryTask } = await gqlData<{ queryTask: Array<{ id: string }> }>(server.url, '{ queryTask(filter: { title: { anyofterms: "t4" } }) { id } }');
  const input = inputOf(queryTask[0]!.id);
  const before = await gqlData(server.url, EVERYTHING);
  const { status, body } = await gql(server.url, 'mutation($input: [AddPersonInput!]!) { addPerson(input: $input) { numUids } }', { input });
  expect(status).toBe(200);
  expect(body.errors?.map((error) => [error.message, error.extensions?.code])).toEqual([
    [`couldn't rewrite mutation addPerson because failed to rewrite mutation payload because id ${String(input.at(-1)!.handle)} already exists for field handle inside type Person`, 'DUPLICATE_ID'],
  ]);
  expect(await gqlData(server.url, EVERYTHING)).toEqual(before);
});

test.each<[string, (red: string) => Array<Record<string, unknown>>, string]>([
  ['after inputs answered at once', () => [
    { title: 'never 1', owner: { handle: 'ann' }, tags: [{ label: 'green' }] },
    { title: 'never 2', owner: { handle: 'fay' }, tags: [{ id: '0xmissing' }] },
  ], '0xmissing'],
  ['after a Ref by id that found its object', (red) => [
    { title: 'never 3', owner: { handle: 'gus' }, tags: [{ id: red }, { label: 'yellow' }] },
    { title: 'never 4', owner: { handle: 'ann' }, tags: [{ label: 'yellow' }, { id: '0xgone' }] },
  ], '0xgone'],
])('a Ref by an id no object has, %s, refuses the whole add with BAD_USER_INPUT, and writes nothing', async (_case, inputOf, missing) => {
  const before = await gqlData(server.url, EVERYTHING);
  const { body } = await gql(server.url, ADD_TASKS, { input: inputOf(redTagId) });
  expect(body.data?.addTask ?? null).toBeNull();
  expect(body.errors?.map((error) => [error.message, error.extensions?.code])).toEqual([[`couldn't rewrite mutation addTask because failed to rewrite mutation payload because TagRef: no Tag with id "${missing}"`, 'BAD_USER_INPUT']]);
  expect(await gqlData(server.url, EVERYTHING)).toEqual(before);
});
