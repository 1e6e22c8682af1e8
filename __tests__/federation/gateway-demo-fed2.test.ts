import { graphql, runWalkthrough, startDemo, type Demo } from '../../gateway-demo/walkthrough';

/** The gateway-demo's Federation 2 variant: owner and Autograph opt in with @link; one gateway composes them. */

let demo: Demo;

beforeAll(async () => {
  demo = await startDemo({ owner: 0, autograph: 0, gateway: 0 }, 2);
});

afterAll(() => demo.close());

test('Autograph serves its Federation 2 SDL, opened by the federation @link', async () => {
  const { _service } = await graphql(demo.autographUrl, '{ _service { sdl } }');
  expect(_service.sdl).toMatch(/^extend schema\n {2}@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.3", import: \[/);
  expect(_service.sdl).toContain('type Mission @key(fields: "id") @key(fields: "designation") {');
});

test('the walk-through returns astronauts with names from the owner and missions from Autograph', async () => {
  const astronauts = await runWalkthrough(demo);
  expect(astronauts).toEqual([{
    id: expect.any(String),
    name: 'Neil Armstrong',
    missions: expect.arrayContaining([{ designation: 'Gemini 8' }, { designation: 'Apollo 11' }]),
  }]);
  expect(astronauts[0]!.missions).toHaveLength(2);
});

test('@inaccessible: Mission.budget is served by Autograph but not by the gateway', async () => {
  const fieldsOf = async (url: string): Promise<string[]> => {
    const { __type } = await graphql(url, '{ __type(name: "Mission") { fields { name } } }');
    return __type.fields.map((field: { name: string }) => field.name);
  };
  expect(await fieldsOf(demo.autographUrl)).toContain('budget');
  const throughGateway = await fieldsOf(demo.gatewayUrl);
  expect(throughGateway).toEqual(expect.arrayContaining(['id', 'designation', 'crew', 'notes']));
  expect(throughGateway).not.toContain('budget');
  const response = await fetch(demo.gatewayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ queryMission { budget } }' }),
  });
  const body = (await response.json()) as { errors?: Array<{ message: string; extensions?: { code?: string } }> };
  expect(body.errors?.[0]).toMatchObject({
    message: 'Cannot query field "budget" on type "Mission".',
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
  });
});

test('a query starting in Autograph reaches the owner for the crew names', async () => {
  const { queryMission } = await graphql(demo.gatewayUrl, `{ queryMission(order: { asc: designation }) { designation crew { name nationality } } }`);
  expect(queryMission).toEqual([
    { designation: 'Apollo 11', crew: [{ name: 'Neil Armstrong', nationality: 'US' }] },
    { designation: 'Gemini 8', crew: [{ name: 'Neil Armstrong', nationality: 'US' }] },
  ]);
});
