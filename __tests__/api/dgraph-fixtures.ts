/**
 * Schemas written in the style of Dgraph's schema-generation test data (graphql/schema/testdata/schemagen
 * in dgraph-io/dgraph), each covering the rules of the Dgraph input files named beside it. The generated
 * API of each is pinned in __snapshots__/dgraph-api.test.ts.snap, reviewed against Dgraph's output for
 * those inputs field by field.
 */

export interface DgraphFixture {
  name: string;
  /** The Dgraph testdata inputs (schemagen/input/*.graphql) whose rules this schema exercises. */
  dgraphInputs: string[];
  schema: string;
}

export const DGRAPH_FIXTURES: DgraphFixture[] = [
  {
    name: 'ID fields keep their names; @id fields as keys',
    dgraphInputs: ['field-with-id-directive', 'field-with-multiple-@id-fields', 'searchables-references'],
    schema: `
type Article {
  articleID: ID
  body: String!
  writer: Writer!
  topic: Topic
}

type Writer {
  id: ID
  handle: String! @id @search(by: [regexp])
  nickname: String
  articles: [Article]
}

type Topic {
  # exact answers eq/in itself: no hash index added for @id
  label: String! @id @search(by: [exact])
}

type Magazine {
  code: String! @id
  issn: String! @id
  title: String
}
`,
  },
  {
    name: 'an ID field beside a String field named id',
    dgraphInputs: ['field-with-id-directive'],
    schema: `
type District {
  dgId: ID!
  id: String! @id
  name: String @search(by: [term])
}
`,
  },
  {
    name: 'searchable scalars and enums',
    dgraphInputs: ['searchables', 'single-type-with-enum'],
    schema: `
type Recipe {
  recipeID: ID!
  title: String! @search(by: [term])
  everything: String! @search(by: [term, fulltext, trigram, hash])
  method: String @search(by: [fulltext])
  labels: [String] @search(by: [trigram])
  labelsHash: [String] @search(by: [hash])
  labelsExact: [String] @search(by: [exact])
  cookedYear: DateTime @search(by: [year])
  cookedHour: DateTime @search(by: [hour])
  stamp: Int64 @search
  views: Int64 @search(by: [int64])
  servings: Int @search
  rating: Float @search
  vegan: Boolean @search
  course: Course @search
  courseList: [Course] @search
  courseRegexp: Course @search(by: [regexp])
  courseExact: [Course] @search(by: [exact])
  courseExactRegexp: Course @search(by: [exact, regexp])
  courseHashRegexp: Course @search(by: [hash, regexp])
}

enum Course {
  Starter
  Main
  Dessert
}
`,
  },
  {
    name: 'hasInverse pairs',
    dgraphInputs: ['hasInverse', 'type-reference'],
    schema: `
type Chapter {
  id: ID!
  book: Book! @hasInverse(field: "chapters")
}

type Book {
  id: ID!
  chapters: [Chapter!]! @hasInverse(field: "book")
}
`,
  },
  {
    name: 'interfaces: with an ID, without one, ID only, several at once',
    dgraphInputs: ['interfaces-with-types', 'hasInverse-with-interface', 'interface-with-no-ids', 'hasfilter', 'type-implements-multiple-interfaces'],
    schema: `
interface Vehicle {
  id: ID!
  model: String! @search(by: [exact])
  peers: [Vehicle]
  fuel: [Fuel!]! @search
}

type Car implements Vehicle {
  garages: [Garage]
  doors: Int
}

type Truck implements Vehicle {
  payload: Float
}

enum Fuel {
  PETROL
  DIESEL
  ELECTRIC
}

type Garage {
  id: ID!
  name: String! @search(by: [term])
  size: Float
}

interface Note {
  text: String
}

type Memo implements Note {
  sentBy: Person
}

type Person {
  name: String
  notes: [Note]
}

interface Tagged {
  id: ID!
}

type Sticker implements Tagged {
  colour: String
}

interface Staff {
  staffCode: String!
  role: String!
}

type Driver implements Vehicle & Staff {
  licence: Int
}
`,
  },
  {
    name: 'deprecated fields and enum values',
    dgraphInputs: ['deprecated', 'single-type-with-enum'],
    schema: `
type Device {
  id: ID!
  oldName: String @deprecated
  serial: String! @deprecated(reason: "use code")
  code: String
  state: DeviceState!
}

enum DeviceState {
  ON
  OFF
  STANDBY @deprecated(reason: "merged into OFF")
}
`,
  },
  {
    name: 'federation: extended types, keys, @provides, @requires',
    dgraphInputs: ['apollo-federation'],
    schema: `
extend type Book @key(fields: "id") {
  id: ID! @external
  title: String! @external
  pages: Int @external
  weight: Int @external
  ratings: [Rating] @requires(fields: "pages weight")
}

type Rating @key(fields: "id") {
  id: ID!
  stars: Int!
  reader: Reader @provides(fields: "age")
}

type Club @key(fields: "id") {
  id: ID!
  members: [Member] @provides(fields: "nick")
}

type Member @key(fields: "id") {
  id: ID!
  nick: String!
  since: Int!
}

extend type Reader @key(fields: "handle") {
  id: ID! @external
  handle: String! @id @external
  age: Int! @external
  ratings: [Rating]
}

type Region {
  code: String! @id
  name: String!
}
`,
  },
  {
    name: '@auth rules leave the API as it is',
    dgraphInputs: ['authorization', 'auth-on-interfaces'],
    schema: `
type Ticket @auth(
  query: { rule: """
    query($USER: String!) {
      queryTicket(filter: { owner: { eq: $USER } }) { id }
    }""" }
  add: { rule: "{ $ROLE: { eq: \\"ADMIN\\" } }" }
) {
  id: ID!
  owner: String! @search(by: [hash])
  title: String @search(by: [term])
}

# Dgraph.Authorization {"VerificationKey":"secret","Header":"X-Auth","Namespace":"https://example.com/claims","Algo":"HS256"}
`,
  },
  {
    name: 'custom logic: @lambda fields, queries and mutations',
    dgraphInputs: ['lambda-directive', 'custom-query-with-dgraph-type'],
    schema: `
type Member {
  id: ID!
  first: String!
  last: String!
  display: String @lambda
}

type Query {
  memberNames(ids: [ID!]!): [String] @lambda
}

type Mutation {
  enrol(first: String!, last: String!): Member @lambda
}
`,
  },
  {
    name: 'types without an ID, lists and self references',
    dgraphInputs: ['no-id-field', 'type-without-orderables', 'no-id-field-with-searchables'],
    schema: `
type Entry {
  content: String! @search(by: [term])
  owner: Owner!
  kind: Kind
}

type Owner {
  id: ID
  name: String
  entries: [Entry]
}

type Kind {
  label: String!
}

type Sample {
  id: ID!
  counts: [Int]
  words: [String]
  parent: Sample
}
`,
  },
  {
    name: 'ngram search, alone and beside other indexes',
    dgraphInputs: ['searchables (e2e Article type: ngram with regexp, ngram on a list)'],
    schema: `
type Recipe {
  id: ID!
  heading: String! @search(by: [regexp, ngram])
  steps: [String] @search(by: [ngram])
  blurb: String @search(by: [ngram, term, hash])
  cuisine: Cuisine @search(by: [ngram])
}

enum Cuisine { THAI NORDIC }
`,
  },
  {
    name: 'language tags: one language, a list of languages, any language',
    dgraphInputs: ['language-tags'],
    schema: `
interface Place {
  label: String
}

type Town implements Place {
  # a language of the interface's predicate
  labelFr: String @dgraph(pred: "Place.label@fr")
  # a predicate of a type that is not in this schema
  alias: String @dgraph(pred: "Old.alias@nl")
  # a bare predicate
  slogan: String @dgraph(pred: "slogan@en")
  code: String! @id
  codeDe: String @dgraph(pred: "Town.code@de") @search(by: ["exact", "term"])
  codeIt: String @dgraph(pred: "Town.code@it") @search(by: [trigram])
  # read-only: not in inputs, filters or orders
  codeDeIt: String @dgraph(pred: "Town.code@de:it")
  codeDeItAny: String @dgraph(pred: "Town.code@de:it:.")
  codeAny: String @dgraph(pred: "Town.code@.")
  region: String @search(by: [fulltext])
  regionDe: String @dgraph(pred: "Town.region@de")
  mayorEs: String @dgraph(pred: "Town.mayor@es")
}
`,
  },
  {
    name: '@remote types, interfaces and inputs answered by @custom and @lambda',
    dgraphInputs: ['custom-nested-types', 'custom-query-mixed-types', 'custom-query-not-dgraph-type', 'type-with-custom-fields-on-remote-type'],
    schema: `
interface Animal @remote {
  legs: Int!
}

type Pet implements Animal @remote {
  petID: ID!
  nickname: String! @remoteResponse(name: "nick_name")
  toys: [Toy]
}

type Toy @remote {
  id: ID!
  label: String
}

input PetInput @remote {
  nickname: String!
  legs: Int!
  toys: [ToyInput]
}

input ToyInput {
  label: String!
}

type Shelter {
  id: ID!
  city: String! @search(by: [hash])
  residents: [Pet] @custom(http: { url: "http://pets.example/shelter", method: POST, body: "{ shelter: $id }" })
  mascot: Toy @lambda
}

type Query {
  petsNear(city: String!): [Pet] @custom(http: { url: "http://pets.example/near?city=$city", method: GET })
}

type Mutation {
  adoptPets(input: [PetInput!]!): [Pet] @custom(http: { url: "http://pets.example/adopt", method: POST, body: "$input" })
}
`,
  },
  {
    name: 'a @remote union beside a stored one',
    dgraphInputs: ['union'],
    schema: `
type Tree {
  id: ID!
  species: String! @search(by: [exact])
}

type Shrub {
  id: ID!
  height: Float
}

union Plant = Tree | Shrub
union Sighting @remote = Tree | Shrub

type Garden {
  id: ID!
  plants: [Plant!]
  lastSighting: Sighting @custom(http: { url: "http://birds.example/sighting/$id", method: GET })
}
`,
  },
  {
    name: 'inputs left empty by reverse edges are dropped, repeatedly',
    dgraphInputs: ['filter-cleanSchema-all-empty'],
    schema: `
type Shelf {
  titles: [Volume]
  holds: [Volume] @dgraph(pred: "holds")
}

# written only through Shelf.holds: no VolumeRef, so nothing of Shelf can be written either
type Volume {
  heldBy: [Shelf] @dgraph(pred: "~holds")
}

type Aisle {
  shelves: [Shelf]
}
`,
  },
  {
    name: 'an ID keeps a Ref alive when its relations are dropped',
    dgraphInputs: ['filter-cleanSchema-directLink'],
    schema: `
type Station {
  lines: [Track] @dgraph(pred: "lines")
  title: String
  id: ID
}

type Track {
  depots: [Depot] @dgraph(pred: "~depots")
  stations: [Station] @dgraph(pred: "~lines")
}

type Depot {
  tracks: [Track] @dgraph(pred: "depots")
}
`,
  },
  {
    name: 'Refs that only take each other stay',
    dgraphInputs: ['filter-cleanSchema-circular'],
    schema: `
type Pond {
  frogs: [Frog] @dgraph(pred: "frogs")
  herons: [Heron] @dgraph(pred: "~wades")
}

type Frog {
  pond: [Pond] @dgraph(pred: "~frogs")
  flies: [Heron] @dgraph(pred: "flees")
}

type Heron {
  frogs: [Frog] @dgraph(pred: "~flees")
  wades: [Pond] @dgraph(pred: "wades")
}
`,
  },
];
