import { generateApi } from '../../src/api/generate';
import { buildSchemaModel } from '../../src/sdl/build';
import { composeBoth } from './fed2-fixtures';

/**
 * Two Autograph subgraphs that know one entity (one owns Astronaut, the other extends it) may both print
 * its generated payload and aggregate result types; Federation 2 lets several subgraphs resolve an object
 * type only when it is `@shareable`, which generated object types are. The clashes of the generated
 * inputs, enums and mutations of such a pair are another matter (issue 14, item 5) and are not asserted here.
 */

const LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@external"])\n';

const gatewaySdl = (schema: string): string => {
  const { model, errors } = buildSchemaModel(LINK + schema);
  if (!model) throw new Error(JSON.stringify(errors));
  return generateApi(model).gatewaySdl;
};

const MISSIONS = gatewaySdl(`type Mission @key(fields: "id") { id: ID! name: String crew: [Astronaut] }
extend type Astronaut @key(fields: "id") { id: ID! @external missions: [Mission] @hasInverse(field: crew) }`);
const ASTRONAUTS = gatewaySdl('type Astronaut @key(fields: "id") { id: ID! name: String }');

/** Composition errors about the generated object types (payloads and aggregate results). */
const generatedObjectErrors = (errors: readonly string[]) => errors.filter((message) => /Payload\.|AggregateResult\./.test(message));

test.each(['apollo', 'guild'] as const)('%s: the generated object types of both subgraphs compose', (composer) => {
  const { errors } = composeBoth([
    { name: 'missions', url: 'http://127.0.0.1:1/', sdl: MISSIONS },
    { name: 'astronauts', url: 'http://127.0.0.1:2/', sdl: ASTRONAUTS },
  ])[composer];
  expect(generatedObjectErrors(errors)).toEqual([]);
});

