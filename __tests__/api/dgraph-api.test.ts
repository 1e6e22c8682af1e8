import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLNamedType } from 'graphql';
import { generateApi } from '../../src/api/generate.js';
import { validModel } from '../sdl/helpers';
import { DGRAPH_FIXTURES } from './dgraph-fixtures';

/**
 * The generated API against Dgraph's for the same schema. Each fixture's printed API is a reviewed
 * snapshot; the table below names, field by field, what Dgraph generates for the rules this issue is
 * about, so a regression fails with the rule in its name, not only as a snapshot diff.
 */

function apiOf(schema: string) {
  return generateApi(validModel(schema));
}

function fixture(name: string): string {
  const found = DGRAPH_FIXTURES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found.schema;
}

describe('printed generated API per Dgraph-style schema', () => {
  test.each(DGRAPH_FIXTURES.map((item) => [item.name, item] as const))('%s', (_name, item) => {
    const api = apiOf(item.schema);
    expect(api.sdl).toMatchSnapshot();
  });

  test('the federation view of the federation fixture', () => {
    expect(apiOf(fixture('federation: extended types, keys, @provides, @requires')).gatewaySdl).toMatchSnapshot();
  });
});

/** One field (or enum value, or argument list) as `name(args): Type` or `VALUE @deprecated(...)`. */
function memberLines(type: GraphQLNamedType): string[] {
  if (isObjectType(type) || isInterfaceType(type)) {
    return Object.values(type.getFields()).map((field) => {
      const args = field.args.length === 0 ? '' : `(${field.args.map((arg) => `${arg.name}: ${arg.type}`).join(', ')})`;
      const deprecated = field.deprecationReason === undefined || field.deprecationReason === null ? '' : ` @deprecated(${field.deprecationReason})`;
      return `${field.name}${args}: ${field.type}${deprecated}`;
    });
  }
  if (isInputObjectType(type)) return Object.values(type.getFields()).map((field) => `${field.name}: ${field.type}`);
  if (isEnumType(type)) return type.getValues().map((value) => `${value.name}${value.deprecationReason ? ` @deprecated(${value.deprecationReason})` : ''}`);
  return [];
}

function membersOf(schema: string, typeName: string): string[] | undefined {
  const type = buildSchema(apiOf(schema).sdl, { assumeValidSDL: true }).getType(typeName);
  return type ? memberLines(type) : undefined;
}

const IDS = fixture('ID fields keep their names; @id fields as keys');
const DISTRICT = fixture('an ID field beside a String field named id');
const SEARCH = fixture('searchable scalars and enums');
const INTERFACES = fixture('interfaces: with an ID, without one, ID only, several at once');
const DEPRECATED = fixture('deprecated fields and enum values');
const FEDERATION = fixture('federation: extended types, keys, @provides, @requires');
const NO_IDS = fixture('types without an ID, lists and self references');
const ALL_EMPTY = fixture('inputs left empty by reverse edges are dropped, repeatedly');
const DIRECT_LINK = fixture('an ID keeps a Ref alive when its relations are dropped');
const CIRCULAR = fixture('Refs that only take each other stay');

