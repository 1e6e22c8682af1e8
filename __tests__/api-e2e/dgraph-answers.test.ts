import { useService } from './harness';

/**
 * Answers as Dgraph gives them (issue 31, section 4), over HTTP: a list never set is `[]`; an update with
 * nothing to set or remove changes nothing; `getT` with an ID that cannot be one is an error naming the
 * argument; enum descriptions survive into introspection. References are in each test.
 */
const SCHEMA = `
"""How far a task has come"""
enum Status {
  """Not started yet"""
  TODO
  DONE
}

interface Named {
  id: ID!
  name: String! @search(by: [hash])
  aliases: [String]
}

type Task implements Named {
  title: String
  tags: [String] @search(by: [hash])
  scores: [Int!]!
  statuses: [Status]
  subtasks: [Task]
  status: Status
}

type Tag {
  code: ID! @id
  label: String
  words: [String]
}

type Planet @key(fields: "id") @extends {
  id: ID! @external
  moons: [String]
}

type Member @secret(field: "password") {
  id: ID!
  nick: String! @id
}
`;

const api = useService(SCHEMA);

let taskId: string;
let otherId: string;

beforeAll(async () => {
  const added = await api.data(`mutation {
    addTask(input: [{ name: "empty", title: "t", scores: [] }, { name: "full", title: "u", tags: ["a"], scores: [1], statuses: [DONE], aliases: ["f"] }]) {
      task { id name }
    }
  }`);
  taskId = added.addTask.task.find((task: { name: string }) => task.name === 'empty').id;
  otherId = added.addTask.task.find((task: { name: string }) => task.name === 'full').id;
  await api.data(`mutation { addTag(input: [{ code: "not-hex", label: "x" }]) { numUids } }`);
  await api.data(`mutation { addPlanet(input: [{ id: "earth-1" }]) { numUids } }`);
  await api.data(`mutation { addMember(input: [{ nick: "ann", password: "secret-1" }]) { numUids } }`);
  // An object stored under an id the service did not make (an import from elsewhere, say).
  await api.server.store.collection('Task').insertMany([{ _id: 'imported-1', name: 'imported', title: 'i', scores: [] }]);
});

describe('a list field never set answers [] (Dgraph: field.NullValue() in graphql/schema/wrappers.go)', () => {
  test('scalar lists, enum lists, object lists and an inherited list of a stored object', async () => {
    // `scores: []` was stored as given; the other lists were never set.
    const { getTask } = await api.data(`query($id: ID!) { getTask(id: $id) { tags scores statuses subtasks { id } aliases } }`, { id: taskId });
    expect(getTask).toEqual({ tags: [], scores: [], statuses: [], subtasks: [], aliases: [] });
  });

  test('through an interface, in a payload, on a type with a supplied id and on an extended type', async () => {
    const { queryNamed } = await api.data(`{ queryNamed(filter: { name: { eq: "empty" } }) { aliases ... on Task { tags } } }`);
    expect(queryNamed).toEqual([{ aliases: [], tags: [] }]);
    const { getTag, getPlanet } = await api.data(`{ getTag(code: "not-hex") { words } getPlanet(id: "earth-1") { moons } }`);
    expect(getTag).toEqual({ words: [] });
    expect(getPlanet).toEqual({ moons: [] });
    const { updateTask } = await api.data(`mutation($id: ID!) { updateTask(input: { filter: { id: [$id] }, set: { title: "t2" } }) { task { title tags } } }`, { id: taskId });
    expect(updateTask.task).toEqual([{ title: 't2', tags: [] }]);
  });

  test('a list that holds values keeps them', async () => {
    const { getTask } = await api.data(`query($id: ID!) { getTask(id: $id) { tags scores statuses aliases } }`, { id: otherId });
    expect(getTask).toEqual({ tags: ['a'], scores: [1], statuses: ['DONE'], aliases: ['f'] });
  });
});

