import { countRoundTrips } from '../../src/store/counting';
import { activateSchema, gql as request, gqlData, uploadSchema } from '../helpers/gql';
import { startCountingTestServer, startTestServer, type TestServer } from '../helpers/server';
import { CATALOG, composeBoth, USERS_SUBGRAPH } from './fed2-fixtures';

/** Federation 2 over HTTP: `_service { sdl }` as Federation 2 prints it, `_entities` by each key, composition. */

let server: TestServer;
let counter: ReturnType<typeof countRoundTrips>['counter'];
let serviceSdl: string;

const data = <T = any>(query: string, variables?: Record<string, unknown>): Promise<T> => gqlData<T>(server.url, query, variables);

beforeAll(async () => {
  ({ server, counter } = await startCountingTestServer());
  await activateSchema(server.url, CATALOG);
  serviceSdl = (await data('{ _service { sdl } }'))._service.sdl;
});

afterAll(() => server.close());

/** The block of `sdl` that defines `header` (`type Product`), up to its closing brace. */
function block(sdl: string, header: string): string {
  const start = sdl.indexOf(`${header} `);
  if (start < 0) throw new Error(`no ${header} in the SDL`);
  return sdl.slice(start, sdl.indexOf('\n}', start) + 2);
}

describe('_service { sdl } in Federation 2 form', () => {
  test('opens with the federation @link of the schema\'s version, importing the directives it prints', () => {
    expect(serviceSdl.split('\n').slice(0, 2)).toEqual([
      'extend schema',
      '  @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@requires", "@provides", "@external", "@extends", "@shareable", "@inaccessible", "@override", "@tag", "@interfaceObject", "@composeDirective"])',
    ]);
  });

  test('every key, resolvable: false, @tag, @inaccessible, @shareable, @provides; key fields without generated arguments', () => {
    const lines = block(serviceSdl, 'type Product').split('\n');
    expect(lines.slice(0, 10)).toEqual([
      'type Product @key(fields: "id") @key(fields: "sku package") @key(fields: "sku variation { id }") @key(fields: "code", resolvable: false) @tag(name: "catalog") {',
      '  id: ID!',
      '  sku: String',
      '  package: String',
      '  code: String',
      '  variation: ProductVariation',
      '  notes: String @tag(name: "internal")',
      '  cost: Int @inaccessible',
      '  title: String @shareable',
      expect.stringMatching(/^ {2}createdBy(\(filter: UserFilter\))?: User @provides\(fields: "total"\)$/),
    ]);
    expect(lines.slice(10)).toEqual(['}']);
  });

  test('a renamed import (@movedFrom) prints as the standard @override, with its label', () => {
    expect(block(serviceSdl, 'type User')).toBe(`type User @key(fields: "email") @extends {
  email: ID! @external
  name: String @override(from: "users", label: "percent(100)")
  total: Int @external
}`);
  });

  test('generated object types are @shareable; what is generated for an @inaccessible type or field is @inaccessible too', () => {
    expect(block(serviceSdl, 'type AddProductPayload')).toMatch(/^type AddProductPayload @shareable \{/);
    expect(block(serviceSdl, 'type ProductAggregateResult')).toContain('  costSum: Int @inaccessible\n');
    expect(block(serviceSdl, 'enum ProductOrderable')).toContain('  cost @inaccessible\n');
    expect(block(serviceSdl, 'input ProductPatch')).toContain('  cost: Int @inaccessible\n');
    expect(block(serviceSdl, 'type Supplier')).toMatch(/^type Supplier @inaccessible \{/);
    expect(block(serviceSdl, 'input SupplierFilter')).toMatch(/^input SupplierFilter @inaccessible \{/);
    expect(block(serviceSdl, 'type Query')).toContain('  getSupplier(id: ID!): Supplier @inaccessible\n');
    expect(block(serviceSdl, 'type Mutation')).toContain('  addSupplier(input: [AddSupplierInput!]!): AddSupplierPayload @inaccessible\n');
  });

  test('the service\'s own endpoint still serves the @inaccessible parts (they are hidden from the supergraph only)', async () => {
    const added = await data('mutation { addSupplier(input: [{ name: "Acme" }]) { supplier { name } } }');
    expect(added.addSupplier.supplier).toEqual([{ name: 'Acme' }]);
  });
});

describe('composition of the printed SDL', () => {
  const subgraphs = () => [
    { name: 'catalog', url: 'http://127.0.0.1:1/', sdl: serviceSdl },
    { name: 'users', url: 'http://127.0.0.1:2/', sdl: USERS_SUBGRAPH },
  ];

  test('composes with @apollo/composition and @theguild/federation-composition', () => {
    const { apollo, guild } = composeBoth(subgraphs());
    expect(apollo.errors).toEqual([]);
    expect(guild.errors).toEqual([]);
  });

  test.each(['apollo', 'guild'] as const)('%s: @inaccessible types and fields are absent from the supergraph API', (composer) => {
    const apiSdl = composeBoth(subgraphs())[composer].apiSdl!;
    expect(apiSdl).toMatch(/type Product \{/);
    expect(apiSdl).not.toMatch(/\bSupplier\b/);
    expect(apiSdl).not.toMatch(/\bcost(Min|Max|Sum|Avg)?\b/);
    expect(apiSdl).toMatch(/\btitle: String\b/);
  });

  test.each(['apollo', 'guild'] as const)('%s: @override moves User.name to this subgraph, with its label', (composer) => {
    const supergraph = composeBoth(subgraphs())[composer].supergraphSdl!;
    expect(supergraph).toMatch(/\n\s+name: String\s+@join__field\(graph: CATALOG, override: "users", overrideLabel: "percent\(100\)"\)/);
  });

  test('without the @override the two subgraphs conflict over User.name (the directive is what composes)', () => {
    const withoutOverride = serviceSdl.replace(' @override(from: "users", label: "percent(100)")', '');
    const { apollo } = composeBoth([{ name: 'catalog', url: 'http://127.0.0.1:1/', sdl: withoutOverride }, { name: 'users', url: 'http://127.0.0.1:2/', sdl: USERS_SUBGRAPH }]);
    expect(apollo.errors).toEqual([expect.stringContaining('Non-shareable field "User.name" is resolved from multiple subgraphs')]);
  });
});

describe('_entities resolves by any declared key', () => {
  let ids: { product: string; other: string; variation: string };

  beforeAll(async () => {
    const { addProductVariation } = await data('mutation { addProductVariation(input: [{ name: "blue" }]) { productVariation { id } } }');
    const variation = addProductVariation.productVariation[0].id as string;
    const { addProduct } = await data(`mutation($variation: ID!) {
      addProduct(input: [
        { sku: "federation", package: "@apollo/federation", code: "F1", variation: { id: $variation }, title: "Federation" },
        { sku: "federation", package: "@apollo/gateway", code: "G1", title: "Gateway" }
      ]) { product(order: { asc: package }) { id } }
    }`, { variation });
    ids = { product: addProduct.product[0].id, other: addProduct.product[1].id, variation };
  });

  const ENTITIES = `query($representations: [_Any!]!) {
    _entities(representations: $representations) { ... on Product { id title variation { id name } } }
  }`;

  test('by id, by the composite key and by the nested key, one store query per key', async () => {
    counter.reset();
    const { _entities } = await data(ENTITIES, {
      representations: [
        { __typename: 'Product', id: ids.other },
        { __typename: 'Product', sku: 'federation', package: '@apollo/federation' },
        { __typename: 'Product', sku: 'federation', variation: { id: ids.variation } },
        { __typename: 'Product', sku: 'federation', package: '@apollo/gateway' },
        { __typename: 'Product', sku: 'federation', package: 'no-such-package' },
        { __typename: 'Product', sku: 'federation', variation: { id: 'no-such-variation' } },
      ],
    });
    const federation = { id: ids.product, title: 'Federation', variation: { id: ids.variation, name: 'blue' } };
    expect(_entities).toEqual([
      { id: ids.other, title: 'Gateway', variation: null },
      federation,
      federation,
      { id: ids.other, title: 'Gateway', variation: null },
      null,
      null,
    ]);
    // Products by id, by "sku package", by "sku variation { id }" (one query per key, not per representation:
    // six representations), then the variations of the products found: one batch, or two when the key
    // queries answer in different ticks, as they can over the network (the MongoDB wire project).
    expect(Object.keys(counter.byOperation)).toEqual(['find']);
    expect(counter.byOperation.find).toBeGreaterThanOrEqual(4);
    expect(counter.byOperation.find).toBeLessThanOrEqual(5);
  });

  test('a key declared resolvable: false is not used to find objects', async () => {
    const { body } = await request(server.url, ENTITIES, { representations: [{ __typename: 'Product', code: 'F1' }] });
    expect(body.data).toEqual({ _entities: [null] });
    expect(body.errors).toEqual([expect.objectContaining({
      message: 'representation of Product carries the fields of none of its keys ("id", "sku package", "sku variation { id }")',
      path: ['_entities', 0],
      extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    })]);
  });

  test('an extended type resolves by its key with empty local fields when nothing is stored here', async () => {
    const { _entities } = await data(`{ _entities(representations: [{ __typename: "User", email: "ada@example.com" }]) { ... on User { email name } } }`);
    expect(_entities).toEqual([{ email: 'ada@example.com', name: null }]);
  });
});

describe('Federation 2 schema errors over HTTP', () => {
  const cases: Array<[string, string, string, number, number]> = [
    [
      'a federation version no composer reads',
      'extend schema @link(url: "https://specs.apollo.dev/federation/v2.99", import: ["@key"])\ntype A { id: ID! }',
      'extend schema: @link(url: "https://specs.apollo.dev/federation/v2.99"): federation v2.99 is not supported (supported: v2.0 to v2.9)', 1, 15,
    ],
    [
      'a federation directive used without its import',
      'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])\ntype A @key(fields: "id") @shareable { id: ID! }',
      'Type A: @shareable is not imported by @link; add "@shareable" to its import list or write @federation__shareable', 2, 27,
    ],
    [
      'a Federation 2 directive in a Federation 1 schema',
      'type A @key(fields: "id") @shareable { id: ID! }',
      'Type A: @shareable needs Federation 2: opt in with extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@shareable"])', 1, 27,
    ],
    [
      '@override(label:) before v2.7',
      'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@override"])\ntype A @key(fields: "id") { id: ID! name: String @override(from: "x", label: "percent(5)") }',
      'Type A; field name: @override(label:) needs federation v2.7 or later (linked: v2.3)', 2, 71,
    ],
  ];
  test.each(cases)('%s', async (_name, schema, message, line, column) => {
    const { status, body } = await uploadSchema(server.url, schema);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ message, locations: [{ line, column }], extensions: { code: 'BAD_SCHEMA' } }]);
  });
});

describe('@composeDirective and @interfaceObject', () => {
  const SCHEMA = `extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@interfaceObject", "@composeDirective"])
  @link(url: "https://myspecs.dev/myCustomDirective/v1.0", import: ["@custom"])
  @composeDirective(name: "@custom")

directive @custom(level: Int) on OBJECT | FIELD_DEFINITION

type Report @custom(level: 2) @key(fields: "id") {
  id: ID!
  title: String @custom
}

type Inventory @interfaceObject @key(fields: "id") {
  id: ID!
  reports: [Report]
}
`;
  let other: TestServer;
  let sdl: string;

  beforeAll(async () => {
    other = await startTestServer();
    await activateSchema(other.url, SCHEMA);
    sdl = (await gqlData(other.url, '{ _service { sdl } }'))._service.sdl;
  });
  afterAll(() => other.close());

  test('the SDL links the custom spec, composes the directive, defines it and keeps its uses', () => {
    expect(sdl.split('\n').slice(0, 5)).toEqual([
      'extend schema',
      '  @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@requires", "@provides", "@external", "@extends", "@shareable", "@inaccessible", "@override", "@tag", "@interfaceObject", "@composeDirective"])',
      '  @link(url: "https://myspecs.dev/myCustomDirective/v1.0", import: ["@custom"])',
      '  @composeDirective(name: "@custom")',
      '',
    ]);
    expect(sdl).toContain('\ndirective @custom(level: Int) on OBJECT | FIELD_DEFINITION\n');
    expect(block(sdl, 'type Report')).toMatch(/^type Report @key\(fields: "id"\) @custom\(level: 2\) \{\n {2}id: ID!\n {2}title: String @custom\n/);
  });

  test('an @interfaceObject prints without @extends and resolves an id it does not store, with empty local fields', async () => {
    expect(block(sdl, 'type Inventory')).toMatch(/^type Inventory @key\(fields: "id"\) @interfaceObject \{/);
    const { _entities } = await gqlData(other.url, `{ _entities(representations: [{ __typename: "Inventory", id: "apollo-oss" }]) { ... on Inventory { id reports { title } } } }`);
    expect(_entities).toEqual([{ id: 'apollo-oss', reports: [] }]);
  });

  test('a stored @interfaceObject is added under the id the other subgraph gave it', async () => {
    await gqlData(other.url, 'mutation { addInventory(input: [{ id: "apollo-oss", reports: [{ title: "Q3" }] }]) { numUids } }');
    const { _entities } = await gqlData(other.url, `{ _entities(representations: [{ __typename: "Inventory", id: "apollo-oss" }]) { ... on Inventory { id reports { title } } } }`);
    expect(_entities).toEqual([{ id: 'apollo-oss', reports: [{ title: 'Q3' }] }]);
  });
});
