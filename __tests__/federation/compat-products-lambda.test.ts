import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedCompatibilityData } from '../../gateway-demo/compat/seed';
import { buildSchemaModel } from '../../src/sdl/build';
import { gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The compatibility suite's products subgraph (gateway-demo/compat) asked directly: its lambdas answer
 * nested objects for stored relations (`variation: { id }`, `study: { caseNumber, description }`) as the
 * suite's reference implementation does, and the subgraph answers what that implementation answers.
 */

const COMPAT = join(__dirname, '..', '..', 'gateway-demo', 'compat');

let server: TestServer;

beforeAll(async () => {
  const schema = readFileSync(join(COMPAT, 'products-fed2.graphql'), 'utf8');
  server = await startTestServer({ initialSchema: schema, initialLambda: readFileSync(join(COMPAT, 'products-lambda.js'), 'utf8') });
  const { model } = buildSchemaModel(schema);
  await seedCompatibilityData(server.store, model!);
});

afterAll(() => server.close());

test('product(id:) answers its variation and its research study as the reference implementation does', async () => {
  expect(await gqlData(server.url, `{
    federation: product(id: "apollo-federation") { id sku package variation { id } research { outcome study { caseNumber description } } }
    studio: product(id: "apollo-studio") { variation { id } research { study { caseNumber description } } }
  }`)).toEqual({
    federation: {
      id: 'apollo-federation', sku: 'federation', package: '@apollo/federation', variation: { id: 'OSS' },
      research: [{ outcome: null, study: { caseNumber: '1234', description: 'Federation Study' } }],
    },
    studio: { variation: { id: 'platform' }, research: [{ study: { caseNumber: '1235', description: 'Studio Study' } }] },
  });
});

test('a Product entity found by its "sku variation { id }" key answers its research through the lambda', async () => {
  expect(await gqlData(server.url, `{
    _entities(representations: [{ __typename: "Product", sku: "federation", variation: { id: "OSS" } }]) {
      ... on Product { id variation { id } research { study { caseNumber description } } }
    }
  }`)).toEqual({
    _entities: [{ id: 'apollo-federation', variation: { id: 'OSS' }, research: [{ study: { caseNumber: '1234', description: 'Federation Study' } }] }],
  });
});
