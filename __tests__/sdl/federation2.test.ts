import { errorLines, fieldOf, typeOf, validModel } from './helpers.js';

/** Federation 2 in sdl/: the `@link` opt-in, imports and renames, keys as a list, and the marks. */

const link = (version: string, imports: string): string =>
  `extend schema @link(url: "https://specs.apollo.dev/federation/${version}", import: [${imports}])\n`;

describe('the @link opt-in', () => {
  test('no federation @link: Federation 1', () => {
    const model = validModel('type A @key(fields: "id") { id: ID! }');
    expect(model.federation).toEqual({ version: 1, composedDirectives: [] });
  });

  test('a federation @link: Federation 2 with the spec URL as linked', () => {
    const model = validModel(`${link('v2.3', '"@key"')}type A @key(fields: "id") { id: ID! }`);
    expect(model.federation).toEqual({ version: 2, specUrl: 'https://specs.apollo.dev/federation/v2.3', composedDirectives: [] });
  });

  const readings: Array<[string, string, string]> = [
    ['an import', link('v2.0', '"@key", "@shareable"'), 'type A @key(fields: "id") @shareable { id: ID! }'],
    ['a renamed import', link('v2.0', '"@key", { name: "@shareable", as: "@shared" }'), 'type A @key(fields: "id") @shared { id: ID! }'],
    ['the federation__ namespace', link('v2.0', '"@key"'), 'type A @key(fields: "id") @federation__shareable { id: ID! }'],
    ['a namespace set by as:', 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.0", as: "fed", import: ["@key"])\n', 'type A @key(fields: "id") @fed__shareable { id: ID! }'],
  ];
  test.each(readings)('%s reads as the standard directive', (_name, head, body) => {
    expect(typeOf(validModel(head + body), 'A').marks).toEqual({ shareable: true, inaccessible: false, tags: [], composed: [] });
  });

  const errors: Array<[string, string, string[]]> = [
    ['a URL that is not a federation spec', 'extend schema @link(url: "https://example.com/other/v1.0", import: ["@x"])\ntype A { id: ID! }', [
      '1:15 extend schema: @link(url: "https://example.com/other/v1.0") is not a federation spec; Federation 2 is opted into with @link(url: "https://specs.apollo.dev/federation/v2.9", import: [...])',
    ]],
    ['federation v1 by URL', 'extend schema @link(url: "https://specs.apollo.dev/federation/v1.0")\ntype A { id: ID! }', [
      '1:15 extend schema: @link(url: "https://specs.apollo.dev/federation/v1.0") is not a federation spec; Federation 2 is opted into with @link(url: "https://specs.apollo.dev/federation/v2.9", import: [...])',
    ]],
    ['a version past the supported ones', `${link('v2.10', '"@key"')}type A { id: ID! }`, [
      '1:15 extend schema: @link(url: "https://specs.apollo.dev/federation/v2.10"): federation v2.10 is not supported (supported: v2.0 to v2.9)',
    ]],
    ['url missing', 'extend schema @link(import: ["@key"])\ntype A { id: ID! }', ['1:15 extend schema: @link needs the argument "url"']],
    ['linked twice', `${link('v2.0', '"@key"')}${link('v2.3', '"@tag"')}type A { id: ID! }`, ['2:15 extend schema: the federation spec is linked more than once']],
    ['an unknown import', `${link('v2.3', '"@key", "@nope"')}type A { id: ID! }`, ['1:15 extend schema: @link(import:) imports @nope, which is not a federation directive']],
    ['an unsupported federation directive', `${link('v2.5', '"@authenticated"')}type A { id: ID! }`, [
      '1:15 extend schema: @link(import:) imports @authenticated, which Autograph does not support',
    ]],
    ['a directive newer than the linked version', `${link('v2.1', '"@interfaceObject"')}type A { id: ID! }`, [
      '1:15 extend schema: @link(import:) imports @interfaceObject, which needs federation v2.3 or later (linked: v2.1)',
    ]],
    ['a rename without @', `${link('v2.0', '{ name: "@key", as: "primaryKey" }')}type A { id: ID! }`, [
      '1:79 extend schema: @link(import:) renames the directive @key to "primaryKey"; a directive\'s new name starts with "@"',
    ]],
    ['a rename onto an Autograph directive', `${link('v2.0', '{ name: "@tag", as: "@search" }')}type A { id: ID! }`, [
      '1:79 extend schema: @link(import:) renames @tag to @search, a directive Autograph defines',
    ]],
    ['a type that cannot be imported', `${link('v2.0', '"Scope"')}type A { id: ID! }`, [
      '1:79 extend schema: @link(import:) imports "Scope", which is not an importable type (known: FieldSet)',
    ]],
    ['the standard name of a renamed import', `${link('v2.0', '{ name: "@key", as: "@id2" }')}type A @key(fields: "id") { id: ID! }`, [
      '2:8 Type A: @key is imported as @id2; write @id2',
    ]],
    ['a directive not imported', `${link('v2.0', '"@key"')}type A { id: ID! name: String @inaccessible }`, [
      '2:31 Type A; field name: @inaccessible is not imported by @link; add "@inaccessible" to its import list or write @federation__inaccessible',
    ]],
    ['root operation types', 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.0") { query: Q }\ntype Q { id: ID! }', [
      '1:72 extend schema: root operation types cannot be set; the root types are always Query and Mutation',
    ]],
    ['@composeDirective without Federation 2', 'extend schema @composeDirective(name: "@x")\ntype A { id: ID! }', [
      '1:15 extend schema: @composeDirective needs Federation 2: link https://specs.apollo.dev/federation/v2.x first',
    ]],
  ];
  test.each(errors)('%s', (_name, source, expected) => {
    expect(errorLines(source)).toEqual(expected);
  });
});

