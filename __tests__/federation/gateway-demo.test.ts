import { runWalkthrough, startDemo, graphql, type Demo } from '../../gateway-demo/walkthrough';

/** Issue 4: the gateway-demo's three services in this process, queried across both subgraphs. */

let demo: Demo;

beforeAll(async () => {
  demo = await startDemo({ owner: 0, autograph: 0, gateway: 0 });
});

afterAll(() => demo.close());

test('the walk-through returns astronauts with names from the owner and missions from Autograph', async () => {
  const astronauts = await runWalkthrough(demo);
  expect(astronauts).toEqual([{
    id: expect.any(String),
    name: 'Neil Armstrong',
    missions: expect.arrayContaining([{ designation: 'Gemini 8' }, { designation: 'Apollo 11' }]),
  }]);
  expect(astronauts[0].missions).toHaveLength(2);
});

test('a query starting in Autograph reaches the owner for the crew names', async () => {
  const { queryMission } = await graphql(demo.gatewayUrl, `{ queryMission(order: { asc: designation }) { designation crew { name nationality } } }`);
  expect(queryMission).toEqual([
    { designation: 'Apollo 11', crew: [{ name: 'Neil Armstrong', nationality: 'US' }] },
    { designation: 'Gemini 8', crew: [{ name: 'Neil Armstrong', nationality: 'US' }] },
  ]);
});

test('the gateway does not expose the extended type\'s queries, but its mutations', async () => {
  const { __schema } = await graphql(demo.gatewayUrl, `{ __schema { queryType { fields { name } } mutationType { fields { name } } } }`);
  const queries = __schema.queryType.fields.map((field: { name: string }) => field.name);
  const mutations = __schema.mutationType.fields.map((field: { name: string }) => field.name);
  expect(queries).toEqual(expect.arrayContaining(['getMission', 'queryMission', 'aggregateMission', 'astronauts']));
  expect(queries).not.toEqual(expect.arrayContaining(['queryAstronaut']));
  expect(queries).not.toContain('getAstronaut');
  expect(mutations).toEqual(expect.arrayContaining(['addAstronaut', 'updateAstronaut', 'deleteAstronaut', 'addMission']));
});
