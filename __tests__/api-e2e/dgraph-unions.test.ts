import { gql } from '../helpers/gql';
import { authorizationLine, tokenFor } from '../auth/keys';
import { pluck, useService } from './harness';

/**
 * Union types over HTTP, with the schema of Dgraph's union test (graphql/schema/testdata/schemagen/input/
 * union.graphql): a list of union type on Planet, a single one on an interface, Refs with one member key,
 * `memberTypes` and member filters, inline fragments, and each member's own `@auth` rule.
 */

const SCHEMA = `
interface Character {
  id: ID!
  name: String! @search(by: [exact])
  enemyOf: Resident
}

type Human implements Character {
  totalCredits: Int
}

type Droid implements Character {
  primaryFunction: String
}

type Starship @auth(query: { rule: "{ $ROLE: { eq: \\"PILOT\\" } }" }) {
  id: ID!
  name: String! @search(by: [term])
  length: Float
}

union Resident = Human | Droid | Starship

type Planet {
  id: ID!
  name: String! @search(by: [hash])
  residents: [Resident!]
}

${authorizationLine()}
`;

const api = useService(SCHEMA);
const pilot = { 'X-Auth-Token': tokenFor({ ROLE: 'PILOT' }) };

async function asPilot(query: string, variables?: Record<string, unknown>) {
  const { body } = await gql(api.server.url, query, variables, pilot);
  if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data as any;
}

let ids: Record<string, string>;

beforeAll(async () => {
  const added = await asPilot(`mutation {
    addHuman(input: [{ name: "Luke", totalCredits: 10 }, { name: "Han", totalCredits: 90 }]) { human { id name } }
    addDroid(input: [{ name: "R2-D2", primaryFunction: "Astromech" }]) { droid { id name } }
  }`);
  ids = Object.fromEntries([...added.addHuman.human, ...added.addDroid.droid].map((one: { id: string; name: string }) => [one.name, one.id]));
  const planet = await asPilot(`mutation($residents: [ResidentRef!]) {
    addPlanet(input: [{ name: "Tatooine", residents: $residents }, { name: "Alderaan" }]) { planet { id name } }
  }`, {
    residents: [
      { humanRef: { id: ids.Luke } },
      { droidRef: { id: ids['R2-D2'] } },
      { starshipRef: { name: "X-wing", length: 12.5 } },
    ],
  });
  ids.Tatooine = planet.addPlanet.planet.find((one: { name: string }) => one.name === 'Tatooine').id;
});

test('a union list answers each object with its own type, read through inline fragments', async () => {
  const result = await asPilot(`{ queryPlanet(filter: { name: { eq: "Tatooine" } }) {
    name
    residents { __typename ... on Character { name } ... on Human { totalCredits } ... on Droid { primaryFunction } ... on Starship { name length } }
  } }`);
  expect(result.queryPlanet).toEqual([{
    name: 'Tatooine',
    residents: [
      { __typename: 'Human', name: 'Luke', totalCredits: 10 },
      { __typename: 'Droid', name: 'R2-D2', primaryFunction: 'Astromech' },
      { __typename: 'Starship', name: 'X-wing', length: 12.5 },
    ],
  }]);
});

test('the filter picks members with memberTypes and filters each member with its own filter', async () => {
  const result = await asPilot(`{ queryPlanet(filter: { name: { eq: "Tatooine" } }) {
    onlyMachines: residents(filter: { memberTypes: [Droid, Starship] }) { __typename }
    lukeOnly: residents(filter: { memberTypes: [Human], humanFilter: { name: { eq: "Luke" } } }) { ... on Human { name } }
    noHan: residents(filter: { humanFilter: { name: { eq: "Han" } } }) { __typename }
    ships: residents(filter: { starshipFilter: { name: { anyofterms: "wing" } }, memberTypes: [Starship] }) { ... on Starship { name } }
    page: residents(first: 1, offset: 1) { __typename }
  } }`);
  expect(result.queryPlanet[0]).toEqual({
    onlyMachines: [{ __typename: 'Droid' }, { __typename: 'Starship' }],
    lukeOnly: [{ name: 'Luke' }],
    noHan: [{ __typename: 'Droid' }, { __typename: 'Starship' }],
    ships: [{ name: 'X-wing' }],
    page: [{ __typename: 'Droid' }],
  });
});

test('each member keeps its own @auth rule: without the PILOT role the starship is not there', async () => {
  const result = await api.data(`{ queryPlanet(filter: { name: { eq: "Tatooine" } }) { residents { __typename } } }`);
  expect(pluck(result.queryPlanet[0].residents, '__typename')).toEqual(['Human', 'Droid']);
});

test('a single union field on an interface: set through the Patch, read back per member', async () => {
  await asPilot(`mutation($ref: ResidentRef) { updateCharacter(input: { filter: { name: { eq: "Han" } }, set: { enemyOf: $ref } }) { numUids } }`, {
    ref: { droidRef: { id: ids['R2-D2'] } },
  });
  const result = await asPilot(`{ queryCharacter(filter: { name: { eq: "Han" } }) { name enemyOf { __typename ... on Droid { name } } } }`);
  expect(result.queryCharacter).toEqual([{ name: 'Han', enemyOf: { __typename: 'Droid', name: 'R2-D2' } }]);
  const filtered = await asPilot(`{ queryCharacter(filter: { name: { eq: "Han" } }) { enemyOf(filter: { memberTypes: [Human] }) { __typename } } }`);
  expect(filtered.queryCharacter).toEqual([{ enemyOf: null }]);
});