describe('keys in Federation 2', () => {
  const head = link('v2.3', '"@key", "@external", "@interfaceObject"');

  test('repeatable, composite, nested and not resolvable; the identity key is the first one-field ID key', () => {
    const model = validModel(`${head}type Product @key(fields: "sku package") @key(fields: "id") @key(fields: "sku variation { id }") @key(fields: "code", resolvable: false) {
  id: ID!
  sku: String
  package: String
  code: String
  variation: Variation
}
type Variation { id: ID! }`);
    const product = typeOf(model, 'Product');
    expect(product.key).toBe('id');
    expect(product.keys).toEqual([
      { fields: 'sku package', selection: [{ name: 'sku' }, { name: 'package' }], resolvable: true },
      { fields: 'id', selection: [{ name: 'id' }], resolvable: true },
      { fields: 'sku variation { id }', selection: [{ name: 'sku' }, { name: 'variation', selections: [{ name: 'id' }] }], resolvable: true },
      { fields: 'code', selection: [{ name: 'code' }], resolvable: false },
    ]);
  });

  test('a type with only a composite key has no identity key but is an entity', () => {
    const model = validModel(`${head}type Deprecated @key(fields: "sku package") { sku: String! package: String! reason: String }`);
    expect(typeOf(model, 'Deprecated').key).toBeUndefined();
    expect(typeOf(model, 'Deprecated').keys).toEqual([{ fields: 'sku package', selection: [{ name: 'sku' }, { name: 'package' }], resolvable: true }]);
  });

  test('@interfaceObject: an entity owned elsewhere, printed without @extends', () => {
    const model = validModel(`${head}type Inventory @interfaceObject @key(fields: "id") { id: ID! count: Int }`);
    expect(typeOf(model, 'Inventory')).toMatchObject({ key: 'id', extended: true, marks: { interfaceObject: true } });
  });

  const errors: Array<[string, string, string[]]> = [
    ['a missing field', 'type A @key(fields: "id nope") { id: ID! }', ['2:8 Type A: @key(fields: "id nope"): the type has no field nope']],
    ['a list field', 'type A @key(fields: "tags") { id: ID! tags: [String] }', ['2:8 Type A: @key(fields: "tags"): tags is a list ([String]); key fields hold one value']],
    ['a relation without a selection', 'type A @key(fields: "b") { id: ID! b: B }\ntype B { id: ID! }', [
      '2:8 Type A: @key(fields: "b"): b is a relation to B; select its ID field (b { id })',
    ]],
    ['a relation selecting another field', 'type A @key(fields: "b { name }") { id: ID! b: B }\ntype B { id: ID! name: String }', [
      '2:8 Type A: @key(fields: "b { name }"): b { ... } may select only the ID field of B (id)',
    ]],
    ['a selection inside a scalar', 'type A @key(fields: "name { x }") { id: ID! name: String }', [
      '2:8 Type A: @key(fields: "name { x }"): name is a String, which has no fields to select',
    ]],
    ['arguments in a key', 'type A @key(fields: "name(x: 1)") { id: ID! name: String }', [
      '2:21 Type A: @key(fields: "name(x: 1)") passes arguments to name',
    ]],
    ['an extended type without an identity key', 'extend type A @key(fields: "sku") { sku: String @external n: Int }', [
      '2:15 Type A: @key(fields: "sku"): sku is @external, so this service cannot find objects by it; declare the key with resolvable: false',
      '2:15 Type A: a type owned by another service needs a @key of one field that is its ID or an @id field: that value identifies its objects here',
    ]],
    ['@interfaceObject without a key', 'type I @interfaceObject { id: ID! }', [
      '2:8 Type I: @interfaceObject needs @key(fields: "...") naming the field that identifies the interface\'s objects',
    ]],
    ['a key declared twice', 'type A @key(fields: "id") @key(fields: "id") { id: ID! }', ['2:27 Type A: @key(fields: "id"): the key is declared twice']],
    ['resolvable not a boolean', 'type A @key(fields: "id", resolvable: "no") { id: ID! }', [
      '2:39 Type A: @key(resolvable:) must be true or false, found "no"',
    ]],
    ['@external on a plain type', 'type A @key(fields: "id") { id: ID! n: Int @external }', [
      '2:44 Type A; field n: @external is allowed only on extended types (`@extends` or `extend type`); in Federation 2 too, a type whose objects another service creates is declared that way',
    ]],
    ['an @external field nothing uses', 'extend type A @key(fields: "id") { id: ID! @external n: Int @external }', [
      '2:61 Type A; field n: @external, but no @key, @requires or @provides uses it; remove the field or the directive',
    ]],
  ];
  test.each(errors)('%s', (_name, body, expected) => {
    expect(errorLines(head + body)).toEqual(expected);
  });
});

