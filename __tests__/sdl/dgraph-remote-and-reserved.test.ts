import { errorLines, fieldOf, validModel } from './helpers.js';

/**
 * Issue 32: the rules of Dgraph's graphql/schema/gqlschema_test.yml that were missing — `@remote` types,
 * reserved words, `@search` without a list, Boolean lists, a field from two interfaces, `@custom(dql:)`
 * and the `@custom(http:)` url/body rules — with cases of our own. Refusals: every error as
 * `line:column message`, in Dgraph's wording.
 */
const refusals: Array<[rule: string, source: string, expected: string[]]> = [
  // reserved words
  ['uid as a field name', 'type Box {\n  uid: String\n}', ['2:3 Type Box; field uid: uid is a reserved keyword and you cannot declare a field with this name']],
  ['as, in any case, as a field name', 'type Box {\n  id: ID!\n  As: String\n}', ['3:3 Type Box; field As: As is a reserved keyword and you cannot declare a field with this name']],
  ['as as a type name', 'type AS {\n  label: String\n}', ["1:6 AS is a reserved word, so you can't declare a type with this name. Pick a different name for the type."]],
  ['a geo type name as a user type', 'type Polygon {\n  label: String\n}', ["1:6 Polygon is a reserved word, so you can't declare a type with this name. Pick a different name for the type."]],
  ['Point as an enum name', 'enum Point { A }\ntype T { e: Point }', [
    "1:6 Point is a reserved word, so you can't declare a type with this name. Pick a different name for the type.",
    '2:13 Type T; field e: unknown type Point',
  ]],
  ['uid as a type name', 'type uid {\n  label: String\n}', ["1:6 uid is a reserved word, so you can't declare a type with this name. Pick a different name for the type."]],
  ['as in @dgraph(type:)', 'type Box @dgraph(type: "as") {\n  label: String\n}', ["1:10 Type Box: type argument 'as' for @dgraph directive is a reserved keyword"]],
  ['uid in @dgraph(pred:)', 'type Box {\n  label: String @dgraph(pred: "uid")\n}', ["2:17 Type Box; field label: pred argument 'uid' for @dgraph directive is a reserved keyword"]],
  // @search and lists
  ['@search(by:) with a single value, not a list', 'type Box {\n  label: String @search(by: exact)\n}', ['2:29 Type Box; field label: the @search directive requires a list argument, like @search(by: ["exact"])']],
  ['a list of Booleans', 'type Box {\n  label: String\n  flags: [Boolean!]\n}', ['3:10 Type Box; field flags: Boolean lists are invalid']],
  // interfaces
  ['one non-ID field from two interfaces', 'interface Named {\n  name: String\n}\ninterface Titled {\n  name: String\n}\ntype Book implements Named & Titled {\n  pages: Int\n}', [
    '2:3,5:3 Field Book.name can only be defined once.',
  ]],
  // @custom(dql:)
  ['@custom(dql:)', 'type Box { id: ID! label: String }\ntype Query {\n  boxes: [Box] @custom(dql: "query { boxes(func: type(Box)) { uid } }")\n}', [
    "3:24 Type Query; field boxes: @custom(dql:) is not supported: DQL is Dgraph's query language and has no equivalent in this service; resolve the field with @lambda (its graphql() runs queries of the generated API) or @custom(http:)",
  ]],
  // @custom(http:) on Query / Mutation
  ['a url path placeholder that is no argument', 'type Query {\n  box(code: String!): String @custom(http: { url: "http://boxes.example/$kode", method: GET })\n}', [
    '2:51 Type Query; field box: url path inside @custom directive uses an argument kode that is not defined',
  ]],
  ['a url query placeholder that is no argument', 'type Query {\n  box(code: String): String @custom(http: { url: "http://boxes.example/find?c=$kode", method: GET })\n}', [
    '2:50 Type Query; field box: url query inside @custom directive uses an argument kode that is not defined',
  ]],
  ['a body placeholder that is no argument', 'type Mutation {\n  pack(code: String): String @custom(http: { url: "http://boxes.example/", method: POST, body: "{ code: $kode }" })\n}', [
    '2:96 Type Mutation; field pack: body template inside @custom directive uses an argument kode that is not defined',
  ]],
  // @custom(http:) on a field of a type
  ['@custom on the ID field', 'type Box {\n  id: ID! @custom(http: { url: "http://boxes.example/", method: GET })\n  label: String\n}', [
    '2:11 Type Box; field id: custom directive not allowed on field of type ID! or field with @id directive',
  ]],
  ['a body requiring the field itself', 'type Box {\n  code: String! @id\n  label: String @custom(http: { url: "http://boxes.example/", method: POST, body: "{ code: $code, label: $label }" })\n}', [
    "3:83 Type Box; field label: @custom directive, body template can't require itself",
    "3:83 Type Box; field label: @custom directive, body template can't use another field with @custom/@lambda directive, found field `label` with @custom/@lambda",
  ]],
  ['@custom in a type with neither an ID nor an @id field', 'type Box {\n  label: String!\n  size: Int @custom(http: { url: "http://boxes.example/$label", method: GET })\n}', [
    '3:13 Type Box; field size: @custom directive is only allowed on fields where the type definition has a field with type ID! or a field with @id directive',
  ]],
  ['a body without the parent\'s identity, naming an unknown field', 'type Box {\n  id: ID!\n  label: String\n  size: Int @custom(http: { url: "http://boxes.example/", method: POST, body: "{ l: $label, w: $weight }" })\n}', [
    '4:79 Type Box; field size: @custom directive, body template must use fields defined within the type, found `weight`',
    '4:79 Type Box; field size: @custom directive, body template must use a field with type ID! or a field with @id directive',
  ]],
  ['a body using another computed field', 'type Box {\n  id: ID!\n  weight: Int @lambda\n  size: Int @custom(http: { url: "http://boxes.example/", method: POST, body: "{ id: $id, w: $weight }" })\n}', [
    "4:79 Type Box; field size: @custom directive, body template can't use another field with @custom/@lambda directive, found field `weight` with @custom/@lambda",
  ]],
  ['url placeholders naming an unknown field and a nullable one', 'type Box {\n  id: ID!\n  shelf: String\n  size: Int @custom(http: { url: "http://boxes.example/$shelf/$aisle?r=$row", method: GET })\n}', [
    '4:34 Type Box; field size: url path inside @custom directive uses a field shelf that can be null',
    '4:34 Type Box; field size: url path inside @custom directive uses a field aisle that is not defined',
    '4:34 Type Box; field size: url query inside @custom directive uses a field row that is not defined',
  ]],
  ['url parameters in mode BATCH', 'type Box {\n  id: ID!\n  size: Int @custom(http: { url: "http://boxes.example/?id=$id", method: POST, body: "{ id: $id }", mode: BATCH })\n}', [
    "3:34 Type Box; field size: has parameters in url inside @custom directive while mode is BATCH, url can't contain parameters if mode is BATCH",
  ]],
  // @remote
  ['@remote with @auth', 'type Parcel @remote @auth(query: { rule: "{ $ROLE: { eq: \\"ADMIN\\" } }" }) {\n  code: String\n}', [
    '1:6 Type Parcel: cannot have both @auth and @remote directive',
  ]],
  ['@remote with @withSubscription', 'type Parcel @withSubscription @remote {\n  code: String\n}', ['1:6 Type Parcel: cannot have both @withSubscription and @remote directive']],
  ['@remote with @key', 'type Parcel @remote @key(fields: "code") {\n  code: String\n}', ['1:21 Type Parcel: @remote directive cannot be defined with @key directive']],
  ['a computed field on a @remote type', 'type Parcel @remote {\n  code: String\n  price: Int @lambda\n}', [
    "3:3 Type Parcel; field price: can't have @custom/@lambda directive as a @remote type can't have fields with @custom/@lambda directive",
  ]],
  ['@default on a @remote type', 'type Parcel @remote {\n  code: String @default(add: { value: "x" })\n}', ['2:16 Type Parcel; field code: cannot use @default directive on a @remote type']],
  ['a stored field of a @remote type', 'type Parcel @remote {\n  code: String\n}\ntype Box {\n  id: ID!\n  parcel: Parcel\n}', [
    '6:3 Type Box; field parcel: is of a type that has @remote directive. Those would need to be resolved by a @custom/@lambda directive',
  ]],
  ['a @remote type implementing a stored interface', 'interface Item {\n  code: String\n}\ntype Parcel implements Item @remote {\n  weight: Int\n}\ntype Box implements Item { size: Int }', [
    "4:6 Type Parcel: with @remote directive implements interface Item, which doesn't have @remote directive",
  ]],
  ['a stored type implementing a @remote interface', 'interface Item @remote {\n  code: String\n}\ntype Box implements Item {\n  size: Int\n}', [
    "4:21 Type Box: without @remote directive can't implement an interface Item, which has the @remote directive",
  ]],
  ['@remoteResponse on a stored type', 'type Box {\n  id: ID!\n  label: String @remoteResponse(name: "lbl")\n}', [
    '3:17 Type Box; field label: @remoteResponse directive can only be defined on fields of @remote type',
  ]],
  ['@remoteResponse without a name', 'type Parcel @remote {\n  code: String @remoteResponse\n}', ['2:16 Type Parcel; field code: Argument name inside @remoteResponse directive must be defined']],
];

