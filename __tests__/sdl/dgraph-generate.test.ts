import { Kind, parse, type DefinitionNode } from 'graphql';
import { generateApi } from '../../src/api/generate.js';
import { errorLines, validModel } from './helpers';

/**
 * `@generate` against Dgraph's own schema-generation test data (dgraph-io/dgraph,
 * graphql/schema/testdata/schemagen/{input,output}/generate-directive*.graphql, newest version): for the
 * same input, the same operations and the same generated types. `@secret` is left out of the fixtures
 * (the password query belongs to it), `@withSubscription` too.
 */

function shapeOf(schema: string) {
  const definitions = parse(generateApi(validModel(schema)).sdl).definitions;
  const named = definitions.filter((definition): definition is DefinitionNode & { name: { value: string } } => 'name' in definition && definition.name !== undefined);
  const rootFields = (name: string): string[] => {
    const root = named.find((definition) => definition.name.value === name);
    return root && root.kind === Kind.OBJECT_TYPE_DEFINITION ? (root.fields ?? []).map((field) => field.name.value) : [];
  };
  return { types: named.map((definition) => definition.name.value).filter((name) => !['Query', 'Mutation'].includes(name)).sort(), query: rootFields('Query'), mutation: rootFields('Mutation') };
}

/** The generated types Dgraph's output lists for a type, filtered to those whose name holds one of `typeNames`. */
function generatedFor(types: string[], typeNames: string[]): string[] {
  return types.filter((name) => typeNames.some((typeName) => name.includes(typeName)));
}

describe('@generate: operations and types as Dgraph generates them', () => {
  test('generate-directive.graphql: an interface without getT, a type with its aggregate on, a type without add, delete and aggregate', () => {
    const shape = shapeOf(`
interface Character @generate(query: {get: false, password: false}, subscription: false) {
  id: ID!
  name: String! @search(by: [exact])
  friends: [Character]
}

type Human implements Character @generate(query: {aggregate: true}, subscription: true) {
  totalCredits: Int
}

type Person @generate(query: {get: false, query: true, password: true, aggregate: false}, mutation: {add: false, delete: false}, subscription: false) {
  id: ID!
  name: String!
}
`);
    expect(shape.query).toEqual(['queryCharacter', 'aggregateCharacter', 'getHuman', 'queryHuman', 'aggregateHuman', 'queryPerson']);
    expect(shape.mutation).toEqual(['updateCharacter', 'deleteCharacter', 'addHuman', 'updateHuman', 'deleteHuman', 'updatePerson']);
    expect(generatedFor(shape.types, ['Character', 'Human', 'Person'])).toEqual([
      'AddHumanInput', 'AddHumanPayload', 'Character', 'CharacterAggregateResult', 'CharacterFilter', 'CharacterHasFilter',
      'CharacterOrder', 'CharacterOrderable', 'CharacterPatch', 'CharacterRef', 'DeleteCharacterPayload', 'DeleteHumanPayload',
      'Human', 'HumanAggregateResult', 'HumanFilter', 'HumanHasFilter', 'HumanOrder', 'HumanOrderable', 'HumanPatch', 'HumanRef',
      'Person', 'PersonAggregateResult', 'PersonFilter', 'PersonHasFilter', 'PersonOrder', 'PersonOrderable', 'PersonPatch', 'PersonRef',
      'UpdateCharacterInput', 'UpdateCharacterPayload', 'UpdateHumanInput', 'UpdateHumanPayload', 'UpdatePersonInput', 'UpdatePersonPayload',
    ]);
  });

  test('generate-directive-missing-params.graphql: only the switches given change, the rest keep their defaults', () => {
    const shape = shapeOf(`
type Person @generate(
    query: {
        query: false
    },
    mutation: {
        update: false,
    },
    subscription: false
) {
    id: ID!
    name: String!
}`);
    expect(shape.query).toEqual(['getPerson', 'aggregatePerson']);
    expect(shape.mutation).toEqual(['addPerson', 'deletePerson']);
    // No update: neither PersonPatch, UpdatePersonInput nor UpdatePersonPayload.
    expect(generatedFor(shape.types, ['Person'])).toEqual([
      'AddPersonInput', 'AddPersonPayload', 'DeletePersonPayload', 'Person', 'PersonAggregateResult', 'PersonFilter',
      'PersonHasFilter', 'PersonOrder', 'PersonOrderable', 'PersonRef',
    ]);
  });

  test('generate-directive-missing-arguments.graphql: no query argument keeps every query; add and update off drop their inputs and payloads', () => {
    const shape = shapeOf(`
type Person @generate(
    mutation: {
        add: false,
        update: false,
        delete: true
    }
) {
    id: ID!
    name: String!
}
`);
    expect(shape.query).toEqual(['getPerson', 'queryPerson', 'aggregatePerson']);
    expect(shape.mutation).toEqual(['deletePerson']);
    expect(generatedFor(shape.types, ['Person'])).toEqual([
      'DeletePersonPayload', 'Person', 'PersonAggregateResult', 'PersonFilter', 'PersonHasFilter', 'PersonOrder', 'PersonOrderable', 'PersonRef',
    ]);
  });

  test('generate-directive-with-interface-and-password.graphql: everything off on the interface, its implementing type keeps all', () => {
    const shape = shapeOf(`
interface Character @generate(
    query: {
        get: false,
        query: false
    },
    mutation: {
        add: false,
        update: false,
        delete: false
    },
    subscription: false
) {
    id: ID!
    name: String! @search(by: [exact])
    friends: [Character]
}

type Human implements Character {
    totalCredits: Int
}
`);
    expect(shape.query).toEqual(['aggregateCharacter', 'getHuman', 'queryHuman', 'aggregateHuman']);
    expect(shape.mutation).toEqual(['addHuman', 'updateHuman', 'deleteHuman']);
    expect(generatedFor(shape.types, ['Character'])).toEqual([
      'Character', 'CharacterAggregateResult', 'CharacterFilter', 'CharacterHasFilter', 'CharacterOrder', 'CharacterOrderable', 'CharacterRef',
    ]);
  });

  test('without @generate every operation but subscriptions is generated', () => {
    const shape = shapeOf('type Person { id: ID!  name: String! }');
    expect(shape.query).toEqual(['getPerson', 'queryPerson', 'aggregatePerson']);
    expect(shape.mutation).toEqual(['addPerson', 'updatePerson', 'deletePerson']);
  });
});