describe('Dgraph\'s shapes, rule by rule', () => {
  test.each<[string, string, string, string[] | undefined]>([
    // An ID field not named `id` keeps its name (field-with-id-directive.graphql: getPost(postID: ID!)).
    ['the ID field names getT\'s argument', IDS, 'Query', expect.arrayContaining(['getArticle(articleID: ID!): Article'])],
    ['the ID field names its filter entry, in declaration order', IDS, 'ArticleFilter', ['articleID: [ID!]', 'has: [ArticleHasFilter]', 'and: [ArticleFilter]', 'or: [ArticleFilter]', 'not: ArticleFilter']],
    ['the ID field names its Ref entry', IDS, 'ArticleRef', ['articleID: ID', 'body: String', 'writer: WriterRef', 'topic: TopicRef']],
    // A Ref of one key field makes it required (GenreRef { name: String! }).
    ['a Ref of the @id field alone requires it', IDS, 'TopicRef', ['label: String!']],
    ['a Ref with an ID and other fields keeps them optional', IDS, 'WriterRef', ['id: ID', 'handle: String', 'nickname: String', 'articles: [ArticleRef]']],
    // exact answers eq/in itself: no StringHashFilter joins it; the parts join in index-name order.
    ['@id with exact: no hash added', IDS, 'TopicFilter', ['label: StringExactFilter', 'has: [TopicHasFilter]', 'and: [TopicFilter]', 'or: [TopicFilter]', 'not: TopicFilter']],
    ['@id with regexp: hash then regexp', IDS, 'WriterFilter', ['id: [ID!]', 'handle: StringHashFilter_StringRegExpFilter', 'has: [WriterHasFilter]', 'and: [WriterFilter]', 'or: [WriterFilter]', 'not: WriterFilter']],
    ['an ID and an @id: both getT keys optional', IDS, 'Query', expect.arrayContaining(['getWriter(id: ID, handle: String): Writer'])],
    ['two @id fields: both optional', IDS, 'Query', expect.arrayContaining(['getMagazine(code: String, issn: String): Magazine'])],
    ['one @id field and no ID: required', IDS, 'Query', expect.arrayContaining(['getTopic(label: String!): Topic'])],
    // upsert only where an @id field exists.
    ['addT without an @id field has no upsert', IDS, 'Mutation', expect.arrayContaining(['addArticle(input: [AddArticleInput!]!): AddArticlePayload'])],
    ['addT with an @id field has upsert', IDS, 'Mutation', expect.arrayContaining(['addWriter(input: [AddWriterInput!]!, upsert: Boolean): AddWriterPayload'])],
    // type District { dgId: ID!  id: String! @id }
    ['District: the ID and the String id side by side in the filter', DISTRICT, 'DistrictFilter', ['dgId: [ID!]', 'id: StringHashFilter', 'name: StringTermFilter', 'has: [DistrictHasFilter]', 'and: [DistrictFilter]', 'or: [DistrictFilter]', 'not: DistrictFilter']],
    ['District: getDistrict by either key', DISTRICT, 'Query', expect.arrayContaining(['getDistrict(dgId: ID, id: String): District'])],
    ['District: the Ref', DISTRICT, 'DistrictRef', ['dgId: ID', 'id: String', 'name: String']],
    ['District: the add input', DISTRICT, 'AddDistrictInput', ['id: String!', 'name: String']],
    // Filters: Dgraph's operator order, and between on an enum's exact filter (typed as the enum, as Dgraph does).
    ['enum exact filter has between', SEARCH, 'Course_exact', ['eq: Course', 'in: [Course]', 'le: Course', 'lt: Course', 'ge: Course', 'gt: Course', 'between: Course']],
    ['enum exact + regexp, in index-name order', SEARCH, 'Course_exact_StringRegExpFilter', ['eq: Course', 'in: [Course]', 'le: Course', 'lt: Course', 'ge: Course', 'gt: Course', 'between: Course', 'regexp: String']],
    ['enum hash + regexp', SEARCH, 'Course_hash_StringRegExpFilter', ['eq: Course', 'in: [Course]', 'regexp: String']],
    ['four string indexes joined in index-name order', SEARCH, 'RecipeFilter', expect.arrayContaining(['everything: StringFullTextFilter_StringHashFilter_StringTermFilter_StringRegExpFilter'])],
    ['ordered filters: eq, in, le, lt, ge, gt, between', SEARCH, 'IntFilter', ['eq: Int', 'in: [Int]', 'le: Int', 'lt: Int', 'ge: Int', 'gt: Int', 'between: IntRange']],
    ['string exact: the same order', SEARCH, 'StringExactFilter', ['eq: String', 'in: [String]', 'le: String', 'lt: String', 'ge: String', 'gt: String', 'between: StringRange']],
    // Interfaces.
    ['an interface\'s Ref with an ID alone requires it', INTERFACES, 'VehicleRef', ['id: ID!']],
    ['an interface without an ID or @id has no Ref', INTERFACES, 'NoteRef', undefined],
    ['a relation to such an interface is left out of inputs', INTERFACES, 'AddPersonInput', ['name: String']],
    ['... and out of the Patch', INTERFACES, 'PersonPatch', ['name: String']],
    ['an ID-only filter has no and/or', INTERFACES, 'TaggedFilter', ['id: [ID!]', 'not: TaggedFilter']],
    ['an ID-only interface has no update', INTERFACES, 'UpdateTaggedInput', undefined],
    ['... nor updateT', INTERFACES, 'Mutation', expect.not.arrayContaining([expect.stringMatching(/^updateTagged\(/)])],
    ['relation aggregates after the declared fields', INTERFACES, 'Car', ['id: ID!', 'model: String!', 'peers(filter: VehicleFilter, order: VehicleOrder, first: Int, offset: Int): [Vehicle]', 'fuel: [Fuel!]!', 'garages(filter: GarageFilter, order: GarageOrder, first: Int, offset: Int): [Garage]', 'doors: Int', 'peersAggregate(filter: VehicleFilter): VehicleAggregateResult', 'garagesAggregate(filter: GarageFilter): GarageAggregateResult']],
    // @deprecated kept.
    ['deprecated fields keep their reasons', DEPRECATED, 'Device', ['id: ID!', 'oldName: String @deprecated(No longer supported)', 'serial: String! @deprecated(use code)', 'code: String', 'state: DeviceState!']],
    ['deprecated enum values keep their reasons', DEPRECATED, 'DeviceState', ['ON', 'OFF', 'STANDBY @deprecated(merged into OFF)']],
    // Federation (apollo-federation.graphql).
    ['an extended type keyed by its ID: orderable by it', FEDERATION, 'BookOrderable', ['id']],
    ['... with its Min/Max', FEDERATION, 'BookAggregateResult', ['count: Int', 'idMin: ID', 'idMax: ID']],
    ['... and queryT takes order', FEDERATION, 'Query', expect.arrayContaining(['queryBook(filter: BookFilter, order: BookOrder, first: Int, offset: Int): [Book]'])],
    ['an extended type\'s Add input requires its key', FEDERATION, 'AddBookInput', ['id: ID!', 'ratings: [RatingRef]']],
    ['an extended type keyed by @id: the key in its Patch', FEDERATION, 'ReaderPatch', ['handle: String', 'age: Int', 'ratings: [RatingRef]']],
    ['... a provided field keeps its nullability in Add', FEDERATION, 'AddReaderInput', ['handle: String!', 'age: Int!', 'ratings: [RatingRef]']],
    ['... the owner\'s ID is not an identity here', FEDERATION, 'ReaderFilter', ['handle: StringHashFilter', 'has: [ReaderHasFilter]', 'and: [ReaderFilter]', 'or: [ReaderFilter]', 'not: ReaderFilter']],
    ['... nor in its Ref', FEDERATION, 'ReaderRef', ['handle: String', 'age: Int', 'ratings: [RatingRef]']],
    ['... getT by the key alone', FEDERATION, 'Query', expect.arrayContaining(['getReader(handle: String!): Reader'])],
    ['... orderable by the key and the provided field', FEDERATION, 'ReaderOrderable', ['handle', 'age']],
    // Types without an ID (no-id-field.graphql).
    ['no ID, no @id: no getT', NO_IDS, 'Query', expect.not.arrayContaining([expect.stringMatching(/^getEntry\(/)])],
    ['no ID, no @id: a Ref of the fields, all optional', NO_IDS, 'KindRef', ['label: String']],
    ['lists are not orderable', NO_IDS, 'SampleAggregateResult', ['count: Int']],
    // Dgraph's clean-up (filter-cleanSchema-*.graphql): an input left without fields goes, then the fields that take it.
    ['a type written only through reverse edges has no Ref', ALL_EMPTY, 'VolumeRef', undefined],
    ['... so the relations to it leave the Ref of the type holding them', ALL_EMPTY, 'ShelfRef', undefined],
    ['... and its Patch', ALL_EMPTY, 'ShelfPatch', undefined],
    ['... and its Add input', ALL_EMPTY, 'AddShelfInput', undefined],
    ['... then the type that only holds those', ALL_EMPTY, 'AddAisleInput', undefined],
    ['... with no addT nor updateT left', ALL_EMPTY, 'Mutation', ['deleteShelf(filter: ShelfFilter!): DeleteShelfPayload', 'deleteVolume(filter: VolumeFilter!): DeleteVolumePayload', 'deleteAisle(filter: AisleFilter!): DeleteAislePayload']],
    ['... but the payloads stay, as Dgraph leaves them', ALL_EMPTY, 'AddShelfPayload', ['shelf(filter: ShelfFilter, first: Int, offset: Int): [Shelf]', 'numUids: Int']],
    ['... the update payload too', ALL_EMPTY, 'UpdateAislePayload', ['aisle(filter: AisleFilter, first: Int, offset: Int): [Aisle]', 'numUids: Int']],
    ['reverse edges only: a has enum but no has, and, or in the filter', ALL_EMPTY, 'VolumeFilter', ['not: VolumeFilter']],
    ['... the has enum', ALL_EMPTY, 'VolumeHasFilter', ['heldBy']],
    ['an ID keeps the Ref, less the dropped relation', DIRECT_LINK, 'StationRef', ['id: ID', 'title: String']],
    ['... and the Add input keeps the other fields', DIRECT_LINK, 'AddStationInput', ['title: String']],
    ['... and the Patch', DIRECT_LINK, 'StationPatch', ['title: String']],
    ['a relation to a dropped Ref leaves no Ref behind', DIRECT_LINK, 'DepotRef', undefined],
    ['... only the ID\'d type keeps addT and updateT', DIRECT_LINK, 'Mutation', ['addStation(input: [AddStationInput!]!): AddStationPayload', 'updateStation(input: UpdateStationInput!): UpdateStationPayload', 'deleteStation(filter: StationFilter!): DeleteStationPayload', 'deleteTrack(filter: TrackFilter!): DeleteTrackPayload', 'deleteDepot(filter: DepotFilter!): DeleteDepotPayload']],
    ['Refs in a cycle stay', CIRCULAR, 'FrogRef', ['flies: [HeronRef]']],
    ['... and so do the inputs that take them', CIRCULAR, 'AddHeronInput', ['wades: [PondRef]']],
  ])('%s', (_rule, schema, typeName, expected) => {
    expect(membersOf(schema, typeName)).toEqual(expected);
  });
});