describe('marks', () => {
  const head = link('v2.7', '"@key", "@shareable", "@inaccessible", "@tag", "@override", "@provides", "@requires", "@external"');

  test('are read on types and fields, @tag repeated, @override with its label', () => {
    const model = validModel(`${head}type A @key(fields: "id") @tag(name: "a") @tag(name: "b") @shareable {
  id: ID!
  name: String @override(from: "old", label: "percent(25)") @inaccessible
  open: String @shareable @tag(name: "public")
}
type Query { hello: String @lambda @shareable }`);
    expect(typeOf(model, 'A').marks).toEqual({ shareable: true, inaccessible: false, tags: ['a', 'b'], composed: [] });
    expect(fieldOf(model, 'A', 'name').marks).toEqual({
      shareable: false, inaccessible: true, tags: [], composed: [], override: { from: 'old', label: 'percent(25)' },
    });
    expect(fieldOf(model, 'A', 'open').marks).toEqual({ shareable: true, inaccessible: false, tags: ['public'], composed: [] });
    expect(model.customQueries[0]!.marks).toEqual({ shareable: true, inaccessible: false, tags: [], composed: [] });
  });

  test('@requires and @provides take nested selections in Federation 2', () => {
    const model = validModel(`${head}type Review @key(fields: "id") { id: ID! product: Product @provides(fields: "dimensions { size }") }
extend type Product @key(fields: "id") {
  id: ID! @external
  dimensions: Dimension @external
  delivery: String @requires(fields: "dimensions { size weight }") @lambda
}
type Dimension { id: ID! size: String weight: Float }`);
    expect(fieldOf(model, 'Product', 'delivery')).toMatchObject({ requires: ['dimensions'], requiresSelection: 'dimensions { size weight }' });
    expect(fieldOf(model, 'Review', 'product')).toMatchObject({ provides: ['dimensions'], providesSelection: 'dimensions { size }' });
  });

  const errors: Array<[string, string, string[]]> = [
    ['@tag without a name', 'type A { id: ID! @tag }', ['2:18 Type A; field id: @tag needs the argument "name"']],
    ['@override without from', 'type A { id: ID! n: Int @override }', ['2:25 Type A; field n: @override needs the argument "from"']],
    ['@override with a label that is not one', 'type A { id: ID! n: Int @override(from: "x", label: "percent(150)") }', [
      '2:53 Type A; field n: @override(label:) must be "percent(N)" with N from 0 to 100, or a name, found "percent(150)"',
    ]],
    ['@shareable with an argument', 'type A @shareable(x: 1) { id: ID! }', ['2:19 Type A: @shareable has no argument "x" (it takes no arguments)']],
    ['@override on a type', 'type A @override(from: "x") { id: ID! }', [
      '2:8 Type A: @override is not allowed on a type (allowed there: @key, @extends, @auth, @generate, @secret, @dgraph, @withSubscription, @lambdaOnMutate, @shareable, @inaccessible, @tag, @interfaceObject)',
    ]],
    ['a field returning an @inaccessible type', 'type A { id: ID! b: B }\ntype B @inaccessible { id: ID! }', [
      '2:18 Type A; field b: its type B is @inaccessible, so the field must be @inaccessible too',
    ]],
  ];
  test.each(errors)('%s', (_name, body, expected) => {
    expect(errorLines(head + body)).toEqual(expected);
  });
});

