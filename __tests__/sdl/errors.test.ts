import { errorLines } from './helpers.js';

/**
 * Bad schemas → every error, as `line:column message`. Each rule of sdl/ has at least one row. Sources are
 * one line where that keeps columns easy to check by eye.
 */
const cases: Array<[rule: string, source: string, expected: string[]]> = [
  // syntax
  ['syntax error', 'type Task { id: ID! title: }', ['1:28 Syntax Error: Expected Name, found "}".']],
  // declarations
  ['duplicate type', 'type Task { id: ID! }\ntype Task { name: String }', ['1:6,2:6 Type Task: the name is defined more than once']],
  ['duplicate field', 'type Task { id: ID! title: String title: String }', ['1:21,1:35 Type Task: field title is declared more than once']],
  ['duplicate enum value', 'enum Color { RED GREEN RED }\ntype T { c: Color }', ['1:14,1:24 Type Color: enum value RED is declared more than once']],
  ['reserved type name', 'type _Secret { id: ID! }', ['1:6 Type _Secret: names starting with "_" are reserved']],
  ['reserved field name', 'type Task { id: ID! _rev: Int }', ['1:21 Type Task; field _rev: names starting with "_" are reserved']],
  ['built-in scalar redefined', 'type DateTime { id: ID! }', ["1:6 DateTime is a reserved word, so you can't declare a type with this name. Pick a different name for the type."]],
  ['name generated for another type', 'type Task { id: ID! }\ntype TaskFilter { id: ID! }', [
    '2:6 Type TaskFilter: the name clashes with TaskFilter, which the generated API declares for type Task',
  ]],
  ['every generated name is protected', 'type T { id: ID! }\ntype AddTPayload { id: ID! }\ntype THasFilter { id: ID! }\ntype TOrderable { id: ID! }', [
    '2:6 Type AddTPayload: the name clashes with AddTPayload, which the generated API declares for type T',
    '3:6 Type THasFilter: the name clashes with THasFilter, which the generated API declares for type T',
    '4:6 Type TOrderable: the name clashes with TOrderable, which the generated API declares for type T',
  ]],
  ['shared filter name', 'type IntFilter { id: ID! }', ['1:6 Type IntFilter: the name clashes with IntFilter, a filter input of the generated API']],
  ['enum filter name', 'enum Color { RED }\ntype Color_hash { id: ID! }', [
    '2:6 Type Color_hash: the name clashes with Color_hash, which the generated API declares for enum Color',
  ]],
  ['custom scalar', 'scalar Email\ntype T { id: ID! }', [
    '1:1 Type Email: custom scalars are not supported (built in: ID, String, Int, Int64, Float, Boolean, DateTime)',
  ]],
  ['extend enum', 'enum Color { RED }\nextend enum Color { BLUE }', ['2:1 Type Color: only object types can be extended (`extend type`)']],
  ['schema definition', 'schema { query: Q }\ntype Q { id: ID! }', [
    '1:1 schema definitions are not supported; the root types are always Query and Mutation',
  ]],
  ['operation in a schema', 'type T { id: ID! }\nquery { queryT { id } }', [
    '2:1 a schema holds type definitions only; operations and fragments are not allowed',
  ]],
  ['subscription', 'type Subscription { x: Int @lambda }', ['1:6 Type Subscription: the Subscription type is generated: mark a type or a @lambda Query field @withSubscription']],
  ['interface implementing an interface', 'interface A { id: ID! }\ninterface B implements A { id: ID! }', [
    '2:24 Type B: an interface cannot implement other interfaces here',
  ]],
  ['type without fields', 'type Empty\ntype T { id: ID! }', ['1:6 Type Empty: a type needs at least one field']],
  ['directive on Query', 'type Query @auth(query: { rule: "{ x }" }) { x: Int @lambda }', ['1:12 Type Query: @auth is not allowed on Query']],
  // field types
  ['unknown type', 'type Task { id: ID! owner: Person }', ['1:28 Type Task; field owner: unknown type Person']],
  ['unknown type with @search and @id: reported once', 'type Task { id: ID! kind: Kind @search @id }', ['1:27 Type Task; field kind: unknown type Kind']],
  ['root type as field type', 'type Task { id: ID! q: Query }\ntype Query { x: Int @lambda }', [
    '1:24 Type Task; field q: Query is a root type and cannot be the type of a field',
  ]],
  ['list of lists', 'type Grid { id: ID! cells: [[Int]] }', ['1:28 Type Grid; field cells: lists of lists ([[Int]]) are not supported']],
  ['more than one ID field', 'type P {\n  id1: ID!\n  id2: ID!\n  id3: ID\n}', [
    '2:3,3:3,4:3 Type P: more than one ID field (id1, id2, id3); a type can have only one',
  ]],
  ['ID list', 'type P { id: ID! others: [ID] }', [
    '1:26 Type P; field others: an ID field cannot be a list ([ID]); a type has one ID, its identity',
  ]],
  ['@id on Float', 'type P { score: Float @id }', [
    '1:23 Type P; field score: @id applies to the ID field (the caller then supplies it) or to String, Int or Int64 fields that are not lists, not to Float',
  ]],
  ['@id on a list', 'type P { tags: [String] @id }', [
    '1:25 Type P; field tags: @id applies to the ID field (the caller then supplies it) or to String, Int or Int64 fields that are not lists, not to [String]',
  ]],
  ['@id with an argument on the ID field', 'type P { id: ID! @id(x: 1) }', ['1:22 Type P; field id: @id has no argument "x" (it takes no arguments)']],
  ['@id with an argument', 'type P { name: String! @id(unique: true) }', [
    '1:28 Type P; field name: @id has no argument "unique" (known: interface)',
  ]],
  // directives
  ['unknown directive', 'type P { id: ID! name: String @unique }', [
    '1:31 Type P; field name: @unique is not a supported directive (allowed on a field: @id, @search, @hasInverse, @external, @provides, @requires, @lambda, @custom, @deprecated, @default, @dgraph)',
  ]],
  ['field directive on a type', 'type P @search { id: ID! }', [
    '1:8 Type P: @search is not allowed on a type (allowed there: @key, @extends, @auth, @generate, @secret, @dgraph, @withSubscription, @lambdaOnMutate)',
  ]],
  ['type directive on a field', 'type P { id: ID! name: String @key(fields: "name") }', [
    '1:31 Type P; field name: @key is not allowed on a field (allowed there: @id, @search, @hasInverse, @external, @provides, @requires, @lambda, @custom, @deprecated, @default, @dgraph)',
  ]],
  ['repeated directive', 'type P { name: String @search @search(by: [hash]) }', ['1:31 Type P; field name: @search is repeated']],
  // @search
  ['@search index that does not fit String', 'type Task {\n  id: ID!\n  title: String @search(by: [int])\n}', [
    '3:30 Type Task; field title: @search(by: [int]) does not apply to String (allowed: hash, exact, regexp, term, fulltext, ngram, trigram)',
  ]],
  ['@search on ID', 'type Task { id: ID! @search }', [
    '1:21 Type Task; field id: @search does not apply to an ID field (ID fields are filtered with `id: [ID!]` already)',
  ]],
  ['@search on a relation', 'type Task { id: ID! owner: User @search }\ntype User { id: ID! }', [
    '1:33 Type Task; field owner: @search does not apply to a relation (User); filter on the related type\'s fields instead',
  ]],
  ['@search hash with exact', 'type Task { name: String @search(by: [hash, exact]) }', [
    '1:34 Type Task; field name: @search(by: [hash, exact]): hash and exact cannot be used together; exact alone also answers eq',
  ]],
  ['@search unknown index', 'type Task { name: String @search(by: [soundex]) }', [
    '1:39 Type Task; field name: @search(by: [soundex]) is not an index (known: hash, exact, term, fulltext, ngram, trigram, regexp, int, int64, float, bool, day, month, year, hour)',
  ]],
  ['@search term on an enum', 'enum Color { RED }\ntype Task { color: Color @search(by: [term]) }', [
    '2:39 Type Task; field color: @search(by: [term]) does not apply to enum Color (allowed: hash, exact, trigram, regexp, ngram)',
  ]],
  ['@search on Int, Float, Boolean, DateTime with the wrong index',
    'type T {\n  a: Int @search(by: [int64])\n  b: Float @search(by: [int])\n  c: Boolean @search(by: [hash])\n  d: DateTime @search(by: [exact])\n  e: Int64 @search(by: [float])\n}', [
    '2:23 Type T; field a: @search(by: [int64]) does not apply to Int (allowed: int)',
    '3:25 Type T; field b: @search(by: [int]) does not apply to Float (allowed: float)',
    '4:27 Type T; field c: @search(by: [hash]) does not apply to Boolean (allowed: bool)',
    '5:28 Type T; field d: @search(by: [exact]) does not apply to DateTime (allowed: year, month, day, hour)',
    '6:25 Type T; field e: @search(by: [float]) does not apply to Int64 (allowed: int64)',
  ]],
  ['@search unknown argument', 'type Task { name: String @search(using: [hash]) }', [
    '1:34 Type Task; field name: @search has no argument "using" (known: by)',
  ]],
  // arguments and custom logic
  ['argument of an object type', 'type Task { id: ID! similar(to: Task): [Task] @lambda }', [
    '1:33 Type Task; field similar: argument to: Task is not a scalar, enum or input type; arguments take those only',
  ]],
  ['argument default value', 'type Task { id: ID! similar(count: Int = 3): [Task] @lambda }', [
    '1:42 Type Task; field similar: argument count: default values are not supported',
  ]],
  ['@lambda with @custom', 'type Task { id: ID! x: Int @lambda @custom(http: { url: "https://a.example" }) }', [
    '1:36 Type Task; field x: use either @lambda or @custom, not both',
  ]],
  ['@lambda with storage directives', 'type Task { id: ID! x: String @lambda @search @id }', [
    '1:39 Type Task; field x: @search cannot be combined with @lambda: the field is computed, not stored',
    '1:47 Type Task; field x: @id cannot be combined with @lambda: the field is computed, not stored',
  ]],
  ['@lambda with an argument', 'type Task { id: ID! x: String @lambda(name: "f") }', [
    '1:39 Type Task; field x: @lambda has no argument "name" (it takes no arguments)',
  ]],
  ['@custom without url, bad method, bad mode, unknown key',
    'type Task {\n  id: ID!\n  x: String @custom(http: { method: FETCH, mode: MANY, graphql: "query { a }" })\n}', [
    '3:27 Type Task; field x: @custom(http:) needs "url"',
    '3:37 Type Task; field x: @custom(http:) "method" must be one of GET, POST, PUT, PATCH, DELETE, found FETCH',
    '3:50 Type Task; field x: @custom(http:) "mode" must be one of SINGLE, BATCH, found MANY',
    '3:56 Type Task; field x: @custom(http:) has no key "graphql" (known: url, method, body, forwardHeaders, secretHeaders, mode)',
  ]],
  ['@custom with a relative url', 'type Task { id: ID! x: String @custom(http: { url: "/relative" }) }', [
    '1:52 Type Task; field x: @custom(http:) "url" must be an absolute http(s) URL, found "/relative"',
  ]],
  ['@custom without http', 'type Task { id: ID! x: String @custom }', ['1:31 Type Task; field x: @custom needs the argument "http"']],
  ['custom query without @lambda or @custom', 'type Query {\n  hello: String\n}', [
    '2:3 Type Query; field hello: a custom query needs @lambda or @custom(http: {...}) to resolve it',
  ]],
  ['custom query named like a generated one', 'type Task { id: ID! }\ntype Query { getTask(id: ID!): Task @lambda }', [
    '2:14 Type Query; field getTask: the name is taken by the generated query for type Task',
  ]],
  ['custom mutation with a mode', 'type Mutation { ping: String @custom(http: { url: "https://a.example", method: POST, mode: BATCH }) }', [
    "1:86 Type Mutation; field ping: mode field inside @custom directive can't be present on Query/Mutation",
  ]],
  ['storage directive on a custom query', 'type Query { x: String @lambda @search }', [
    '1:32 Type Query; field x: @search is not allowed on a Query field (allowed there: @lambda, @custom, @deprecated, @withSubscription)',
  ]],
  ['@deprecated with a non-string reason', 'type Task { id: ID! x: String @deprecated(reason: 3) }', [
    '1:51 Type Task; field x: @deprecated(reason:) must be a string, found 3',
  ]],
  // interfaces
  ['implements an unknown interface', 'type Task implements Node { id: ID! }', ['1:22 Type Task: implements unknown interface Node']],
  ['implements a type', 'type Node { id: ID! }\ntype Task implements Node { id: ID! }', [
    '2:22 Type Task: implements Node, which is not an interface',
  ]],
  ['redeclared interface field with another type', 'interface Node { id: ID! }\ntype Task implements Node { id: String }', [
    '2:33 Type Task; field id: redeclares id of interface Node as String; the interface declares ID!',
  ]],
  ['redeclared interface field with other directives', 'interface Named { name: String @search }\ntype Task implements Named { name: String @search(by: [hash]) }', [
    '2:30 Type Task; field name: redeclares name of interface Named with other directives; declare them on the interface',
  ]],
  ['two interfaces disagree on a field', 'interface A { x: Int }\ninterface B { x: String }\ntype T implements A & B { id: ID! }', [
    '1:15,2:15 Field T.x can only be defined once.',
  ]],
  // relations
  ['@hasInverse naming a missing field', 'type Task { id: ID! user: User @hasInverse(field: tasks) }\ntype User { id: ID! }', [
    '1:32 Type Task; field user: @hasInverse(field: tasks): type User has no field tasks',
  ]],
  ['@hasInverse partner of the wrong type', 'type Task { id: ID! user: User @hasInverse(field: name) }\ntype User { id: ID! name: String }', [
    '1:32 Type Task; field user: @hasInverse(field: name): User.name has type String, but an inverse must refer back to Task',
  ]],
  ['@hasInverse partner pointing elsewhere', 'type Task { id: ID! user: User @hasInverse(field: notes) }\ntype User { id: ID! notes: [Note] }\ntype Note { id: ID! }', [
    '1:32 Type Task; field user: @hasInverse(field: notes): User.notes has type [Note], but an inverse must refer back to Task',
  ]],
  ['@hasInverse pair naming different partners',
    'type Task {\n  id: ID!\n  owner: User @hasInverse(field: tasks)\n  reviewer: User\n}\ntype User {\n  id: ID!\n  tasks: [Task] @hasInverse(field: reviewer)\n}', [
    '3:15 Type Task; field owner: @hasInverse(field: tasks): User.tasks names reviewer as its inverse, not owner',
  ]],
  ['@hasInverse to an interface field from one implementation',
    'interface Post { id: ID! }\ntype Article implements Post { id: ID! author: Author @hasInverse(field: posts) }\ntype Author { id: ID! posts: [Post] }', [
    '2:55 Type Article; field author: @hasInverse(field: posts): Author.posts refers to interface Post; declare author with @hasInverse on Post',
  ]],
  ['@hasInverse on a scalar', 'type Task { id: ID! title: String @hasInverse(field: x) }', [
    '1:35 Type Task; field title: @hasInverse applies to relation fields only; this field holds String',
  ]],
  ['@hasInverse without field', 'type Task { id: ID! user: User @hasInverse }\ntype User { id: ID! tasks: [Task] }', [
    '1:32 Type Task; field user: @hasInverse needs the argument "field"',
  ]],
  ['two fields claim one inverse', 'type Task {\n  id: ID!\n  owner: User @hasInverse(field: tasks)\n  creator: User @hasInverse(field: tasks)\n}\ntype User { id: ID! tasks: [Task] }', [
    '4:17 Type Task; field creator: @hasInverse(field: tasks): User.tasks is already the inverse of Task.owner',
  ]],
  ['@hasInverse to a computed field', 'type Task { id: ID! user: User @hasInverse(field: tasks) }\ntype User { id: ID! tasks: [Task] @lambda }', [
    '1:32 Type Task; field user: @hasInverse(field: tasks): User.tasks is computed by @lambda/@custom and cannot be an inverse',
  ]],
  // federation
  ['two @key directives', 'type P @key(fields: "id") @key(fields: "sku") { id: ID! sku: String! @id }', [
    '1:27 Type P: at most one @key per type is supported',
  ]],
  ['@key with two fields', 'type P @key(fields: "id sku") { id: ID! sku: String! @id }', [
    '1:8 Type P: @key(fields: "id sku"): only one key field is supported',
  ]],
  ['@key with a nested selection', 'type P @key(fields: "owner { id }") { id: ID! }', [
    '1:21 Type P: @key(fields: "owner { id }"): nested selections are not supported; name fields of the type only',
  ]],
  ['@key naming a missing field', 'type P @key(fields: "upc") { id: ID! }', ['1:8 Type P: @key(fields: "upc"): the type has no field upc']],
  ['@key on a plain field', 'type P @key(fields: "name") { id: ID! name: String! }', [
    '1:8 Type P: @key(fields: "name"): the key field must have type ID or carry @id; name is String!',
  ]],
  ['@key without fields', 'type P @key { id: ID! }', ['1:8 Type P: @key needs the argument "fields"']],
  ['@external on a type that is not extended', 'type P @key(fields: "id") { id: ID! name: String @external }', [
    '1:50 Type P; field name: @external is allowed only on extended types (`@extends` or `extend type`)',
  ]],
  ['@extends without @key', 'type P @extends { id: ID! @external }', [
    '1:6 Type P: an extended type needs @key(fields: "...") naming the field that identifies it',
  ]],
  ['extend type without @key', 'extend type P { id: ID! @external }', [
    '1:13 Type P: an extended type needs @key(fields: "...") naming the field that identifies it',
  ]],
  ['@provides on a field whose type is not an entity', 'type R { id: ID! p: P @provides(fields: "name") }\ntype P { id: ID! name: String }', [
    '1:23 Type R; field p: @provides applies to a field whose type is an entity (a type with @key); P is not one',
  ]],
  ['@provides on a scalar', 'type R { id: ID! n: String @provides(fields: "name") }', [
    '1:28 Type R; field n: @provides applies to a field whose type is an entity (a type with @key); String is not one',
  ]],
  ['@provides naming a missing field', 'type R { id: ID! p: P @provides(fields: "name title") }\ntype P @key(fields: "id") { id: ID! name: String }', [
    '1:23 Type R; field p: @provides(fields:) names title, but type P has no field title',
  ]],
  ['@requires on a type that is not extended', 'type P { id: ID! price: Int x: Int @requires(fields: "price") @lambda }', [
    '1:36 Type P; field x: @requires is allowed only on fields of extended types (`@extends` or `extend type`)',
  ]],
  ['@requires naming fields that are missing or not @external',
    'type P @key(fields: "id") @extends {\n  id: ID! @external\n  price: Int\n  x: Int @requires(fields: "price weight") @lambda\n}', [
    '4:10 Type P; field x: @requires(fields:) names price, which is not @external',
    '4:10 Type P; field x: @requires(fields:) names weight, but type P has no field weight',
  ]],
  ['@key and @extends on an interface', 'interface Node @key(fields: "id") @extends { id: ID! }', [
    '1:16 Type Node: @key is not allowed on an interface (allowed there: @auth, @generate, @secret, @dgraph, @withSubscription, @lambdaOnMutate)',
    '1:35 Type Node: @extends is not allowed on an interface (allowed there: @auth, @generate, @secret, @dgraph, @withSubscription, @lambdaOnMutate)',
  ]],
  // @auth
  ['@auth rule that is not GraphQL', 'type P @auth(query: { rule: "query { queryP { " }) { id: ID! }', [
    '1:29 Type P: @auth query: the rule is not a valid GraphQL query: Syntax Error: Expected Name, found <EOF>.',
  ]],
  ['@auth unknown operation', 'type P @auth(read: { rule: "query { queryP { id } }" }) { id: ID! }', [
    '1:8 Type P: @auth needs at least one of query, add, update, delete, password',
    '1:14 Type P: @auth has no argument "read" (known: query, add, update, delete, password)',
  ]],
  ['@auth rule object with two keys', 'type P @auth(query: { rule: "query { queryP { id } }", not: { rule: "query { queryP { id } }" } }) { id: ID! }', [
    '1:21 Type P: @auth query: a rule object holds exactly one of rule, and, or, not; found 2',
  ]],
  ['@auth unknown rule key and empty and', 'type P @auth(query: { and: [] }, add: { password: "x" }) { id: ID! }', [
    '1:28 Type P: @auth query: "and" needs at least one rule',
    '1:41 Type P: @auth add: unknown rule key "password" (known: rule, and, or, not)',
  ]],
  ['@auth without arguments', 'type P @auth { id: ID! }', ['1:8 Type P: @auth needs at least one of query, add, update, delete, password']],
  ['@auth rule that is not a string', 'type P @auth(query: { rule: 42 }) { id: ID! }', [
    '1:29 Type P: @auth query: "rule" must be a string holding a GraphQL query, found 42',
  ]],
];