describe('updateT with nothing to set or remove (Dgraph e2e: updateMutationTestsWithDifferentSetRemoveCases)', () => {
  test.each([
    ['no set and no remove', ''],
    ['an empty remove', ', remove: {}'],
    ['an empty set and remove', ', set: {}, remove: {}'],
    ['an empty set', ', set: {}'],
    ['null set and remove', ', set: null, remove: null'],
  ])('%s: numUids 0, an empty list, nothing changed', async (_name, patch) => {
    const result = await api.data(`query($id: ID!) { getTask(id: $id) { title } }`, { id: otherId });
    const { updateTask } = await api.data(`mutation($id: ID!) { updateTask(input: { filter: { id: [$id] }${patch} }) { numUids task { id title } } }`, { id: otherId });
    expect(updateTask).toEqual({ numUids: 0, task: [] });
    expect(await api.data(`query($id: ID!) { getTask(id: $id) { title } }`, { id: otherId })).toEqual(result);
  });
});

describe('getT with an ID that cannot be one (Dgraph: IDArgValue, "couldn\'t rewrite query")', () => {
  test('the error names the argument and the query, at the field, with its alias as the path', async () => {
    const body = await api.raw(`{ byId: getTask(id: "not-an-id") { name } }`);
    expect(body.data).toEqual({ byId: null });
    expect(body.errors).toEqual([{
      message: "couldn't rewrite query byId because ID argument (not-an-id) of getTask was not able to be parsed",
      locations: [{ line: 1, column: 3 }],
      path: ['byId'],
      extensions: { code: 'BAD_USER_INPUT' },
    }]);
  });

  test('through an interface too, while an id of the right form that names nothing is null', async () => {
    expect(await api.errors(`{ getNamed(id: "0x1") { name } }`)).toEqual([
      { code: 'BAD_USER_INPUT', message: "couldn't rewrite query getNamed because ID argument (0x1) of getNamed was not able to be parsed" },
    ]);
    expect(await api.data(`{ getTask(id: "ffffffffffffffffffffffff") { name } getNamed(id: "ffffffffffffffffffffffff") { name } }`)).toEqual({ getTask: null, getNamed: null });
  });

  test('checkTPassword refuses such an ID the same way', async () => {
    expect(await api.errors(`{ checkMemberPassword(id: "nope", password: "secret-1") { nick } }`)).toEqual([
      { code: 'BAD_USER_INPUT', message: "couldn't rewrite query checkMemberPassword because ID argument (nope) of checkMemberPassword was not able to be parsed" },
    ]);
  });

  test('an object stored under an id of another form stays reachable', async () => {
    expect(await api.data(`{ getTask(id: "imported-1") { name } }`)).toEqual({ getTask: { name: 'imported' } });
  });

  test('ids the caller supplies (an ID @id field, an extended type) may be any text', async () => {
    expect(await api.data(`{ getTag(code: "not-hex") { label } getPlanet(id: "earth-1") { id } missing: getPlanet(id: "nope") { id } }`))
      .toEqual({ getTag: { label: 'x' }, getPlanet: { id: 'earth-1' }, missing: null });
  });

  test('in a filter, an id that cannot be one matches nothing and is no error (Dgraph: convertIDs skips it)', async () => {
    const { queryTask } = await api.data(`query($id: ID!) { queryTask(filter: { id: ["not-an-id", $id] }) { name } }`, { id: otherId });
    expect(queryTask).toEqual([{ name: 'full' }]);
  });
});

test('introspection keeps the descriptions of an enum and its values (Dgraph: schemagen comments-and-descriptions)', async () => {
  const { __type } = await api.data(`{ __type(name: "Status") { description enumValues { name description } } }`);
  expect(__type).toEqual({
    description: 'How far a task has come',
    enumValues: [{ name: 'TODO', description: 'Not started yet' }, { name: 'DONE', description: null }],
  });
});
