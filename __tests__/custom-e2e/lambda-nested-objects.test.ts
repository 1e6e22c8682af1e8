import { countRoundTrips } from '../../src/store/counting';
import { gql, gqlData } from '../helpers/gql';
import { startCountingTestServer, type TestServer } from '../helpers/server';

/**
 * A `@lambda` answering nested objects for a stored relation of the type it returns: each nested object is
 * the relation's value. Its own fields answer from it; fields it lacks come from its stored object when it
 * carries its ID (one read per level for all of them); an answered id or list of ids still names stored
 * objects; a value of the wrong shape fails the field with CUSTOM_RESULT_INVALID, naming the field.
 */

const SCHEMA = `
type Product {
  id: ID!
  sku: String! @search(by: [hash])
  name: String
  variation: Variation
  tags: [Tag]
  maker: Maker
}

extend type Maker @key(fields: "email") {
  email: String! @id @external
  name: String @external
  badge: String
}

type Variation {
  id: ID!
  label: String!
  size: Size
}

type Size {
  id: ID!
  name: String!
}

type Tag {
  id: ID!
  name: String!
  products: [Product] @hasInverse(field: tags)
}

type Query {
  productAnswered(sku: String!): Product @lambda
  productsAnswered(skus: [String!]!): [Product] @lambda
  productAnsweringIds(sku: String!): Product @lambda
  productNotStored: Product @lambda
  productWrongVariation(sku: String!): Product @lambda
  productWrongTags(sku: String!): Product @lambda
  productWrongTagItem(sku: String!): Product @lambda
  tagAnswered(sku: String!): Tag @lambda
  productWithMaker: Product @lambda
}
`;

const SCRIPT = `
async function stored(graphql, sku) {
  const answer = await graphql(
    'query($sku: String!) { queryProduct(filter: { sku: { eq: $sku } }) { id sku variation { id } tags(order: { asc: name }) { id } } }',
    { sku },
  );
  return answer.data.queryProduct[0];
}
self.addGraphQLResolvers({
  'Query.productAnswered': async ({ args, graphql }) => {
    const product = await stored(graphql, args.sku);
    return {
      id: product.id,
      sku: product.sku,
      variation: { id: product.variation.id, label: 'answered label' },
      tags: [...product.tags.map((tag) => ({ id: tag.id })), { name: 'answered tag' }],
    };
  },
  'Query.productsAnswered': async ({ args, graphql }) => {
    const products = await Promise.all(args.skus.map((sku) => stored(graphql, sku)));
    return products.map((product) => ({ id: product.id, variation: product.variation && { id: product.variation.id } }));
  },
  'Query.productAnsweringIds': async ({ args, graphql }) => {
    const product = await stored(graphql, args.sku);
    return { id: product.id, variation: product.variation.id, tags: product.tags.map((tag) => tag.id) };
  },
  'Query.productNotStored': () => ({ sku: 'made-up', variation: { label: 'only answered' }, tags: [{ name: 'only answered' }] }),
  'Query.tagAnswered': async ({ args, graphql }) => {
    const product = await stored(graphql, args.sku);
    return { id: product.tags[0].id, products: [{ id: product.id, name: 'answered name' }, { sku: 'not stored' }] };
  },
  'Query.productWithMaker': () => ({ sku: 'made-up', maker: { email: 'maker@example.com' } }),
  'Query.productWrongVariation': async ({ args, graphql }) => ({ id: (await stored(graphql, args.sku)).id, variation: 42 }),
  'Query.productWrongTags': async ({ args, graphql }) => ({ id: (await stored(graphql, args.sku)).id, tags: { name: 'one' } }),
  'Query.productWrongTagItem': async ({ args, graphql }) => ({ id: (await stored(graphql, args.sku)).id, tags: [{ name: 'one' }, 'two', 7] }),
});
`;

let server: TestServer;
let counter: ReturnType<typeof countRoundTrips>['counter'];

beforeAll(async () => {
  ({ server, counter } = await startCountingTestServer({
    initialSchema: SCHEMA,
    initialLambda: SCRIPT,
  }));
  await gqlData(server.url, `mutation {
    addProduct(input: [
      { sku: "p1", name: "One", variation: { label: "stored label", size: { name: "XL" } }, tags: [{ name: "a" }, { name: "b" }] },
      { sku: "p2", name: "Two", variation: { label: "second label" } },
      { sku: "p3", name: "Three" }
    ]) { numUids }
  }`);
});

