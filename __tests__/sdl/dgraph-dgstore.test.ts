import { storedNameOf, writtenNameOf } from '../../src/sdl/storage-names.js';
import { errorLines, fieldOf, typeOf, validModel } from './helpers.js';

/** `@secret`, `@default` and `@dgraph(type:, pred:)` as the schema reader takes them (Dgraph's rules, our locations). */

describe('storedNameOf: Dgraph names as safe MongoDB field names, one to one', () => {
  const cases: Array<[written: string, stored: string]> = [
    ['label', 'label'],
    ['Post.title', 'Post%2Etitle'],
    ['dgraph.type', 'dgraph%2Etype'],
    ['$price', '%24price'],
    ['100%', '100%25'],
    ['a%2Eb', 'a%252Eb'],
  ];
  it.each(cases)('%s → %s and back', (written, stored) => {
    expect(storedNameOf(written)).toBe(stored);
    expect(writtenNameOf(stored)).toBe(written);
  });
});

describe('accepted: what the model records', () => {
  it('@dgraph(type:) names the collection, @dgraph(pred:) the stored field', () => {
    const model = validModel('type Post @dgraph(type: "Article") {\n  id: ID!\n  title: String @dgraph(pred: "Post.title")\n  label: String @dgraph(pred: "label")\n}');
    expect(typeOf(model, 'Post').storedName).toBe('Article');
    expect(fieldOf(model, 'Post', 'title').storedName).toBe('Post%2Etitle');
    expect(fieldOf(model, 'Post', 'label').storedName).toBeUndefined();
  });

  it('a predicate in DQL\'s angle brackets names the same stored field', () => {
    const model = validModel('type A {\n  id: ID!\n  bs: [B] @dgraph(pred: "<A.bs>")\n}\ntype B {\n  id: ID!\n  xs: [A] @dgraph(pred: "<~A.bs>")\n}');
    expect(fieldOf(model, 'A', 'bs')).toMatchObject({ storedName: 'A%2Ebs', storedHere: true });
    expect(fieldOf(model, 'B', 'xs')).toMatchObject({ reversePredicate: 'A.bs', storedHere: false, inverse: { type: 'A', field: 'bs' } });
  });

  it('a reverse predicate makes the derived side of the forward edge', () => {
    const model = validModel([
      'type Movie {\n  id: ID!\n  name: String!\n  director: [MovieDirector] @dgraph(pred: "~directed.movies")\n}',
      'type MovieDirector {\n  id: ID!\n  name: String!\n  directed: [Movie] @dgraph(pred: "directed.movies")\n}',
    ].join('\n'));
    expect(fieldOf(model, 'Movie', 'director')).toMatchObject({ storedHere: false, inverse: { type: 'MovieDirector', field: 'directed' }, reversePredicate: 'directed.movies' });
    expect(fieldOf(model, 'MovieDirector', 'directed')).toMatchObject({ storedHere: true, inverse: { type: 'Movie', field: 'director' }, storedName: 'directed%2Emovies' });
  });

  it('Dgraph\'s reverse edges with interfaces (dgraph-reverse-directive-with-interfaces.graphql and its concrete-type twin)', () => {
    const onInterface = validModel([
      'interface Movie {\n  id: ID!\n  name: String!\n  director: [Director] @dgraph(pred: "~directed.movies")\n}',
      'type OscarMovie implements Movie {\n  year: Int!\n}',
      'type Director {\n  id: ID!\n  name: String!\n  directed: [OscarMovie] @dgraph(pred: "directed.movies")\n}',
    ].join('\n'));
    expect(fieldOf(onInterface, 'OscarMovie', 'director')).toMatchObject({ storedHere: false, inverse: { type: 'Director', field: 'directed' } });
    expect(fieldOf(onInterface, 'Movie', 'director')).toMatchObject({ storedHere: false, inverse: { type: 'Director', field: 'directed' } });
    expect(fieldOf(onInterface, 'Director', 'directed')).toMatchObject({ storedHere: true, inverse: { type: 'OscarMovie', field: 'director' } });

    const onConcrete = validModel([
      'interface Movie {\n  id: ID!\n  name: String!\n  director: [Director] @dgraph(pred: "directed.movies")\n}',
      'type OscarMovie implements Movie {\n  year: Int!\n}',
      'type Director {\n  id: ID!\n  name: String!\n  directed: [OscarMovie] @dgraph(pred: "~directed.movies")\n}',
    ].join('\n'));
    expect(fieldOf(onConcrete, 'Director', 'directed')).toMatchObject({ storedHere: false, inverse: { type: 'OscarMovie', field: 'director' } });
    expect(fieldOf(onConcrete, 'OscarMovie', 'director')).toMatchObject({ storedHere: true, storedName: 'directed%2Emovies', inverse: { type: 'Director', field: 'directed' } });
  });

  it('an interface field keeps its stored name in the implementing types', () => {
    const model = validModel('interface Named {\n  name: String @dgraph(pred: "Named.name")\n}\ntype Person implements Named {\n  id: ID!\n  age: Int\n}');
    expect(fieldOf(model, 'Person', 'name').storedName).toBe('Named%2Ename');
  });

  it('@default values per action; $now on DateTime; enum values', () => {
    const model = validModel([
      'enum Status { OPEN DONE }',
      'type Task {\n  id: ID!\n  title: String!\n  status: Status! @default(add: {value: "OPEN"})\n  created: DateTime @default(add: {value: "$now"})\n  updated: DateTime! @default(add: {value: "$now"}, update: {value: "$now"})\n  votes: Int @default(add: {value: "0"})\n  score: Float @default(update: {value: "1.5"})\n  done: Boolean @default(add: {value: "false"})\n}',
    ].join('\n'));
    expect(fieldOf(model, 'Task', 'status').defaults).toEqual({ add: 'OPEN' });
    expect(fieldOf(model, 'Task', 'updated').defaults).toEqual({ add: '$now', update: '$now' });
    expect(fieldOf(model, 'Task', 'score').defaults).toEqual({ update: '1.5' });
    expect(fieldOf(model, 'Task', 'title').defaults).toBeUndefined();
  });

  it('@secret on a type, with pred; an interface secret passes to its types', () => {
    const model = validModel([
      'type Author @secret(field: "pwd", pred: "Author.pwd") {\n  name: String! @id\n  token: String\n}',
      'interface Character @secret(field: "password") {\n  id: ID!\n  name: String!\n}',
      'type Human implements Character {\n  credits: Int\n}',
    ].join('\n'));
    expect(typeOf(model, 'Author').secret).toEqual({ name: 'pwd', storedName: 'Author%2Epwd' });
    expect(typeOf(model, 'Human').secret).toEqual({ name: 'password', storedName: 'password' });
    expect(typeOf(model, 'Author').fieldsByName.has('pwd')).toBe(false);
  });

  it('@auth takes a password rule', () => {
    const model = validModel('type User @secret(field: "password") @auth(password: { rule: "{$ROLE: { eq: \\"USER\\" }}" }) {\n  username: String! @id\n}\n# Autograph.Authorization {"VerificationKey":"secret","Header":"X-Auth","Namespace":"https://x","Algo":"HS256"}');
    expect(typeOf(model, 'User').auth?.password).toEqual({ rule: '{$ROLE: { eq: "USER" }}' });
  });
});

