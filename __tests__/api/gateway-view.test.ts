import { generateApi } from '../../src/api';
import { buildSchemaModel } from '../../src/sdl/build';

/** api/gateway-view.ts as a table: schema in → what `_service { sdl }` prints (and this service's own API keeps). */

function apiOf(schema: string) {
  const { model, errors } = buildSchemaModel(schema);
  if (!model) throw new Error(`schema does not build: ${JSON.stringify(errors)}`);
  return generateApi(model);
}

const OWNED_ENTITY = `
type Product @key(fields: "id") { id: ID! dimensions: Dimension variations: [Variation] }
type Dimension { id: ID! size: String }
type Variation { id: ID! name: String @search(by: [hash]) }
`;

const EXTENDED = `
extend type Astronaut @key(fields: "id") { id: ID! @external callSign: String @search(by: [hash]) missions: [Mission] }
type Mission { id: ID! designation: String crew: [Astronaut] lead: Astronaut }
`;

const cases: Array<[string, string, string[], string[]]> = [
  ['a single relation of an owned entity: no filter', OWNED_ENTITY, ['  dimensions: Dimension\n'], ['dimensions(filter:']],
  ['a list relation of an owned entity: no arguments, its aggregate kept', OWNED_ENTITY,
    ['  variations: [Variation]\n', '  variationsAggregate(filter: VariationFilter): VariationAggregateResult\n'], ['variations(filter:']],
  ['the owned entity keeps its operations', OWNED_ENTITY, ['  queryProduct(filter: ProductFilter', '  addProduct(input: [AddProductInput!]!'], []],
  ['an extended type\'s relation to a type owned here keeps its arguments', EXTENDED,
    ['  missions(filter: MissionFilter, order: MissionOrder, first: Int, offset: Int): [Mission]\n', '  missionsAggregate(filter: MissionFilter)'], []],
  ['a relation to an extended type: no arguments, no aggregate', EXTENDED,
    ['  crew: [Astronaut]\n', '  lead: Astronaut\n'], ['crew(', 'crewAggregate', 'lead(']],
  ['an extended type\'s operations and generated types stay local, its Ref stays', EXTENDED,
    ['input AstronautRef {\n  id: ID\n  callSign: String\n  missions: [MissionRef]\n}', '  addMission(input: [AddMissionInput!]!'],
    ['getAstronaut', 'queryAstronaut', 'aggregateAstronaut', 'addAstronaut', 'updateAstronaut', 'deleteAstronaut',
      'AstronautFilter', 'AstronautHasFilter', 'AstronautOrder', 'AstronautAggregateResult', 'AstronautPatch',
      'AddAstronautInput', 'UpdateAstronautInput', 'AddAstronautPayload', 'UpdateAstronautPayload', 'DeleteAstronautPayload']],
  ['a type that is no entity keeps everything', 'type Note { id: ID! tags: [Tag] }\ntype Tag { id: ID! }',
    ['  tags(filter: TagFilter, first: Int, offset: Int): [Tag]\n', '  tagsAggregate(filter: TagFilter)'], []],
];

test.each(cases)('%s', (_name, schema, present, absent) => {
  const { sdl, gatewaySdl } = apiOf(schema);
  for (const text of present) expect(gatewaySdl).toContain(text);
  for (const text of absent) {
    expect(gatewaySdl).not.toContain(text);
    // This service's own API keeps what the gateway view leaves out.
    expect(sdl).toContain(text);
  }
});