describe('@composeDirective', () => {
  const head = `extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@composeDirective"])
  @link(url: "https://myspecs.dev/myCustomDirective/v1.0", import: ["@custom"])
  @composeDirective(name: "@custom")
`;

  test('a composed directive is kept on types and fields as written', () => {
    const model = validModel(`${head}directive @custom(level: Int) on OBJECT | FIELD_DEFINITION
type A @custom(level: 2) @key(fields: "id") { id: ID! name: String @custom }`);
    expect(model.federation.composedDirectives).toEqual([
      { name: 'custom', linkUrl: 'https://myspecs.dev/myCustomDirective/v1.0', definition: 'directive @custom(level: Int) on OBJECT | FIELD_DEFINITION',
        locations: ['OBJECT', 'FIELD_DEFINITION'] },
    ]);
    expect(typeOf(model, 'A').marks?.composed).toEqual(['@custom(level: 2)']);
    expect(fieldOf(model, 'A', 'name').marks?.composed).toEqual(['@custom']);
  });

  const errors: Array<[string, string, string[]]> = [
    ['no definition', 'type A { id: ID! }', ['4:27 extend schema: @composeDirective(name: "@custom"): the schema needs its definition (directive @custom on ...)']],
    ['a location Autograph does not carry', 'directive @custom on ENUM\ntype A { id: ID! }', [
      '5:1 Directive @custom: a composed directive may apply to OBJECT, INTERFACE, FIELD_DEFINITION only, not ENUM',
    ]],
    ['used where its definition does not allow it', 'directive @custom on OBJECT\ntype A { id: ID! @custom }', [
      '6:18 Type A; field id: @custom is not allowed on a field (its definition does not list FIELD_DEFINITION)',
    ]],
    ['a definition of a directive that is not composed', 'directive @custom on OBJECT\ndirective @other on OBJECT\ntype A { id: ID! }', [
      '6:1 Directive @other: a directive definition is allowed only for a directive composed with @composeDirective(name: "@other")',
    ]],
  ];
  test.each(errors)('%s', (_name, body, expected) => {
    expect(errorLines(head + body)).toEqual(expected);
  });

  test('a composed directive must come from a @link of its own', () => {
    const source = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@composeDirective"]) @composeDirective(name: "@custom")
directive @custom on OBJECT
type A { id: ID! }`;
    expect(errorLines(source)).toEqual([
      '1:133 extend schema: @composeDirective(name: "@custom"): @custom must be imported by a @link to its own spec',
    ]);
  });
});
