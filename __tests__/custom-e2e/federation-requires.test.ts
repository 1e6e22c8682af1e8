import { startGateway } from '../../gateway-demo/gateway';
import { graphql } from '../../gateway-demo/walkthrough';
import { startOwnerService, type RunningService } from '../../gateway-demo/owner';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 7, `@requires` + `@lambda` through `@apollo/gateway`: the owner service (gateway-demo/owner.ts)
 * owns `Astronaut { id name nationality firstFlightYear }`; Autograph extends it with a `badge` computed
 * by a lambda from two external fields the gateway fetches from the owner and passes in `_entities`
 * (`name` is declared `String!` as in the owner, or the gateway refuses to compose).
 */

const SCHEMA = `
extend type Astronaut @key(fields: "id") {
  id: ID! @external
  name: String! @external
  nationality: String @external
  badge: String @requires(fields: "name nationality") @lambda
  callSign: String
}
`;

const SCRIPT = `
const batches = [];
self.addMultiParentGraphQLResolvers({
  'Astronaut.badge': ({ parents }) => {
    batches.push(parents.length);
    return parents.map((astronaut) => astronaut.name.toUpperCase() + ' [' + astronaut.nationality + '] ' + (astronaut.callSign || '-'));
  },
});
self.addGraphQLResolvers({ 'Query.badgeBatches': () => batches.splice(0) });
`;

// The lambda above also serves a local query, so the test can count its calls.
const SCHEMA_WITH_COUNTER = `${SCHEMA}
type Query {
  badgeBatches: [Int] @lambda
}
`;

let owner: RunningService;
let autograph: TestServer;
let gateway: RunningService;

beforeAll(async () => {
  owner = await startOwnerService(0);
  autograph = await startTestServer({ initialSchema: SCHEMA_WITH_COUNTER, initialLambda: SCRIPT });
  gateway = await startGateway([
    { name: 'astronauts', url: owner.url },
    { name: 'badges', url: `${autograph.url}/graphql` },
  ]);
});

afterAll(async () => {
  await gateway?.close();
  await autograph?.close();
  await owner?.close();
});

test('a @requires + @lambda field is computed from the external fields the gateway brings from the owner', async () => {
  const created: Array<{ id: string }> = [];
  for (const [name, nationality] of [['Valentina Tereshkova', 'USSR'], ['Sally Ride', 'US']]) {
    const { createAstronaut } = await graphql(owner.url, `mutation($name: String!, $nationality: String) {
      createAstronaut(name: $name, nationality: $nationality) { id }
    }`, { name, nationality });
    created.push(createAstronaut);
  }
  // Only one of them is known to Autograph (with a local field); the other resolves through its key alone.
  await graphql(`${autograph.url}/graphql`, `mutation($id: ID!) { addAstronaut(input: [{ id: $id, callSign: "Chaika" }]) { numUids } }`, { id: created[0]!.id });
  await graphql(`${autograph.url}/graphql`, `{ badgeBatches }`);

  const { astronauts } = await graphql(gateway.url, `{ astronauts { id name badge } }`);
  expect(astronauts).toEqual([
    { id: created[0]!.id, name: 'Valentina Tereshkova', badge: 'VALENTINA TERESHKOVA [USSR] Chaika' },
    { id: created[1]!.id, name: 'Sally Ride', badge: 'SALLY RIDE [US] -' },
  ]);
  // The gateway sent both representations in one _entities request, and the lambda ran once for them.
  const { badgeBatches } = await graphql(`${autograph.url}/graphql`, `{ badgeBatches }`);
  expect(badgeBatches).toEqual([2]);
});

test('the gateway sees the field with its @requires, and not the extended type\'s local queries', async () => {
  const { _service } = await graphql(`${autograph.url}/graphql`, `{ _service { sdl } }`);
  expect(_service.sdl).toMatch(/badge: String @requires\(fields: "name nationality"\)/);
  expect(_service.sdl).not.toMatch(/queryAstronaut/);
});