test('update adds and removes union references; deleting a member object drops it from every union field', async () => {
  await asPilot(`mutation($add: [ResidentRef!], $drop: [ResidentRef!]) {
    updatePlanet(input: { filter: { name: { eq: "Tatooine" } }, set: { residents: $add }, remove: { residents: $drop } }) { numUids }
  }`, { add: [{ humanRef: { id: ids.Han } }], drop: [{ humanRef: { id: ids.Luke } }] });
  const before = await asPilot(`{ getPlanet(id: "${ids.Tatooine}") { residents { __typename ... on Character { name } } } }`);
  expect(before.getPlanet.residents).toEqual([{ __typename: 'Human', name: 'Han' }, { __typename: 'Droid', name: 'R2-D2' }, { __typename: 'Starship' }]);

  await asPilot(`mutation { deleteDroid(filter: { name: { eq: "R2-D2" } }) { numUids } }`);
  const after = await asPilot(`{
    getPlanet(id: "${ids.Tatooine}") { residents { __typename } }
    queryCharacter(filter: { name: { eq: "Han" } }) { enemyOf { __typename } }
  }`);
  expect(after).toEqual({ getPlanet: { residents: [{ __typename: 'Human' }, { __typename: 'Starship' }] }, queryCharacter: [{ enemyOf: null }] });
});

test('has and @cascade see union fields', async () => {
  const result = await asPilot(`{
    withResidents: queryPlanet(filter: { has: residents }) { name }
    cascaded: queryPlanet @cascade { name residents(filter: { memberTypes: [Starship] }) { ... on Starship { name } } }
  }`);
  expect(result).toEqual({ withResidents: [{ name: 'Tatooine' }], cascaded: [{ name: 'Tatooine', residents: [{ name: 'X-wing' }] }] });
});

test('@cascade counts only the related objects the caller may see: without PILOT no starship keeps the planet', async () => {
  const query = `{ queryPlanet @cascade { name residents(filter: { memberTypes: [Starship] }) { ... on Starship { name } } } }`;
  expect(await api.data(query)).toEqual({ queryPlanet: [] });
  expect(await asPilot(query)).toEqual({ queryPlanet: [{ name: 'Tatooine', residents: [{ name: 'X-wing' }] }] });
});

test('@cascade through inline fragments: only the fields of the fragment that applies are required', async () => {
  const result = await asPilot(`{ queryPlanet(filter: { name: { eq: "Tatooine" } }) {
    residents @cascade { __typename ... on Human { totalCredits } ... on Starship { length } }
  } }`);
  expect(result.queryPlanet[0].residents).toEqual([{ __typename: 'Human', totalCredits: 90 }, { __typename: 'Starship', length: 12.5 }]);
  await asPilot(`mutation { updateStarship(input: { filter: { name: { anyofterms: "wing" } }, remove: { length: 12.5 } }) { numUids } }`);
  const afterRemoval = await asPilot(`{ queryPlanet(filter: { name: { eq: "Tatooine" } }) {
    residents @cascade { __typename ... on Human { totalCredits } ... on Starship { length } }
  } }`);
  expect(afterRemoval.queryPlanet[0].residents).toEqual([{ __typename: 'Human', totalCredits: 90 }]);
});

test.each([
  [
    'a Ref with two member keys',
    `mutation { addPlanet(input: [{ name: "Hoth", residents: [{ humanRef: { name: "Leia" }, droidRef: { name: "C-3PO" } }] }]) { numUids } }`,
    'GRAPHQL_VALIDATION_FAILED',
    'OneOf Input Object "ResidentRef" must specify exactly one key.',
    undefined,
  ],
  [
    'a member filter of a type that is not a member',
    `{ queryPlanet { residents(filter: { planetFilter: {} }) { __typename } } }`,
    'GRAPHQL_VALIDATION_FAILED',
    'Field "planetFilter" is not defined by type "ResidentFilter". Did you mean "humanFilter"?',
    undefined,
  ],
  [
    'a Ref with two member keys, given in a variable',
    `mutation($residents: [ResidentRef!]) { addPlanet(input: [{ name: "Hoth", residents: $residents }]) { numUids } }`,
    'BAD_USER_INPUT',
    'Variable "$residents" got invalid value { humanRef: { name: "Leia" }, droidRef: { name: "C-3PO" } } at "residents[0]"; Exactly one key must be specified for OneOf type "ResidentRef".',
    { residents: [{ humanRef: { name: 'Leia' }, droidRef: { name: 'C-3PO' } }] },
  ],
  [
    'a union member that does not exist by id',
    `mutation { addPlanet(input: [{ name: "Hoth", residents: [{ humanRef: { id: "nobody" } }] }]) { numUids } }`,
    'BAD_USER_INPUT',
    'couldn\'t rewrite mutation addPlanet because failed to rewrite mutation payload because HumanRef: no Human with id "nobody"',
    undefined,
  ],
])('%s is refused', async (_name, request, code, message, variables: Record<string, unknown> | undefined) => {
  const { body } = await gql(api.server.url, request, variables, pilot);
  expect(body.errors?.map((error) => ({ code: error.extensions?.code, message: error.message }))).toEqual([{ code, message }]);
});