/** Refused schemas → `line:column message`, one row per rule. */
const refusals: Array<[rule: string, source: string, expected: string[]]> = [
  ['@default on a relation', 'type A { id: ID! b: B @default(add: {value: "1"}) }\ntype B { id: ID! }', [
    '1:23 Type A; field b: cannot use @default directive on field with non-scalar type B',
  ]],
  ['@default on a list', 'type A { id: ID! tags: [String] @default(add: {value: "1"}) }', [
    '1:33 Type A; field tags: cannot use @default directive on field with list type [String]',
  ]],
  ['@default on @id', 'type A { code: String! @id @default(add: {value: "x"}) }', [
    '1:28 Type A; field code: cannot use @default directive on field with @id directive',
  ]],
  ['@default on the ID', 'type A { id: ID! @default(add: {value: "x"}) name: String }', [
    '1:18 Type A; field id: cannot use @default directive on field with type ID',
  ]],
  ['@default on @lambda', 'type A { id: ID! n: String @lambda @default(add: {value: "x"}) }', [
    '1:36 Type A; field n: cannot use @default directive on field with @lambda directive',
  ]],
  ['$now on a String', 'type X { id: ID! field: String @default(add: {value: "$now"}) }', [
    '1:46 Type X; field field: @default directive provides value "$now" which cannot be used with String',
  ]],
  ['Int value', 'type X { id: ID! field: Int @default(add: {value: "apple"}) }', [
    '1:43 Type X; field field: @default directive provides value "apple" which cannot be used with Int',
  ]],
  ['Float value', 'type X { id: ID! field: Float @default(update: {value: "apple"}) }', [
    '1:48 Type X; field field: @default directive provides value "apple" which cannot be used with Float',
  ]],
  ['Boolean value', 'type X { id: ID! field: Boolean @default(add: {value: "yes"}) }', [
    '1:47 Type X; field field: @default directive provides value "yes" which cannot be used with Boolean',
  ]],
  ['enum value', 'enum S { A }\ntype X { id: ID! s: S @default(add: {value: "B"}) }', [
    '2:37 Type X; field s: @default directive provides value "B" which cannot be used with S (not a value of enum S)',
  ]],
  ['@default without value object', 'type X { id: ID! n: Int @default(add: "1") }', [
    '1:39 Type X; field n: @default(add:) must be an object like {value: "..."}, found "1"',
  ]],
  ['@dgraph(pred:) on the ID', 'type X { id: ID! @dgraph(pred: "uid") n: Int }', [
    "1:18 Type X; field id: @dgraph(pred:) cannot stand on the ID field: its value is the object's identity (stored as _id)",
  ]],
  ['@dgraph(pred:) empty', 'type X { id: ID! n: Int @dgraph(pred: "") }', ['1:39 Type X; field n: @dgraph(pred:) should not be empty']],
  ['@dgraph(pred:) reserved', 'type X { id: ID! n: Int @dgraph(pred: "_id") }', [
    '1:25 Type X; field n: @dgraph(pred: "_id"): names starting with "_" are reserved for the service\'s own stored fields',
  ]],
  ['@dgraph(pred:) language tag on an Int', 'type X { id: ID! n: Int @dgraph(pred: "name@en") }', [
    '1:18 Type X; field n: Expected type `String` for language tag field but got `Int`',
  ]],
  ['two fields under one stored name', 'type X { id: ID! a: Int b: Int @dgraph(pred: "a") }', [
    '1:32 Type X; field b: is stored under "a", as is field a; each field needs its own stored name',
  ]],
  ['two types in one collection', 'type A { id: ID! }\ntype B @dgraph(type: "A") { id: ID! }', [
    '2:8 Type B: is stored in the collection "A", which type A already uses',
  ]],
  ['reserved collection', 'type A @dgraph(type: "_autograph_schema") { id: ID! }', [
    '1:8 Type A: @dgraph(type: "_autograph_schema"): names starting with "_" are reserved for the service\'s own collections',
  ]],
  ['reverse edge without a forward edge', 'type A { id: ID! bs: [B] @dgraph(pred: "~a.bs") }\ntype B { id: ID! }', [
    "1:26 Type A; field bs: pred argument: ~a.bs is not supported as forward edge doesn't exist for type B",
  ]],
  ['reverse edge on a single field', 'type A { id: ID! b: B @dgraph(pred: "~xs") }\ntype B { id: ID! xs: [A] }', [
    '1:23 Type A; field b: with a @dgraph(pred:) starting with ~ should be of type list ([B])',
  ]],
  ['reverse edge with @hasInverse', 'type A { id: ID! bs: [B] @dgraph(pred: "~xs") @hasInverse(field: xs) }\ntype B { id: ID! xs: [A] }', [
    '1:26 Type A; field bs: @hasInverse is not allowed when the pred argument of @dgraph starts with a ~',
  ]],
  ['@secret naming a field', 'type A @secret(field: "name") { id: ID! name: String }', [
    '1:8 Type A: has a @secret directive and a field of the same name name',
  ]],
  ['@secret stored over a field', 'type A @secret(field: "pwd", pred: "name") { id: ID! name: String }', [
    '1:8 Type A: @secret is stored under "name", as is field name; give it another pred',
  ]],
  ['@secret without field', 'type A @secret(pred: "p") { id: ID! }', ['1:8 Type A: @secret needs the argument "field"']],
];

describe('refused', () => {
  it.each(refusals)('%s', (_rule, source, expected) => {
    expect(errorLines(source)).toEqual(expected);
  });
});
