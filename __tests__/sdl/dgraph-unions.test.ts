import { Kind, parse, print, type DefinitionNode } from 'graphql';
import { generateApi } from '../../src/api/generate.js';
import { errorLines, fieldOf, validModel } from './helpers';

/**
 * Unions against Dgraph's own schema-generation test data (dgraph-io/dgraph,
 * graphql/schema/testdata/schemagen/{input,output}/union.graphql, without its `@remote` union and
 * `@custom` field): the same union, member enum, filter, Ref and field arguments.
 */

const SCHEMA = `
interface Character {
  id: ID!
  name: String! @search(by: [exact])
  friends: [Character]
  enemyOf: Resident
  appearsIn: [Episode!]! @search
}

type Human implements Character {
  starships: [Starship]
  totalCredits: Int
}

type Droid implements Character {
  primaryFunction: String
}

enum Episode {
  NEWHOPE
  EMPIRE
  JEDI
}

type Starship {
  id: ID!
  name: String! @search(by: [term])
  length: Float
}

union Resident = Human | Droid | Starship

type Planet {
  id: ID!
  name: String!
  residents: [Resident!]
}
`;

const definitions = parse(generateApi(validModel(SCHEMA)).sdl).definitions;

function definition(name: string): string {
  const found = definitions.find((node: DefinitionNode) => 'name' in node && node.name?.value === name);
  if (!found) throw new Error(`the generated API has no ${name}`);
  return print(found);
}

function fieldLine(typeName: string, fieldName: string): string {
  const type = definitions.find((node: DefinitionNode) => 'name' in node && node.name?.value === typeName);
  if (!type || (type.kind !== Kind.OBJECT_TYPE_DEFINITION && type.kind !== Kind.INTERFACE_TYPE_DEFINITION && type.kind !== Kind.INPUT_OBJECT_TYPE_DEFINITION)) {
    throw new Error(`no object or input ${typeName}`);
  }
  const field = (type.fields ?? []).find((one) => one.name.value === fieldName);
  if (!field) throw new Error(`${typeName} has no field ${fieldName}`);
  return print(field);
}

describe('the generated API of a union, as Dgraph generates it', () => {
  test.each([
    ['the union itself', 'Resident', 'union Resident = Human | Droid | Starship'],
    ['the member enum', 'ResidentType', 'enum ResidentType {\n  Human\n  Droid\n  Starship\n}'],
    [
      'the filter: memberTypes, then one filter per member',
      'ResidentFilter',
      'input ResidentFilter {\n  memberTypes: [ResidentType!]\n  humanFilter: HumanFilter\n  droidFilter: DroidFilter\n  starshipFilter: StarshipFilter\n}',
    ],
    ['the Ref: one member key per reference', 'ResidentRef', 'input ResidentRef @oneOf {\n  humanRef: HumanRef\n  droidRef: DroidRef\n  starshipRef: StarshipRef\n}'],
  ])('%s', (_name, typeName, expected) => {
    expect(definition(typeName)).toBe(expected);
  });

  test.each([
    ['a list field takes filter and pagination, no order', 'Planet', 'residents', 'residents(filter: ResidentFilter, first: Int, offset: Int): [Resident!]'],
    ['a single field takes the filter', 'Character', 'enemyOf', 'enemyOf(filter: ResidentFilter): Resident'],
    ['inherited by the implementing types', 'Droid', 'enemyOf', 'enemyOf(filter: ResidentFilter): Resident'],
    ['the Add input takes Refs', 'AddPlanetInput', 'residents', 'residents: [ResidentRef!]'],
    ['the Patch too', 'PlanetPatch', 'residents', 'residents: [ResidentRef!]'],
    ['and the type\'s own Ref', 'PlanetRef', 'residents', 'residents: [ResidentRef!]'],
    ['the AddInput of a member holding a union', 'AddHumanInput', 'enemyOf', 'enemyOf: ResidentRef'],
  ])('%s', (_name, typeName, fieldName, expected) => {
    expect(fieldLine(typeName, fieldName)).toBe(expected);
  });

  test('a union field is in the has filter, and has no Aggregate field (a union has no AggregateResult)', () => {
    expect(definition('PlanetHasFilter')).toBe('enum PlanetHasFilter {\n  name\n  residents\n}');
    expect(() => fieldLine('Planet', 'residentsAggregate')).toThrow('Planet has no field residentsAggregate');
    expect(() => definition('ResidentAggregateResult')).toThrow('the generated API has no ResidentAggregateResult');
  });

  test('the gateway view prints the Ref without @oneOf, which Federation 1 composition does not know', () => {
    const gateway = parse(generateApi(validModel(SCHEMA)).gatewaySdl).definitions;
    const ref = gateway.find((node: DefinitionNode) => 'name' in node && node.name?.value === 'ResidentRef');
    expect(ref && print(ref)).toBe('input ResidentRef {\n  humanRef: HumanRef\n  droidRef: DroidRef\n  starshipRef: StarshipRef\n}');
  });

  test('the model: a union field is a relation to the union, stored on its own side', () => {
    const model = validModel(SCHEMA);
    expect(model.unions?.get('Resident')).toEqual({ name: 'Resident', members: ['Human', 'Droid', 'Starship'], loc: { line: 31, column: 7 } });
    expect(fieldOf(model, 'Planet', 'residents')).toMatchObject({ of: { kind: 'relation', target: 'Resident' }, list: true, storedHere: true });
  });
});

describe('what the schema reader refuses in a union', () => {
  test.each([
    ['an unknown member', 'type A { id: ID! }\nunion U = A | B', ['2:15 Type U: unknown member type B']],
    ['an interface member', 'interface I { id: ID! }\ntype A implements I { n: Int }\nunion U = A | I', ['3:15 Type U: member I is an interface; the members of a union are object types']],
    ['a scalar member', 'type A { id: ID! }\nunion U = A | String', ['2:15 Type U: member String is a scalar; the members of a union are object types']],
    ['a member listed twice', 'type A { id: ID! }\nunion U = A | A', ['2:15 Type U: member A is listed more than once']],
    ['a union named like a root type', 'type A { id: ID! }\nunion Query = A', ["2:7 Query is a reserved word, so you can't declare a type with this name. Pick a different name for the type."]],
    [
      'two members whose ids the caller supplies',
      'type A { id: ID! @id }\ntype B { id: ID! @id }\ntype C { id: ID! }\nunion U = A | B | C',
      ['4:11,4:15 Type U: members A, B all take their ids from the caller (ID @id or an extended type\'s key), so one id could name an object of each; at most one member of a union may'],
    ],
    ['a directive other than @remote on the union', 'type A { id: ID! }\nunion U @auth = A', ['2:9 Type U: @auth is not allowed on a union']],
    [
      '@hasInverse on a union field',
      'type A { id: ID!  owner: B }\nunion U = A\ntype B { id: ID!  things: [U] @hasInverse(field: owner) }',
      ['3:31 Type B; field things: @hasInverse is not supported on a field of union type (U)'],
    ],
    ['@search on a union field', 'type A { id: ID! }\nunion U = A\ntype B { id: ID!  u: U @search }', ['3:24 Type B; field u: @search does not apply to a relation (U); filter on the related type\'s fields instead']],
    [
      'a type named like a generated union input',
      'type A { id: ID! }\nunion U = A\ntype UFilter { id: ID! }',
      ['3:6 Type UFilter: the name clashes with UFilter, which the generated API declares for union U'],
    ],
  ])('%s', (_name, schema, expected) => {
    expect(errorLines(schema)).toEqual(expected);
  });
});
