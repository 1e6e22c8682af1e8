import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { generateApi } from '../../src/api/generate.js';
import { validModel } from '../sdl/helpers';

/** The gateway's view of a schema with a union, `@generate` and `@cascade` composes (Federation 1 and 2). */

const TYPES = `
type Human @key(fields: "id") {
  id: ID!
  name: String! @search(by: [hash])
}

type Droid @generate(mutation: {delete: false}) {
  id: ID!
  model: String
}

union Resident = Human | Droid

type Planet {
  id: ID!
  name: String!
  residents: [Resident!]
  ruler: Resident
}
`;

const FED2_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])\n';

test.each([
  ['Federation 1', TYPES],
  ['Federation 2', FED2_LINK + TYPES],
])('%s: the gateway SDL composes, with the union and its inputs, and without @cascade', (_name, schema) => {
  const { gatewaySdl } = generateApi(validModel(schema));
  const result = composeServices([{ name: 'autograph', typeDefs: parse(gatewaySdl), url: 'http://autograph.invalid/graphql' }]);
  expect(result.errors).toBeUndefined();
  const supergraph = result.schema!.toAPISchema().toGraphQLJSSchema();
  expect(supergraph.getType('Resident')?.toString()).toBe('Resident');
  expect(Object.keys((supergraph.getType('ResidentFilter') as any).getFields())).toEqual(['memberTypes', 'humanFilter', 'droidFilter']);
  expect(supergraph.getDirective('cascade')).toBeUndefined();
  expect(supergraph.getMutationType()?.getFields().deleteDroid).toBeUndefined();
});