describe('Dgraph\'s refusals, in its wording', () => {
  it.each(refusals)('%s', (_rule, source, expected) => {
    expect(errorLines(source)).toEqual(expected);
  });
});

describe('Dgraph\'s acceptances', () => {
  it.each<[string, string]>([
    ['an ID field from two interfaces', 'interface A { id: ID }\ninterface B { id: ID }\ntype C implements A & B { label: String }'],
    ['an interface field redeclared by the type', 'interface A { id: ID label: String }\ntype C implements A { id: ID label: String size: Int }'],
    ['names a @remote type frees: getT, addT and UpdateTInput', 'type Parcel @remote { id: ID! code: String }\ninput UpdateParcelInput { code: String }\ntype Query { getParcel(id: ID!): Parcel @custom(http: { url: "http://parcels.example/$id", method: GET }) }\ntype Mutation { addParcel(input: UpdateParcelInput): Parcel @lambda }'],
    ['a @remote type holding stored and @remote types', 'type Box { id: ID! label: String }\ntype Label @remote { text: String }\ntype Parcel @remote { box: Box labels: [Label] }\ntype Query { parcel: Parcel @lambda }'],
    ['a @remote union of stored and @remote members, returned by @custom', 'type Box { id: ID! label: String }\ntype Parcel @remote { code: String }\nunion Thing @remote = Box | Parcel\ntype Shelf { id: ID! label: String things: [Thing] @custom(http: { url: "http://shelves.example/$id", method: GET }) }'],
    ['@remote on an enum and an input', 'enum Size @remote { S L }\ninput Wanted @remote { size: Size }\ntype Query { find(w: Wanted): String @lambda }'],
    ['a body with the @id field and a url query of a nullable field', 'type Box {\n  code: String! @id\n  shelf: String\n  size: Int @custom(http: { url: "http://boxes.example/?s=$shelf", method: POST, body: "{ code: $code }" })\n}'],
  ])('%s', (_rule, source) => {
    validModel(source);
  });

  it('pairs each implementing type\'s copy of an inherited field with its own @hasInverse, as Dgraph does', () => {
    const model = validModel(`type Keeper {
  id: ID!
  name: String! @search(by: [hash])
  lions: [Lion] @hasInverse(field: keeper)
  zebras: [Zebra] @hasInverse(field: keeper)
}
interface Animal {
  id: ID!
  keeper: Keeper!
}
type Lion implements Animal { roars: Int }
type Zebra implements Animal { stripes: Int }`);
    expect(fieldOf(model, 'Lion', 'keeper').inverse).toEqual({ type: 'Keeper', field: 'lions' });
    expect(fieldOf(model, 'Zebra', 'keeper').inverse).toEqual({ type: 'Keeper', field: 'zebras' });
    expect(fieldOf(model, 'Keeper', 'lions').inverse).toEqual({ type: 'Lion', field: 'keeper' });
    expect(fieldOf(model, 'Keeper', 'zebras').inverse).toEqual({ type: 'Zebra', field: 'keeper' });
  });

  it('keeps @remote types out of the stored types, with their @remoteResponse keys and inherited fields', () => {
    const model = validModel('interface Item @remote { code: String! }\ntype Parcel implements Item @remote {\n  weight: Int @remoteResponse(name: "weight_kg")\n}\ntype Query { parcel: Parcel @lambda }');
    expect([...model.types.keys()]).toEqual([]);
    expect(model.remoteTypes?.get('Parcel')).toEqual({
      name: 'Parcel', kind: 'type', implements: ['Item'], members: [], loc: { line: 2, column: 6 },
      fields: [
        { name: 'code', typeText: 'String!', namedType: 'String', list: false, args: [] },
        { name: 'weight', typeText: 'Int', namedType: 'Int', list: false, args: [], remoteName: 'weight_kg' },
      ],
    });
  });
});
