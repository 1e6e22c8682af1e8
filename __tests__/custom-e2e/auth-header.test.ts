import jwt from 'jsonwebtoken';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/** Lambdas receive the schema's configured auth header as `authHeader: { key, value }`, as in Dgraph. */

const SECRET = 'a-shared-secret-long-enough-for-hs256';
const SCHEMA = `
type Query {
  whoSent: String @lambda
}
# Autograph.Authorization {"VerificationKey":"${SECRET}","Header":"X-Auth-Token","Namespace":"https://example.com/claims","Algo":"HS256","Audience":["app"]}
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, `self.addGraphQLResolvers({
    'Query.whoSent': ({ authHeader }) => authHeader ? authHeader.key + '=' + authHeader.value.length + ' chars' : 'no header',
  });`);
});

afterAll(() => server.close());

test('the configured header reaches the lambda with its name and value', async () => {
  const token = jwt.sign({ 'https://example.com/claims': { USER: 'ada' } }, SECRET, { algorithm: 'HS256', audience: 'app' });
  const { body } = await gql(server.url, `{ whoSent }`, undefined, { 'X-Auth-Token': token });
  expect(body).toEqual({ data: { whoSent: `X-Auth-Token=${token.length} chars` } });
});

test('without the header the lambda gets no authHeader', async () => {
  const { body } = await gql(server.url, `{ whoSent }`);
  expect(body).toEqual({ data: { whoSent: 'no header' } });
});
