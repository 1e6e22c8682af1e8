import { composeServices as composeWithApollo } from '@apollo/composition';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { composeServices as composeWithGuild } from '@theguild/federation-composition';
import { parse, print } from 'graphql';
import gql from 'graphql-tag';
import { startGateway } from '../../gateway-demo/gateway';
import { ownerTypeDefs, startOwnerService, type RunningService } from '../../gateway-demo/owner';
import { graphql } from '../../gateway-demo/walkthrough';
import { gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 14, bugs 3 and 5, over HTTP: the `_service { sdl }` of Autograph subgraphs composes
 * - with a subgraph that declares a stored relation of an Autograph entity `@external` (for `@requires`);
 * - with another Autograph subgraph extending the same entity, the way Dgraph's users compose two such
 *   subgraphs: the extended type's mutations (in the gateway view by spec 4.2, rule 1) switched off with
 *   `@generate` in all subgraphs but one;
 * under `@apollo/composition` and `@theguild/federation-composition`, and serves through `@apollo/gateway`.
 */

const PRODUCTS = `
type Product @key(fields: "id") {
  id: ID! @id
  name: String
  dimensions: ProductDimension
  variations: [ProductVariation]
}

type ProductDimension {
  id: ID!
  size: String
  weight: Float
}

type ProductVariation {
  id: ID!
  name: String @search(by: [hash])
}
`;

/** The compatibility suite's inventory subgraph, in short: it requires Product.dimensions, declared @external. */
const INVENTORY = `
extend type Product @key(fields: "id") {
  id: ID! @external
  dimensions: ProductDimension @external
  variations: [ProductVariation] @external
  delivery(zip: String): String @requires(fields: "dimensions { size weight } variations { name }")
}

type ProductDimension {
  size: String
  weight: Float
}

type ProductVariation {
  name: String
}
`;

/** The same inventory as a Federation 2 subgraph (as the compatibility suite writes it). */
const INVENTORY_FEDERATION_2 = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@external", "@requires"])

type Product @key(fields: "id") {
  id: ID!
  dimensions: ProductDimension @external
  variations: [ProductVariation] @external
  delivery(zip: String): String @requires(fields: "dimensions { size weight } variations { name }")
}

type ProductDimension @shareable {
  size: String
  weight: Float
}

type ProductVariation @shareable {
  name: String
}
`;

/** Extends Astronaut with its mutations switched off: BADGES is the subgraph whose addAstronaut the gateway serves. */
const MISSIONS = `
type Mission @key(fields: "id") {
  id: ID!
  designation: String! @search(by: [hash])
  crew: [Astronaut]
}

extend type Astronaut @key(fields: "id") @generate(mutation: { add: false, update: false, delete: false }) {
  id: ID! @external
  missions: [Mission] @hasInverse(field: crew)
}
`;

/** MISSIONS without the @generate: both subgraphs then define Mutation.addAstronaut with other inputs. */
const MISSIONS_WITH_MUTATIONS = MISSIONS.replace(' @generate(mutation: { add: false, update: false, delete: false })', '');

const BADGES = `
type Badge {
  id: ID!
  label: String! @search(by: [hash])
  holder: Astronaut
}

extend type Astronaut @key(fields: "id") {
  id: ID! @external
  callSign: String @search(by: [hash])
  rank: Int
  badges: [Badge] @hasInverse(field: holder)
}
`;

interface Subgraph {
  name: string;
  url: string;
  sdl: string;
}

let products: TestServer;
let missions: TestServer;
let badges: TestServer;
let missionsWithMutations: TestServer;
let inventory: { url: string; stop(): Promise<void> };
let owner: RunningService;
const started: RunningService[] = [];

async function serviceSdl(server: TestServer): Promise<string> {
  return (await gqlData(server.url, '{ _service { sdl } }'))._service.sdl;
}

async function startInventory(): Promise<{ url: string; stop(): Promise<void> }> {
  type Dimensions = { size: string; weight: number };
  const schema = buildSubgraphSchema({
    typeDefs: gql(INVENTORY),
    resolvers: {
      Product: {
        delivery: (product: { dimensions: Dimensions; variations: Array<{ name: string }> }, { zip }: { zip: string }) =>
          `${zip}: ${product.dimensions.size} ${product.dimensions.weight}kg, ${product.variations.map((variation) => variation.name).join('+')}`,
      },
    },
  });
  const server = new ApolloServer({ schema });
  const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
  return { url, stop: () => server.stop() };
}

function compose(subgraphs: Subgraph[]): { apollo: string[]; guild: string[]; supergraphSdl?: string } {
  const apollo = composeWithApollo(subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: gql(sdl) })));
  const guild = composeWithGuild(subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) })));
  return {
    apollo: (apollo.errors ?? []).map((error) => `${error.extensions.code}: ${error.message}`),
    guild: (guild.errors ?? []).map((error) => `${String(error.extensions.code)}: ${error.message}`),
    supergraphSdl: apollo.supergraphSdl,
  };
}

beforeAll(async () => {
  [products, missions, badges, missionsWithMutations, inventory, owner] = await Promise.all([
    startTestServer({ initialSchema: PRODUCTS }),
    startTestServer({ initialSchema: MISSIONS }),
    startTestServer({ initialSchema: BADGES }),
    startTestServer({ initialSchema: MISSIONS_WITH_MUTATIONS }),
    startInventory(),
    startOwnerService(0),
  ]);
});

afterAll(async () => {
  for (const service of started) await service.close();
  await inventory?.stop();
  await owner?.close();
  await Promise.all([products, missions, badges, missionsWithMutations].map((server) => server?.close()));
});

describe('a stored relation another subgraph declares @external', () => {
  test('composes under both libraries', async () => {
    const result = compose([
      { name: 'products', url: `${products.url}/graphql`, sdl: await serviceSdl(products) },
      { name: 'inventory', url: inventory.url, sdl: INVENTORY },
    ]);
    expect(result).toEqual({ apollo: [], guild: [], supergraphSdl: expect.any(String) });
  });

  test('composes with a Federation 2 subgraph declaring it @external under both libraries', async () => {
    const result = compose([
      { name: 'products', url: `${products.url}/graphql`, sdl: await serviceSdl(products) },
      { name: 'inventory', url: inventory.url, sdl: INVENTORY_FEDERATION_2 },
    ]);
    expect(result).toEqual({ apollo: [], guild: [], supergraphSdl: expect.any(String) });
  });

  test('the gateway fetches the relation from Autograph for the @requires of the other subgraph', async () => {
    await gqlData(products.url, `mutation {
      addProduct(input: [{ id: "apollo-federation", name: "Federation", dimensions: { size: "small", weight: 1 },
        variations: [{ name: "OSS" }, { name: "Enterprise" }] }]) { numUids }
    }`);
    const gateway = await startGateway([
      { name: 'products', url: `${products.url}/graphql` },
      { name: 'inventory', url: inventory.url },
    ]);
    started.push(gateway);
    const { getProduct } = await graphql(gateway.url, '{ getProduct(id: "apollo-federation") { name delivery(zip: "94111") } }');
    expect(getProduct).toEqual({ name: 'Federation', delivery: '94111: small 1kg, OSS+Enterprise' });
  });

  test('this service\'s own endpoint keeps the relation arguments', async () => {
    const { getProduct } = await gqlData(products.url, `{
      getProduct(id: "apollo-federation") { variations(filter: { name: { eq: "OSS" } }) { name } }
    }`);
    expect(getProduct).toEqual({ variations: [{ name: 'OSS' }] });
  });
});

describe('two Autograph subgraphs extending the same entity', () => {
  test('each exposes the mutations of the extended type unless @generate switches them off', async () => {
    const mutationsOf = (sdl: string) => [...sdl.matchAll(/\n  (add|update|delete)Astronaut\(/g)].map((match) => `${match[1]}Astronaut`);
    expect(mutationsOf(await serviceSdl(badges))).toEqual(['addAstronaut', 'updateAstronaut', 'deleteAstronaut']);
    expect(mutationsOf(await serviceSdl(missionsWithMutations))).toEqual(['addAstronaut', 'updateAstronaut', 'deleteAstronaut']);
    const switchedOff = await serviceSdl(missions);
    expect(mutationsOf(switchedOff)).toEqual([]);
    // Nor the types only they would name: the filter, order and inputs of Astronaut stay on its own endpoint.
    expect(switchedOff).not.toMatch(/\b(AstronautFilter|AstronautOrder|AstronautPatch|AddAstronautInput|AddAstronautPayload)\b/);
    const { mutation } = await gqlData(missions.url, '{ mutation: __type(name: "Mutation") { fields { name } } }');
    expect(mutation.fields.map((field: { name: string }) => field.name).filter((name: string) => name.endsWith('Astronaut'))).toEqual([]);
  });

  test('compose with its owner under both libraries when all but one switch the mutations off with @generate', async () => {
    const result = compose([
      { name: 'astronauts', url: owner.url, sdl: print(ownerTypeDefs(1)) },
      { name: 'missions', url: `${missions.url}/graphql`, sdl: await serviceSdl(missions) },
      { name: 'badges', url: `${badges.url}/graphql`, sdl: await serviceSdl(badges) },
    ]);
    expect(result).toEqual({ apollo: [], guild: [], supergraphSdl: expect.any(String) });
    // Mutations of types owned by each subgraph reach the supergraph, and those of the extended type from
    // the one subgraph that kept them; the Ref input merges to the key.
    expect(result.supergraphSdl).toMatch(/\n  addMission\(input: \[AddMissionInput!\]!\): AddMissionPayload/);
    expect(result.supergraphSdl).toMatch(/\n  addBadge\(input: \[AddBadgeInput!\]!\): AddBadgePayload/);
    expect(result.supergraphSdl).toMatch(/\n  addAstronaut\(input: \[AddAstronautInput!\]!\): AddAstronautPayload @join__field\(graph: BADGES\)\n/);
    expect(result.supergraphSdl).toMatch(/\n  deleteAstronaut\(filter: AstronautFilter!\): DeleteAstronautPayload @join__field\(graph: BADGES\)\n/);
    expect(result.supergraphSdl).toMatch(/input AstronautRef\n(  @join__type\(graph: \w+\)\n)+\{\n  id: ID\n\}/);
  });

  test('do not compose when both keep the mutations of the extended type', async () => {
    const result = compose([
      { name: 'astronauts', url: owner.url, sdl: print(ownerTypeDefs(1)) },
      { name: 'missions', url: `${missionsWithMutations.url}/graphql`, sdl: await serviceSdl(missionsWithMutations) },
      { name: 'badges', url: `${badges.url}/graphql`, sdl: await serviceSdl(badges) },
    ]);
    // The generated inputs of Astronaut hold each subgraph's own fields: merged, nothing would be left.
    const codes = (errors: string[]) => errors.map((error) => /^(\w+): .*"(\w+)"/.exec(error)?.slice(1, 3).join(' ')).sort();
    expect({ apollo: codes(result.apollo), guild: codes(result.guild) }).toEqual({
      apollo: ['EMPTY_MERGED_ENUM_TYPE AstronautHasFilter', 'EMPTY_MERGED_INPUT_TYPE AstronautPatch'],
      guild: ['EMPTY_MERGED_ENUM_TYPE AstronautHasFilter', 'EMPTY_MERGED_INPUT_TYPE AstronautPatch'],
    });
  });

  test('serve one query across the owner and both through @apollo/gateway, and addAstronaut through it', async () => {
    const { createAstronaut: sally } = await graphql(owner.url, 'mutation { createAstronaut(name: "Sally Ride", nationality: "US") { id } }');
    await gqlData(missions.url, `mutation($id: ID!) { addMission(input: [{ designation: "STS-7", crew: [{ id: $id }] }]) { numUids } }`, { id: sally.id });

    const gateway = await startGateway([
      { name: 'astronauts', url: owner.url },
      { name: 'missions', url: `${missions.url}/graphql` },
      { name: 'badges', url: `${badges.url}/graphql` },
    ]);
    started.push(gateway);
    const { addAstronaut } = await graphql(gateway.url, `mutation($id: ID!) {
      addAstronaut(input: [{ id: $id, callSign: "Ride", rank: 1, badges: [{ label: "first" }, { label: "pilot" }] }]) {
        numUids astronaut { id name callSign }
      }
    }`, { id: sally.id });
    // numUids counts the badges created with it, as Dgraph does.
    expect(addAstronaut).toEqual({ numUids: 3, astronaut: [{ id: sally.id, name: 'Sally Ride', callSign: 'Ride' }] });

    const { astronauts } = await graphql(gateway.url, `{
      astronauts { name callSign rank missions { designation } badges(order: { asc: label }) { label } }
    }`);
    expect(astronauts).toEqual([{
      name: 'Sally Ride', callSign: 'Ride', rank: 1, missions: [{ designation: 'STS-7' }], badges: [{ label: 'first' }, { label: 'pilot' }],
    }]);
    const { queryBadge } = await graphql(gateway.url, '{ queryBadge(order: { asc: label }) { label holder { name missions { designation } } } }');
    expect(queryBadge).toEqual([
      { label: 'first', holder: { name: 'Sally Ride', missions: [{ designation: 'STS-7' }] } },
      { label: 'pilot', holder: { name: 'Sally Ride', missions: [{ designation: 'STS-7' }] } },
    ]);
  });
});
