import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/**
 * Dgraph completes what custom logic answers like stored data: a list with no value is `[]`
 * (`field.NullValue()` in graphql/schema/wrappers.go, applied by `CompleteObject` to `@custom`/`@lambda`
 * results too). A failing resolver still answers `null` with its error (README "Different from Dgraph").
 */
const SCHEMA = `
type Item {
  id: ID!
  name: String!
  tags: [String]
  parts: [Item]
  labels: [String] @lambda
}
type Query {
  names: [String] @lambda
  requiredNames: [String!]! @lambda
  madeUp: Item @lambda
  broken: [String] @lambda
}
`;

const SCRIPT = `
self.addGraphQLResolvers({
  'Item.labels': () => null,
  'Query.names': () => null,
  'Query.requiredNames': () => undefined,
  'Query.madeUp': () => ({ name: 'made up' }),
  'Query.broken': () => { throw new Error('kaboom'); },
});
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, SCRIPT);
  await gql(server.url, `mutation { addItem(input: [{ name: "stored" }]) { numUids } }`);
});

afterAll(() => server.close());

test('lists custom logic leaves without a value answer [], in its answers and on stored objects', async () => {
  const { body } = await gql(server.url, `{ names requiredNames madeUp { name tags parts { id } labels } queryItem { name labels } }`);
  expect(body).toEqual({
    data: {
      names: [],
      requiredNames: [],
      madeUp: { name: 'made up', tags: [], parts: [], labels: [] },
      queryItem: [{ name: 'stored', labels: [] }],
    },
  });
});

test('a list whose resolver fails is null, with its error', async () => {
  const { body } = await gql(server.url, `{ broken }`);
  expect(body.data).toEqual({ broken: null });
  expect(body.errors?.map((error) => error.extensions?.code)).toEqual(['LAMBDA_FAILED']);
});
