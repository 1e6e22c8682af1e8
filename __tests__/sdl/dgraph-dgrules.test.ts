import { errorLines, fieldOf, typeOf, validModel } from './helpers.js';

/**
 * Issue 13 (dgrules): the schema rules Dgraph applies, checked against Dgraph's own test data
 * (graphql/schema/gqlschema_test.yml and testdata/schemagen). Refusals: rule → source → every error as
 * `line:column message`; the message carries Dgraph's wording where Dgraph has one.
 */
const refusals: Array<[rule: string, source: string, expected: string[]]> = [
  ['trigram and regexp together on a String', 'type X {\n  y: String @search(by: [trigram, regexp])\n}', [
    "2:21 Type X; field y: the argument to @search 'trigram' is the same as the index 'regexp' provided before and shouldn't be used together",
  ]],
  ['trigram and regexp together on an enum, in either order', 'enum E { A }\ntype T {\n  f: E @search(by: [regexp, trigram])\n}', [
    "3:16 Type T; field f: the argument to @search 'trigram' is the same as the index 'regexp' provided before and shouldn't be used together",
  ]],
  ['several DateTime indexes', 'type X {\n  y: DateTime @search(by: [hour, month])\n}', [
    '2:23 Type X; field y: has the search directive on DateTime. DateTime allows only one argument for @search (found hour, month)',
  ]],
  ['@search on an @external field that is not a key', 'extend type Product @key(fields: "id") {\n  id: ID! @external\n  name: String! @search @external\n  reviews: [String]\n}', [
    '3:17 Type Product; field name: @search directive can not be defined on @external fields that are not @key',
  ]],
  ['a field inherited from two interfaces with different types', 'interface X {\n  id: ID!\n}\ninterface Y {\n  id: ID\n}\ntype Z implements X & Y {\n  name: String\n}', [
    '7:6 Type Z; field id: is of type ID in interface Y and is of type ID! in interface X',
  ]],
  ['two interfaces giving one field different scalar types', 'interface X { code: String }\ninterface Y { code: Int }\ntype Z implements X & Y { name: String }', [
    '1:15,2:15 Field Z.code can only be defined once.',
  ]],
  ['@custom url path argument that can be null', 'type Author { id: ID! name: String }\ntype Query {\n  author(id: ID): Author @custom(http: { url: "http://api.example/authors/$id", method: GET })\n}', [
    '3:47 Type Query; field author: url path inside @custom directive uses an argument id that can be null',
  ]],
  ['@custom url path argument that can be null, on a field of a type', 'type Author {\n  id: ID!\n  bio(lang: String): String @custom(http: { url: "http://api.example/bio/$lang/$id", method: GET })\n}', [
    '3:50 Type Author; field bio: url path inside @custom directive uses an argument lang that can be null',
  ]],
  ['mode on a Query field', 'type Query {\n  ping: String @custom(http: { url: "http://api.example/", method: GET, mode: SINGLE })\n}', [
    "2:73 Type Query; field ping: mode field inside @custom directive can't be present on Query/Mutation",
  ]],
  ['@custom body naming a field that is not a scalar', 'type Note { test: String! }\ntype Author {\n  id: ID!\n  name: String! @id\n  foo: Note\n  yo: String! @custom(http: { url: "http://api.example", method: POST, body: "{ id: $id, abc: $foo }" })\n}', [
    '6:78 Type Author; field yo: @custom directive, body template must use scalar fields, found field `foo` of type `Note`',
  ]],
  ['@id(interface:) on a field the type declares itself', 'type Person {\n  name: String! @id(interface: true)\n  age: Int\n}', [
    '2:17 Type Person; field name: @id field with interface argument can only be defined in interface, not in Type',
  ]],
  ['@id(interface:) that is not a Boolean', 'interface Member {\n  refID: String! @id(interface: "yes")\n}', [
    '2:33 Type Member; field refID: @id(interface:) must be true or false, found "yes"',
  ]],
  ['a reserved argument name', 'type T {\n  f(first: Int): String\n}', [
    "2:5 Type T; field f: can't have first as an argument because it is a reserved argument",
  ]],
  ['arguments on a stored relation', 'type T {\n  id: ID!\n  next(depth: Int): T\n}', [
    '3:8 Type T; field next: a stored relation takes only its generated arguments (filter, order, first, offset); declare none',
  ]],
  ['arguments on a field a @key names', 'type Product @key(fields: "sku") {\n  id: ID!\n  sku(format: String): String! @id\n}', [
    '3:7 Type Product; field sku: a field named by @key cannot take arguments',
  ]],
  ['an input type as the type of a field', 'input Range { min: Int }\ntype T {\n  id: ID!\n  range: Range\n}', [
    '4:10 Type T; field range: Range is an input type; it can be the type of an argument, not of a field',
  ]],
  ['an input type holding an object type', 'type T { id: ID! }\ninput Wrong {\n  t: T\n}\ntype Query { q(w: Wrong): String @lambda }', [
    "3:6 Type Wrong; field t: T is not a scalar, enum or input type; an input type's fields take those only",
  ]],
  ['an input type field of an unknown type, with a default and a directive', 'input I {\n  a: Nope\n  b: Int = 3\n  c: String @search\n}', [
    '2:6 Type I; field a: unknown type Nope',
    '3:12 Type I; field b: default values are not supported',
    '4:13 Type I; field c: @search is not allowed on a field of an input type',
  ]],
  ['an input type named like a generated one', 'type Task { id: ID! }\ninput TaskFilter { x: Int }', [
    '2:7 Type TaskFilter: the name clashes with TaskFilter, which the generated API declares for type Task',
  ]],
  ['input types referencing themselves through required fields', 'input A {\n  b: B!\n  self: [A!]!\n}\ninput B {\n  a: A!\n}\ninput C {\n  c: C!\n  d: C\n}', [
    '1:7 Type A: cannot reference itself through required fields (A.b → B.a)',
    '8:7 Type C: cannot reference itself through required fields (C.c)',
  ]],
  ['an input type without fields', 'input Empty\ntype Query { q(e: Empty): String @lambda }', [
    '1:7 Type Empty: an input type needs at least one field',
  ]],
  ['a directive used without a definition is still unknown', 'directive @mine on FIELD_DEFINITION\ntype T { id: ID! f: String @other }', [
    '2:28 Type T; field f: @other is not a supported directive (allowed on a field: @id, @search, @hasInverse, @external, @provides, @requires, @lambda, @custom, @deprecated, @default, @dgraph)',
  ]],
];

