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
  ['an extended type\'s queries stay local, its mutations and the types they name are exposed, its Ref stays', EXTENDED,
    ['input AstronautRef {\n  id: ID\n  callSign: String\n  missions: [MissionRef]\n}', '  addMission(input: [AddMissionInput!]!',
      '  addAstronaut(input: [AddAstronautInput!]!): AddAstronautPayload\n', '  updateAstronaut(input: UpdateAstronautInput!): UpdateAstronautPayload\n',
      '  deleteAstronaut(filter: AstronautFilter!): DeleteAstronautPayload\n', 'input AstronautFilter {', 'enum AstronautHasFilter {',
      'input AstronautOrder {', 'input AstronautPatch {', 'input AddAstronautInput {', 'input UpdateAstronautInput {',
      'type AddAstronautPayload {', 'type UpdateAstronautPayload {', 'type DeleteAstronautPayload {'],
    ['getAstronaut', 'queryAstronaut', 'aggregateAstronaut', 'AstronautAggregateResult']],
  ['an extended type with its mutations switched off by @generate: neither they nor its filter and order are exposed',
    EXTENDED.replace('extend type Astronaut @key(fields: "id")', 'extend type Astronaut @key(fields: "id") @generate(mutation: { add: false, update: false, delete: false })'),
    ['input AstronautRef {\n  id: ID\n  callSign: String\n  missions: [MissionRef]\n}', '  addMission(input: [AddMissionInput!]!'],
    ['getAstronaut', 'queryAstronaut', 'aggregateAstronaut', 'AstronautFilter', 'AstronautHasFilter', 'AstronautOrder', 'AstronautAggregateResult']],
  ['an extended type with only deleteT: its filter and order are exposed, the inputs of add and update are not generated',
    EXTENDED.replace('extend type Astronaut @key(fields: "id")', 'extend type Astronaut @key(fields: "id") @generate(mutation: { add: false, update: false })'),
    ['  deleteAstronaut(filter: AstronautFilter!): DeleteAstronautPayload\n', 'input AstronautFilter {', 'input AstronautOrder {', 'type DeleteAstronautPayload {'],
    ['queryAstronaut', 'AstronautAggregateResult']],
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