describe('@generate: what the schema reader refuses', () => {
  test.each([
    [
      'an unknown argument',
      'type T @generate(queries: {get: false}) { id: ID! }',
      ['1:18 Type T: @generate has no argument "queries" (known: query, mutation, subscription)'],
    ],
    [
      'an unknown switch',
      'type T @generate(query: {get: false, list: false}) { id: ID! }',
      ['1:38 Type T: @generate(query:) has no field "list" (known: get, query, password, aggregate)'],
    ],
    [
      'a mutation switch under query',
      'type T @generate(query: {add: false}) { id: ID! }',
      ['1:26 Type T: @generate(query:) has no field "add" (known: get, query, password, aggregate)'],
    ],
    [
      'a switch that is not a Boolean',
      'type T @generate(mutation: {delete: "no"}) { id: ID! }',
      ['1:37 Type T: @generate(mutation: {delete:}) must be true or false, found "no"'],
    ],
    [
      'a group that is not an object',
      'type T @generate(query: false) { id: ID! }',
      ['1:25 Type T: @generate(query:) must be an object such as {get: false}, found false'],
    ],
    [
      'subscription that is not a Boolean',
      'type T @generate(subscription: 1) { id: ID! }',
      ['1:32 Type T: @generate(subscription:) must be true or false, found 1'],
    ],
    [
      'a repeated switch',
      'type T @generate(query: {get: false, get: true}) { id: ID! }',
      ['1:38 Type T: @generate(query:) repeats the field "get"'],
    ],
  ])('%s', (_case, schema, expected) => {
    expect(errorLines(schema)).toEqual(expected);
  });
});
