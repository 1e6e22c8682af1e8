import { gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 14, bug 1: in `_entities`, the values the gateway sends for `@external` fields win over copies
 * stored here, and a `@requires` lambda computes from the sent values.
 */

const SCHEMA = `
type Product @key(fields: "id") {
  id: ID!
  createdBy: User @provides(fields: "name totalProductsCreated yearsOfEmployment")
}

extend type User @key(fields: "email") {
  email: String! @id @external
  name: String @external
  totalProductsCreated: Int @external
  yearsOfEmployment: Int! @external
  averageProductsCreatedPerYear: Int @requires(fields: "totalProductsCreated yearsOfEmployment") @lambda
  nickname: String
}
`;

const SCRIPT = `
self.addGraphQLResolvers({
  'User.averageProductsCreatedPerYear': ({ parent }) =>
    Math.round(parent.totalProductsCreated / parent.yearsOfEmployment),
});
`;

const ENTITIES = `query($representations: [_Any!]!) {
  _entities(representations: $representations) {
    ... on User { email name totalProductsCreated yearsOfEmployment averageProductsCreatedPerYear nickname }
  }
}`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ initialSchema: SCHEMA, initialLambda: SCRIPT });
  // An old copy of the owner's data, kept here for the @provides of Product.createdBy.
  await gqlData(server.url, `mutation {
    addUser(input: [{ email: "support@apollographql.com", name: "Jane Old", totalProductsCreated: 1337, yearsOfEmployment: 1, nickname: "jj" }]) { numUids }
  }`);
});

afterAll(() => server.close());

test('the sent @external values win over the stored copy, and the @requires lambda computes from them', async () => {
  const { _entities } = await gqlData(server.url, ENTITIES, {
    representations: [{ __typename: 'User', email: 'support@apollographql.com', totalProductsCreated: 10, yearsOfEmployment: 10 }],
  });
  expect(_entities).toEqual([{
    email: 'support@apollographql.com',
    // Not sent by the gateway: the stored copy answers.
    name: 'Jane Old',
    totalProductsCreated: 10,
    yearsOfEmployment: 10,
    averageProductsCreatedPerYear: 1,
    nickname: 'jj',
  }]);
});

test('a sent null also wins over the stored copy', async () => {
  const { _entities } = await gqlData(server.url, ENTITIES, {
    representations: [{ __typename: 'User', email: 'support@apollographql.com', name: null, totalProductsCreated: 30, yearsOfEmployment: 3 }],
  });
  expect(_entities[0]).toMatchObject({ name: null, totalProductsCreated: 30, averageProductsCreatedPerYear: 10 });
});

test('the stored copy itself is unchanged by what a representation carried', async () => {
  const { body } = await gql(server.url, '{ getUser(email: "support@apollographql.com") { totalProductsCreated yearsOfEmployment } }');
  expect(body).toEqual({ data: { getUser: { totalProductsCreated: 1337, yearsOfEmployment: 1 } } });
});
