import { composeServices } from '@apollo/composition';
import gql from 'graphql-tag';
import { countRoundTrips } from '../../src/store/counting';
import { activateSchema, gql as request, uploadSchema } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/** Issue 4 over HTTP: validation, `_service`, `_entities`, extended types and `@provides`. */

const MISSIONS = `
type Mission @key(fields: "id") {
  id: ID!
  crew: [Astronaut] @provides(fields: "name")
  designation: String! @search(by: [hash])
}

extend type Astronaut @key(fields: "id") {
  id: ID! @external
  name: String! @external
  missions: [Mission] @hasInverse(field: crew)
}

type Rocket @key(fields: "serial") {
  id: ID!
  serial: String! @id
  stages: Int
}
`;

const ASTRONAUT_OWNER = gql`
  type Astronaut @key(fields: "id") {
    id: ID!
    name: String!
  }
  type Query {
    astronauts: [Astronaut]
  }
`;

let server: TestServer;
let counter: ReturnType<typeof countRoundTrips>['counter'];

async function data<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const { status, body } = await request(server.url, query, variables);
  if (body.errors) throw new Error(`GraphQL errors (HTTP ${status}): ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

beforeAll(async () => {
  server = await startTestServer({
    wrapStore: (store) => {
      const counted = countRoundTrips(store);
      counter = counted.counter;
      return counted.store;
    },
  });
  await activateSchema(server.url, MISSIONS);
});

afterAll(() => server.close());

describe('validation errors name the type and field, with line:column', () => {
  const cases: Array<[string, string, RegExp, number]> = [
    ['two @key on a type', 'type A @key(fields: "id") @key(fields: "id") { id: ID! }', /Type A: at most one @key per type/, 1],
    ['a key naming several fields', 'type A @key(fields: "id name") { id: ID! name: String }', /Type A: @key\(fields: "id name"\): only one key field/, 1],
    ['a key field neither ID nor @id', 'type A @key(fields: "name") {\n  id: ID!\n  name: String\n}', /Type A: @key\(fields: "name"\): the key field must have type ID or carry @id/, 1],
    ['a key naming a missing field', 'type A @key(fields: "nope") { id: ID! }', /Type A: @key\(fields: "nope"\): the type has no field nope/, 1],
    ['@external on a type that is not extended', 'type A {\n  id: ID!\n  name: String @external\n}', /Type A; field name: @external is allowed only on extended types/, 3],
    ['@provides on a non-entity', 'type A {\n  id: ID!\n  b: B @provides(fields: "x")\n}\ntype B { id: ID! x: String }', /Type A; field b: @provides applies to a field whose type is an entity/, 3],
    ['@provides naming a missing field', 'type A {\n  id: ID!\n  b: B @provides(fields: "y")\n}\ntype B @key(fields: "id") { id: ID! x: String }', /Type A; field b: @provides\(fields:\) names y, but type B has no field y/, 3],
    ['@requires outside an extended type', 'type A {\n  id: ID!\n  x: String\n  y: String @requires(fields: "x")\n}', /Type A; field y: @requires is allowed only on fields of extended types/, 4],
    ['@requires naming a field that is not @external', 'extend type A @key(fields: "id") {\n  id: ID! @external\n  x: String\n  y: String @requires(fields: "x")\n}', /Type A; field y: @requires\(fields:\) names x, which is not @external/, 4],
  ];
  test.each(cases)('%s', async (_name, schema, message, line) => {
    const { status, body } = await uploadSchema(server.url, schema);
    expect(status).toBe(400);
    const error = body.errors?.find((candidate) => message.test(candidate.message));
    expect(error).toBeDefined();
    expect(error?.locations?.[0]).toEqual({ line, column: expect.any(Number) });
  });

  test('after the refused uploads the federated schema still serves', async () => {
    expect(await data('{ queryMission { id } }')).toEqual({ queryMission: [] });
  });
});

describe('_service', () => {
  let sdl: string;
  beforeAll(async () => {
    sdl = (await data('{ _service { sdl } }'))._service.sdl;
  });

  test('omits the queries of extended types and keeps their mutations', () => {
    expect(sdl).not.toMatch(/\bgetAstronaut\b|\bqueryAstronaut\b|\baggregateAstronaut\b/);
    expect(sdl).toMatch(/\baddAstronaut\(/);
    expect(sdl).toMatch(/\bupdateAstronaut\(/);
    expect(sdl).toMatch(/\bdeleteAstronaut\(/);
    expect(sdl).toMatch(/\bqueryMission\(/);
    expect(sdl).toMatch(/type Astronaut @key\(fields: "id"\) @extends/);
  });

  test('the SDL composes with the owning service under @apollo/composition', () => {
    const result = composeServices([
      { name: 'astronauts', url: 'http://127.0.0.1:1/', typeDefs: ASTRONAUT_OWNER },
      { name: 'missions', url: 'http://127.0.0.1:2/', typeDefs: gql(sdl) },
    ]);
    expect(result.errors).toBeUndefined();
    expect(result.supergraphSdl).toMatch(/missions\(filter: MissionFilter.*\): \[Mission\]/);
  });

  test('this service\'s own endpoint still serves all six operations of the extended type', async () => {
    const { __type } = await data(`{ __type(name: "Query") { fields { name } } }`);
    const names = __type.fields.map((field: { name: string }) => field.name);
    expect(names).toEqual(expect.arrayContaining(['getAstronaut', 'queryAstronaut', 'aggregateAstronaut']));
  });
});

describe('extended types and _entities', () => {
  test('addAstronaut requires the owner\'s id; a second add with that id is refused unless upsert', async () => {
    const missing = await request(server.url, 'mutation { addAstronaut(input: [{ name: "x" }]) { numUids } }');
    expect(missing.body.errors?.[0].message).toMatch(/AddAstronautInput.*id|id.*required|"id"/i);

    await data('mutation { addAstronaut(input: [{ id: "a1", name: "Neil Armstrong" }]) { numUids } }');
    const again = await request(server.url, 'mutation { addAstronaut(input: [{ id: "a1" }]) { numUids } }');
    expect(again.body.errors?.[0].message).toBe('id a1 already exists for field id inside type Astronaut');
    const upsert = await data('mutation { addAstronaut(input: [{ id: "a1", name: "Neil A. Armstrong" }], upsert: true) { astronaut { id name } } }');
    expect(upsert.addAstronaut.astronaut).toEqual([{ id: 'a1', name: 'Neil A. Armstrong' }]);
  });

  test('_entities resolves owned and extended types, batched: one store query per type', async () => {
    const { addMission } = await data(`mutation {
      addMission(input: [
        { designation: "Gemini 8", crew: [{ id: "a1" }] },
        { designation: "Apollo 11", crew: [{ id: "a1" }, { id: "a2", name: "Buzz Aldrin" }] }
      ]) { mission(order: { asc: designation }) { id designation } }
    }`);
    const [apollo, gemini] = addMission.mission;
    counter.reset();
    const { _entities } = await data(`query($representations: [_Any!]!) {
      _entities(representations: $representations) {
        ... on Mission { designation }
        ... on Astronaut { id missions(order: { asc: designation }) { designation } }
      }
    }`, {
      representations: [
        { __typename: 'Mission', id: gemini.id },
        { __typename: 'Astronaut', id: 'a1' },
        { __typename: 'Mission', id: apollo.id },
        { __typename: 'Astronaut', id: 'a2' },
        { __typename: 'Astronaut', id: 'never-added-here' },
        { __typename: 'Mission', id: '000000000000000000000000' },
      ],
    });
    expect(_entities).toEqual([
      { designation: 'Gemini 8' },
      { id: 'a1', missions: [{ designation: 'Apollo 11' }, { designation: 'Gemini 8' }] },
      { designation: 'Apollo 11' },
      { id: 'a2', missions: [{ designation: 'Apollo 11' }] },
      // An extended entity with no local document: its local fields are empty, not an error.
      { id: 'never-added-here', missions: [] },
      // An owned entity that does not exist.
      null,
    ]);
    // One query for all Missions, one for all Astronauts, one for the missions of all astronauts.
    expect(counter.byOperation).toEqual({ find: 3 });
    expect(counter.count).toBe(3);
  });

  test('an entity keyed by an @id field resolves by that field', async () => {
    await data('mutation { addRocket(input: [{ serial: "SA-506", stages: 3 }]) { numUids } }');
    const { _entities } = await data(`{ _entities(representations: [{ __typename: "Rocket", serial: "SA-506" }]) { ... on Rocket { serial stages } } }`);
    expect(_entities).toEqual([{ serial: 'SA-506', stages: 3 }]);
  });

  test('a representation of an unknown type is a clear error', async () => {
    const { body } = await request(server.url, `{ _entities(representations: [{ __typename: "Planet", id: "1" }]) { __typename } }`);
    expect(body.errors?.[0].message).toMatch(/Planet/);
  });

  test('@provides: the provided external field is stored here and returned through the providing field', async () => {
    const { queryMission } = await data(`{ queryMission(filter: { designation: { eq: "Apollo 11" } }) { crew(order: { asc: name }) { id name } } }`);
    expect(queryMission).toEqual([{ crew: [{ id: 'a2', name: 'Buzz Aldrin' }, { id: 'a1', name: 'Neil A. Armstrong' }] }]);
  });
});
