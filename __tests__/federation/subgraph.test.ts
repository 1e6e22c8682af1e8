import { composeServices } from '@apollo/composition';
import gql from 'graphql-tag';
import { countRoundTrips } from '../../src/store/counting';
import { activateSchema, gql as request, gqlData, uploadSchema } from '../helpers/gql';
import { startCountingTestServer, startTestServer, type TestServer } from '../helpers/server';

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

const data = <T = any>(query: string, variables?: Record<string, unknown>): Promise<T> => gqlData<T>(server.url, query, variables);

beforeAll(async () => {
  ({ server, counter } = await startCountingTestServer());
  await activateSchema(server.url, MISSIONS);
});

afterAll(() => server.close());

describe('validation errors name the type and field, with line:column', () => {
  const cases: Array<[string, string, string, number, number]> = [
    ['two @key on a type', 'type A @key(fields: "id") @key(fields: "id") { id: ID! }', 'Type A: at most one @key per type is supported', 1, 27],
    ['a key naming several fields', 'type A @key(fields: "id name") { id: ID! name: String }', 'Type A: @key(fields: "id name"): only one key field is supported', 1, 8],
    ['a key field neither ID nor @id', 'type A @key(fields: "name") {\n  id: ID!\n  name: String\n}', 'Type A: @key(fields: "name"): the key field must have type ID or carry @id; name is String', 1, 8],
    ['a key naming a missing field', 'type A @key(fields: "nope") { id: ID! }', 'Type A: @key(fields: "nope"): the type has no field nope', 1, 8],
    ['@external on a type that is not extended', 'type A {\n  id: ID!\n  name: String @external\n}', 'Type A; field name: @external is allowed only on extended types (`@extends` or `extend type`)', 3, 16],
    ['@provides on a non-entity', 'type A {\n  id: ID!\n  b: B @provides(fields: "x")\n}\ntype B { id: ID! x: String }', 'Type A; field b: @provides applies to a field whose type is an entity (a type with @key); B is not one', 3, 8],
    ['@provides naming a missing field', 'type A {\n  id: ID!\n  b: B @provides(fields: "y")\n}\ntype B @key(fields: "id") { id: ID! x: String }', 'Type A; field b: @provides(fields:) names y, but type B has no field y', 3, 8],
    ['@requires outside an extended type', 'type A {\n  id: ID!\n  x: String\n  y: String @requires(fields: "x")\n}', 'Type A; field y: @requires is allowed only on fields of extended types (`@extends` or `extend type`)', 4, 13],
    ['@requires naming a field that is not @external', 'extend type A @key(fields: "id") {\n  id: ID! @external\n  x: String\n  y: String @requires(fields: "x")\n}', 'Type A; field y: @requires(fields:) names x, which is not @external', 4, 13],
  ];
  test.each(cases)('%s', async (_name, schema, message, line, column) => {
    const { status, body } = await uploadSchema(server.url, schema);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ message, locations: [{ line, column }], extensions: { code: 'BAD_SCHEMA' } }]);
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

  test('omits the queries of extended types and keeps their mutations (spec 4.2, rule 1), with the types they name', () => {
    expect(sdl).not.toMatch(/\b(get|query|aggregate)Astronaut\b/);
    expect(sdl).not.toMatch(/\bAstronautAggregateResult\b/);
    expect(sdl).toMatch(/\n  addAstronaut\(input: \[AddAstronautInput!\]!\): AddAstronautPayload\n/);
    expect(sdl).toMatch(/\n  updateAstronaut\(input: UpdateAstronautInput!\): UpdateAstronautPayload\n/);
    expect(sdl).toMatch(/\n  deleteAstronaut\(filter: AstronautFilter!\): DeleteAstronautPayload\n/);
    for (const name of ['AstronautFilter', 'AstronautHasFilter', 'AstronautOrder', 'AstronautOrderable', 'AstronautPatch', 'AddAstronautInput', 'UpdateAstronautInput']) {
      expect(sdl).toMatch(new RegExp(`\\n(input|enum) ${name} \\{`));
    }
    for (const name of ['AddAstronautPayload', 'UpdateAstronautPayload', 'DeleteAstronautPayload']) expect(sdl).toMatch(new RegExp(`\\ntype ${name} \\{`));
    expect(sdl).toMatch(/\binput AstronautRef \{/);
    expect(sdl).toMatch(/\baddMission\(/);
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
    const { query, mutation } = await data(`{ query: __type(name: "Query") { fields { name } } mutation: __type(name: "Mutation") { fields { name } } }`);
    const names = [...query.fields, ...mutation.fields].map((field: { name: string }) => field.name);
    expect(names).toEqual(expect.arrayContaining(['getAstronaut', 'queryAstronaut', 'aggregateAstronaut', 'addAstronaut', 'updateAstronaut', 'deleteAstronaut']));
  });

  test('relation fields keep their generated arguments here and in the gateway view, except where they would not compose', async () => {
    const { __type } = await data(`{ __type(name: "Mission") { fields { name args { name } } } }`);
    const crew = __type.fields.find((field: { name: string }) => field.name === 'crew');
    expect(crew.args.map((arg: { name: string }) => arg.name)).toEqual(['filter', 'order', 'first', 'offset']);
    // Mission is an entity owned here (another subgraph may declare crew @external) and crew targets an extended type.
    expect(sdl).toMatch(/\n  crew: \[Astronaut\] @provides\(fields: "name"\)\n/);
    expect(sdl).not.toMatch(/crewAggregate/);
    // Astronaut.missions: an extended type's own relation to a type owned here keeps them.
    expect(sdl).toMatch(/\n  missions\(filter: MissionFilter, order: MissionOrder, first: Int, offset: Int\): \[Mission\]\n  missionsAggregate\(filter: MissionFilter\): MissionAggregateResult\n/);
  });
});

describe('extended types and _entities', () => {
  test('addAstronaut requires the owner\'s id; a second add with that id is refused; no upsert (no @id field)', async () => {
    const missing = await request(server.url, 'mutation { addAstronaut(input: [{ name: "x" }]) { numUids } }');
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      {
        message: 'Field "AddAstronautInput.id" of required type "ID!" was not provided.',
        locations: [{ line: 1, column: 33 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);

    await data('mutation { addAstronaut(input: [{ id: "a1", name: "Neil Armstrong" }]) { numUids } }');
    const again = await request(server.url, 'mutation { addAstronaut(input: [{ id: "a1", name: "Neil" }]) { numUids } }');
    expect(again.body.errors?.[0].message).toBe('couldn\'t rewrite mutation addAstronaut because failed to rewrite mutation payload because id a1 already exists for field id inside type Astronaut');
    // As in Dgraph, `upsert` exists only for types with an @id field; an extended type's object changes through update.
    const upsert = await request(server.url, 'mutation { addAstronaut(input: [{ id: "a1", name: "Neil" }], upsert: true) { numUids } }');
    expect(upsert.body.errors?.map((error) => error.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const update = await data('mutation { updateAstronaut(input: { filter: { id: ["a1"] }, set: { name: "Neil A. Armstrong" } }) { astronaut { id name } } }');
    expect(update.updateAstronaut.astronaut).toEqual([{ id: 'a1', name: 'Neil A. Armstrong' }]);
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

  test('a representation of an unknown type is a clear error of the client', async () => {
    const { body } = await request(server.url, `{ _entities(representations: [{ __typename: "Rocket", serial: "SA-506" }, { __typename: "Planet", id: "1" }]) { __typename } }`);
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([expect.objectContaining({
      message: '_entities: representations[1] has __typename "Planet", which is not an entity of this service (entities: Astronaut, Mission, Rocket)',
      path: ['_entities'],
      extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    })]);
  });

  test('@provides: the provided external field is stored here and returned through the providing field', async () => {
    const { queryMission } = await data(`{ queryMission(filter: { designation: { eq: "Apollo 11" } }) { crew(order: { asc: name }) { id name } } }`);
    expect(queryMission).toEqual([{ crew: [{ id: 'a2', name: 'Buzz Aldrin' }, { id: 'a1', name: 'Neil A. Armstrong' }] }]);
  });
});

describe('an extended type keyed by an @id field', () => {
  const REVIEWS = `
type Review @key(fields: "id") {
  id: ID!
  body: String! @search(by: [term])
  author: User
}

extend type User @key(fields: "email") {
  email: String! @id @external
  nickname: String
  reviews: [Review] @hasInverse(field: author)
}
`;
  let reviews: TestServer;
  const reviewsData = <T = any>(query: string, variables?: Record<string, unknown>): Promise<T> => gqlData<T>(reviews.url, query, variables);

  beforeAll(async () => {
    reviews = await startTestServer();
    await activateSchema(reviews.url, REVIEWS);
  });
  afterAll(() => reviews.close());

  test('AddUserInput requires the key; an add without it is refused', async () => {
    const { __type } = await reviewsData(`{ __type(name: "AddUserInput") { inputFields { name type { kind ofType { name } } } } }`);
    expect(__type.inputFields).toContainEqual({ name: 'email', type: { kind: 'NON_NULL', ofType: { name: 'String' } } });
    const { body } = await request(reviews.url, 'mutation { addUser(input: [{ nickname: "no key" }]) { numUids } }');
    expect(body.errors?.[0].message).toBe('Field "AddUserInput.email" of required type "String!" was not provided.');
  });

  test('a second add with the same key is DUPLICATE_ID unless upsert', async () => {
    const added = await reviewsData(`mutation {
      addUser(input: [{ email: "ada@example.com", nickname: "Ada", reviews: [{ body: "Great engine" }] }]) { numUids user { email nickname } }
    }`);
    expect(added.addUser).toEqual({ numUids: 2, user: [{ email: 'ada@example.com', nickname: 'Ada' }] });

    const { body } = await request(reviews.url, 'mutation { addUser(input: [{ email: "ada@example.com", nickname: "Other" }]) { numUids } }');
    expect(body.errors).toEqual([expect.objectContaining({
      message: 'couldn\'t rewrite mutation addUser because failed to rewrite mutation payload because id ada@example.com already exists for field email inside type User',
      extensions: expect.objectContaining({ code: 'DUPLICATE_ID', type: 'User', field: 'email', value: 'ada@example.com' }),
    })]);

    const upsert = await reviewsData(`mutation {
      addUser(upsert: true, input: [{ email: "ada@example.com", nickname: "Ada L." }]) { numUids user { email nickname reviews { body } } }
    }`);
    expect(upsert.addUser).toEqual({ numUids: 0, user: [{ email: 'ada@example.com', nickname: 'Ada L.', reviews: [{ body: 'Great engine' }] }] });
    expect((await reviewsData(`{ aggregateUser { count } }`)).aggregateUser.count).toBe(1);
  });

  test('_entities returns the stored object, and one with empty local fields for a key not held here', async () => {
    const { _entities } = await reviewsData(`query($representations: [_Any!]!) {
      _entities(representations: $representations) { ... on User { email nickname reviews { body author { email } } } }
    }`, {
      representations: [
        { __typename: 'User', email: 'ada@example.com' },
        { __typename: 'User', email: 'grace@example.com' },
      ],
    });
    expect(_entities).toEqual([
      { email: 'ada@example.com', nickname: 'Ada L.', reviews: [{ body: 'Great engine', author: { email: 'ada@example.com' } }] },
      { email: 'grace@example.com', nickname: null, reviews: [] },
    ]);
  });
});
