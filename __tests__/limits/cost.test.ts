import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { estimateCost } from '../../src/limits/cost';
import { LIMITS_TEST_SCHEMA } from './harness';

function costOf(query: string, variables?: Record<string, unknown>) {
  const document = parse(query);
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = (name: string) => document.definitions.find((definition) => definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === name) as never;
  return estimateCost({ schema: LIMITS_TEST_SCHEMA, operation, fragments, defaultPageSize: 1000, maxPageSize: 10000, variables });
}

describe('estimateCost: objects, list sizes multiplied down the nesting', () => {
  test.each<[string, string, number]>([
    ['scalars cost nothing', '{ tags __typename }', 0],
    ['a single object counts 1', '{ getMission(id: "1") { designation } }', 1],
    ['a single object under a single object', '{ getMission(id: "1") { commander { id } } }', 2],
    ['a list without first counts the default page size', '{ queryMission { id } }', 1000],
    ['a list counts its first', '{ queryMission(first: 100) { id } }', 100],
    ['a first above the maximum page size counts the maximum (it is refused when read)', '{ queryMission(first: 20000) { id } }', 10000],
    ['first: 0 counts nothing below it', '{ queryMission(first: 0) { crew { id } } }', 0],
    ['queryUser(first: 100) { tasks(first: 10) }', '{ queryMission(first: 100) { crew(first: 10) { id } } }', 100 + 100 * 10],
    ['two unpaged lists', '{ queryMission { crew { id } } }', 1000 + 1000 * 1000],
    ['a list without a first argument counts the default page size', '{ missionsOfTheDay { id } }', 1000],
    ['_entities counts its representations', '{ _entities(representations: [{}, {}, {}]) { ... on Astronaut { missions(first: 2) { id } } } }', 3 + 3 * 2],
    ['a fragment counts where it is spread', '{ a: queryMission(first: 2) { ...M } b: getMission(id: "1") { ...M } } fragment M on Mission { crew(first: 5) { id } }', 2 + 2 * 5 + 1 + 5],
    ['introspection costs nothing', '{ __schema { types { fields { name } } } }', 0],
    ['an add payload list counts at most the input objects', 'mutation { addMission(input: [{ designation: "a", crew: [{ id: "1" }] }, { designation: "b" }]) { mission { crew { id } } } }', 1 + 3 + 3 * 1000],
    ['an add payload list with a smaller first counts its first', 'mutation { addMission(input: [{ designation: "a" }, { designation: "b" }]) { mission(first: 1) { id } } }', 1 + 1],
    ['an update payload list counts the page size (its filter may match any number)', 'mutation { updateMission(input: { filter: { designation: "a" } }) { mission { id } } }', 1 + 1000],
    ['a fragment cycle counts 0 (NoFragmentCycles reports it)', '{ queryMission(first: 1) { ...A } } fragment A on Mission { crew(first: 1) { ...B } } fragment B on Astronaut { missions(first: 1) { ...A } }', 1 + 1 + 1],
  ])('%s', (_name, query, cost) => {
    expect(costOf(query)).toEqual({ cost, dependsOnVariables: false });
  });

  test('the hostile query: 20 nested crew { missions } pairs without first', () => {
    let selection = 'designation';
    for (let i = 0; i < 20; i++) selection = `crew { missions { ${selection} } }`;
    const { cost } = costOf(`{ queryMission { ${selection} } }`);
    expect(cost).toBeGreaterThan(1000 ** 41);
  });

  test.each<[string, string, Record<string, unknown> | undefined, number, boolean]>([
    ['first from a variable, values unknown: a lower bound', 'query($n: Int) { queryMission(first: $n) { crew { id } } }', undefined, 0, true],
    ['first from a variable', 'query($n: Int) { queryMission(first: $n) { crew { id } } }', { n: 3 }, 3 + 3 * 1000, true],
    ['a variable not given takes its default', 'query($n: Int = 2) { queryMission(first: $n) { id } }', {}, 2, true],
    ['a variable not given and without default: the page size', 'query($n: Int) { queryMission(first: $n) { id } }', {}, 1000, true],
    ['an add payload with its input in a variable', 'mutation($in: [AddMissionInput!]!) { addMission(input: $in) { mission { id } } }', { in: [{ designation: 'a' }, { designation: 'b' }] }, 1 + 2, true],
    ['an add payload, input unknown yet: a lower bound', 'mutation($in: [AddMissionInput!]!) { addMission(input: $in) { mission { id } } }', undefined, 1, true],
    ['_entities with representations in a variable', 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Astronaut { missions { id } } } }', { r: [{}, {}] }, 2 + 2 * 1000, true],
  ])('%s', (_name, query, variables, cost, dependsOnVariables) => {
    expect(costOf(query, variables)).toEqual({ cost, dependsOnVariables });
  });
});