describe('schemas Dgraph refuses are refused with line:column and the rule', () => {
  it.each(refusals)('%s', (_rule, source, expected) => {
    expect(errorLines(source)).toEqual(expected);
  });
});

describe('schemas Dgraph accepts, read as Dgraph reads them', () => {
  it('reads @search(by: []) as a bare @search: the default index of the type', () => {
    const model = validModel('enum PostType { Fact Question }\ntype X {\n  id: ID!\n  s: String @search(by: [])\n  i: Int @search(by: [])\n  d: DateTime @search(by: [])\n  e: PostType @search(by: [])\n}');
    expect(['s', 'i', 'd', 'e'].map((name) => fieldOf(model, 'X', name).search)).toEqual([['term'], ['int'], ['year'], ['hash']]);
  });

  it('pairs @hasInverse declared on the concrete side of a relation to an interface exactly as when the interface declares it', () => {
    const interfaceTail = '\ntype Question implements Post { answered: Boolean }\ntype Answer implements Post { markedUseful: Boolean }';
    const concreteSide = validModel(`type Author {\n  id: ID!\n  posts: [Post] @hasInverse(field: author)\n}\ninterface Post {\n  id: ID!\n  author: Author!\n}${interfaceTail}`);
    const interfaceSide = validModel(`type Author {\n  id: ID!\n  posts: [Post]\n}\ninterface Post {\n  id: ID!\n  author: Author! @hasInverse(field: posts)\n}${interfaceTail}`);
    const relation = (model: typeof concreteSide, typeName: string, field: string) => {
      const { inverse, storedHere } = fieldOf(model, typeName, field);
      return { inverse, storedHere };
    };
    for (const [typeName, field] of [['Author', 'posts'], ['Post', 'author'], ['Question', 'author'], ['Answer', 'author']] as const) {
      expect(relation(concreteSide, typeName, field)).toEqual(relation(interfaceSide, typeName, field));
    }
    expect(relation(concreteSide, 'Author', 'posts')).toEqual({ inverse: { type: 'Post', field: 'author' }, storedHere: false });
    expect(relation(concreteSide, 'Question', 'author')).toEqual({ inverse: { type: 'Author', field: 'posts' }, storedHere: true });
  });

  it('reads @id(interface: true) as unique across the implementing types, @id(interface: false) and @id as unique per type', () => {
    const model = validModel('interface LibraryItem {\n  refID: String! @id(interface: false)\n  itemID: String! @id(interface: true)\n  code: Int @id\n}\ntype Book implements LibraryItem { title: String }\ntype Magazine implements LibraryItem { issue: Int }');
    for (const typeName of ['LibraryItem', 'Book', 'Magazine']) {
      expect(fieldOf(model, typeName, 'itemID')).toMatchObject({ isUniqueId: true, uniqueAcrossInterface: 'LibraryItem' });
      expect(fieldOf(model, typeName, 'refID').isUniqueId).toBe(true);
      expect(fieldOf(model, typeName, 'refID').uniqueAcrossInterface).toBeUndefined();
      expect(fieldOf(model, typeName, 'code').uniqueAcrossInterface).toBeUndefined();
    }
  });

  it('keeps arguments of stored scalar fields (type-with-arguments-on-field)', () => {
    const model = validModel('interface Abstract {\n  id: ID!\n  name(random: Int!, size: String): String!\n}\ntype Message implements Abstract {\n  content(pick: Int!, name: String): String!\n  author: String\n}');
    expect(fieldOf(model, 'Message', 'name').args).toEqual([
      { name: 'random', typeText: 'Int!', namedType: 'Int' },
      { name: 'size', typeText: 'String', namedType: 'String' },
    ]);
    expect(fieldOf(model, 'Message', 'content')).toMatchObject({ lambda: false, args: [{ name: 'pick', typeText: 'Int!' }, { name: 'name', typeText: 'String' }] });
  });

  it('ignores directive definitions and the uses of the directives they define (ignore-unsupported-directive)', () => {
    const model = validModel('enum Role { Admin @unknown1 User }\ntype Query @unknown1 { ping: String @lambda }\ndirective @unknown1(r: Role = User) on OBJECT | FIELD_DEFINITION\ndirective @unknown2(r: Role = User, b: Role = User) on FIELD_DEFINITION\ntype Product @unknown1 {\n  id: ID!\n  price: Float! @search @unknown1(r: Admin) @unknown2(r: User, b: Admin)\n  name: String! @unknown1(r: Admin) @search @unknown2\n  tagged(lang: String @unknown1): String @lambda\n}');
    expect(fieldOf(model, 'Product', 'price').search).toEqual(['float']);
    expect(fieldOf(model, 'Product', 'name').search).toEqual(['term']);
    expect(typeOf(model, 'Product').keys).toEqual([]);
  });

  it('keeps the built-in meaning of a directive the schema also defines', () => {
    const model = validModel('directive @search(by: [String]) on FIELD_DEFINITION\ntype P { id: ID! name: String @search(by: [hash]) }');
    expect(fieldOf(model, 'P', 'name').search).toEqual(['hash']);
  });

  it('reads input types with their fields, descriptions and nesting', () => {
    const model = validModel('enum Level { LOW HIGH }\n"Where to look."\ninput Area {\n  "Inclusive."\n  from: Int!\n  to: Int\n}\ninput Search {\n  text: String!\n  areas: [Area!]\n  level: Level\n}\ntype Hit { id: ID! title: String }\ntype Query {\n  find(search: Search!, limit: Int): [Hit] @lambda\n}');
    expect([...model.inputs!.values()]).toEqual([
      { name: 'Area', description: 'Where to look.', loc: { line: 3, column: 7 }, fields: [
        { name: 'from', typeText: 'Int!', namedType: 'Int', description: 'Inclusive.' },
        { name: 'to', typeText: 'Int', namedType: 'Int' },
      ] },
      { name: 'Search', loc: { line: 8, column: 7 }, fields: [
        { name: 'text', typeText: 'String!', namedType: 'String' },
        { name: 'areas', typeText: '[Area!]', namedType: 'Area' },
        { name: 'level', typeText: 'Level', namedType: 'Level' },
      ] },
    ]);
    expect(model.customQueries[0]!.args).toEqual([
      { name: 'search', typeText: 'Search!', namedType: 'Search' },
      { name: 'limit', typeText: 'Int', namedType: 'Int' },
    ]);
  });
});