describe('bad schemas', () => {
  it.each(cases)('%s', (_, source, expected) => {
    expect(errorLines(source)).toEqual(expected);
  });
});

describe('one upload, many errors', () => {
  it('reports every error of the schema together, in text order', () => {
    const source = `type Task @key(fields: "id title") {
  id: ID!
  title: String! @search(by: [int])
  owner: Person
  user: User @hasInverse(field: todos)
}

type User {
  id: ID!
  other: ID!
  name: String @external
}

type TaskFilter { id: ID! }
# Acme.Authorization {"Header":"X"}
`;
    expect(errorLines(source)).toEqual([
      '1:11 Type Task: @key(fields: "id title"): only one key field is supported',
      '3:31 Type Task; field title: @search(by: [int]) does not apply to String (allowed: hash, exact, regexp, term, fulltext, ngram, trigram)',
      '4:10 Type Task; field owner: unknown type Person',
      '5:14 Type Task; field user: @hasInverse(field: todos): type User has no field todos',
      '9:3,10:3 Type User: more than one ID field (id, other); a type can have only one',
      '11:16 Type User; field name: @external is allowed only on extended types (`@extends` or `extend type`)',
      '14:6 Type TaskFilter: the name clashes with TaskFilter, which the generated API declares for type Task',
      '15:1 Authorization line: unknown authorization marker # Acme.Authorization (use # Autograph.Authorization or # Dgraph.Authorization)',
    ]);
  });
});