afterAll(() => server.close());

test('a nested object answers its own fields, and the relations it lacks come from its stored object', async () => {
  expect(await gqlData(server.url, '{ productAnswered(sku: "p1") { sku variation { label size { name } } } }'))
    .toEqual({ productAnswered: { sku: 'p1', variation: { label: 'answered label', size: { name: 'XL' } } } });
});

test('the fields a nested object lacks come from its stored object when it carries its ID', async () => {
  expect(await gqlData(server.url, '{ productsAnswered(skus: ["p1", "p2"]) { variation { id label } } }')).toEqual({
    productsAnswered: [
      { variation: { id: expect.any(String), label: 'stored label' } },
      { variation: { id: expect.any(String), label: 'second label' } },
    ],
  });
});

test('lists of nested objects: answered items with and without IDs, in the answered order', async () => {
  expect(await gqlData(server.url, '{ productAnswered(sku: "p1") { tags { name } tagsAggregate { count } } }'))
    .toEqual({ productAnswered: { tags: [{ name: 'a' }, { name: 'b' }, { name: 'answered tag' }], tagsAggregate: { count: 2 } } });
});

test('nested objects without IDs answer only what they hold, without reading the store', async () => {
  counter.reset();
  expect(await gqlData(server.url, '{ productNotStored { sku variation { label size { name } } tags { name } } }'))
    .toEqual({ productNotStored: { sku: 'made-up', variation: { label: 'only answered', size: null }, tags: [{ name: 'only answered' }] } });
  expect(counter.count).toBe(0);
});

test('the stored objects of one level are read once for all the nested objects lacking fields', async () => {
  counter.reset();
  await gqlData(server.url, '{ productsAnswered(skus: ["p1", "p2", "p3"]) { variation { id } } }');
  const answeredOnly = counter.count;
  counter.reset();
  await gqlData(server.url, '{ productsAnswered(skus: ["p1", "p2", "p3"]) { variation { label } } }');
  expect(counter.count - answeredOnly).toBe(1);
});

test('a relation derived from its inverse answers the answered objects too', async () => {
  expect(await gqlData(server.url, '{ tagAnswered(sku: "p1") { name products { sku name } } }'))
    .toEqual({ tagAnswered: { name: 'a', products: [{ sku: 'p1', name: 'answered name' }, { sku: 'not stored', name: null }] } });
});

test('an extended type\'s nested object gets the fields kept here, never a stored copy of an @external one', async () => {
  await server.store.collection('Maker').insertMany([{ _id: 'maker@example.com', name: 'stale copy', badge: 'gold' }]);
  expect(await gqlData(server.url, '{ productWithMaker { maker { email name badge } } }'))
    .toEqual({ productWithMaker: { maker: { email: 'maker@example.com', name: null, badge: 'gold' } } });
});

test('an answered id, or list of ids, still names the stored objects', async () => {
  expect(await gqlData(server.url, '{ productAnsweringIds(sku: "p1") { variation { label size { name } } tags { name } } }'))
    .toEqual({ productAnsweringIds: { variation: { label: 'stored label', size: { name: 'XL' } }, tags: [{ name: 'a' }, { name: 'b' }] } });
});

test.each([
  ['productWrongVariation', 'variation { label }', 'Query.productWrongVariation: the lambda resolver "Query.productWrongVariation" answered the wrong shape for Product: Product.variation of the value is a number (42), not an object of type Variation or its ID'],
  ['productWrongTags', 'tags { name }', 'Query.productWrongTags: the lambda resolver "Query.productWrongTags" answered the wrong shape for Product: Product.tags of the value is an object, not a list'],
  ['productWrongTagItem', 'tags { name }', 'Query.productWrongTagItem: the lambda resolver "Query.productWrongTagItem" answered the wrong shape for Product: Product.tags of the value: item 2 is a number (7), not an object of type Tag or its ID'],
])('%s: a nested value of the wrong shape fails the field with CUSTOM_RESULT_INVALID', async (field, selection, message) => {
  const { status, body } = await gql(server.url, `{ ${field}(sku: "p1") { sku ${selection} } }`);
  expect(status).toBe(200);
  expect(body.data).toEqual({ [field]: null });
  expect(body.errors).toEqual([expect.objectContaining({ message, path: [field], extensions: expect.objectContaining({ code: 'CUSTOM_RESULT_INVALID' }) })]);
});
