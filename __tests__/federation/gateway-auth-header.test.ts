import { startGateway } from '../../gateway-demo/gateway';
import { startHeaderForwardingGateway } from '../../gateway-demo/header-forwarding';
import { startOwnerService, type RunningService } from '../../gateway-demo/owner';
import { authorizationLine, tokenFor } from '../auth/keys';
import { gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 14: `@auth` through `@apollo/gateway`. The gateway forwards no client header by itself, so
 * Autograph sees an anonymous caller; with `RemoteGraphQLDataSource.willSendRequest` copying the token
 * header, Autograph applies the caller's rules, on root queries and on `_entities` paths alike.
 */

const HEADER = 'X-Auth-Token';

const SCHEMA = `
type Mission @key(fields: "id") @auth(
  query: { rule: """query($USER: String!) { queryMission(filter: { owner: { eq: $USER } }) { id } }""" }
) {
  id: ID!
  owner: String! @search(by: [hash])
  designation: String! @search(by: [hash])
  crew: [Astronaut]
}

extend type Astronaut @key(fields: "id") {
  id: ID! @external
  missions: [Mission] @hasInverse(field: crew)
}

${authorizationLine({ header: HEADER })}
`;

let owner: RunningService;
let autograph: TestServer;
let plainGateway: RunningService;
let forwardingGateway: RunningService;

async function post(url: string, query: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: response.status, body: await response.json() };
}

const asUser = (user: string) => ({ [HEADER]: `Bearer ${tokenFor({ USER: user })}` });

beforeAll(async () => {
  [owner, autograph] = await Promise.all([startOwnerService(0), startTestServer({ initialSchema: SCHEMA })]);
  const { createAstronaut } = (await post(owner.url, 'mutation { createAstronaut(name: "Sally Ride") { id } }')).body.data;
  await gqlData(autograph.url, `mutation($id: ID!) {
    addMission(input: [
      { owner: "alice", designation: "STS-7", crew: [{ id: $id }] },
      { owner: "bob", designation: "STS-41-G", crew: [{ id: $id }] }
    ]) { numUids }
  }`, { id: createAstronaut.id });
  const subgraphs = [{ name: 'astronauts', url: owner.url }, { name: 'missions', url: `${autograph.url}/graphql` }];
  plainGateway = await startGateway(subgraphs);
  forwardingGateway = await startHeaderForwardingGateway(subgraphs, [HEADER]);
});

afterAll(async () => {
  await forwardingGateway?.close();
  await plainGateway?.close();
  await autograph?.close();
  await owner?.close();
});

test('a gateway that forwards no header makes every caller anonymous: the rule matches nothing', async () => {
  const { status, body } = await post(plainGateway.url, '{ queryMission { designation } }', asUser('alice'));
  expect(status).toBe(200);
  expect(body).toEqual({ data: { queryMission: [] } });
});

test('with willSendRequest forwarding the header, each caller sees the missions the rule allows', async () => {
  expect((await post(forwardingGateway.url, '{ queryMission { designation } }', asUser('alice'))).body)
    .toEqual({ data: { queryMission: [{ designation: 'STS-7' }] } });
  expect((await post(forwardingGateway.url, '{ queryMission { designation } }', asUser('bob'))).body)
    .toEqual({ data: { queryMission: [{ designation: 'STS-41-G' }] } });
  expect((await post(forwardingGateway.url, '{ queryMission { designation } }')).body)
    .toEqual({ data: { queryMission: [] } });
});

test('the rule also applies on the _entities path, from the owner\'s type into Autograph', async () => {
  const query = '{ astronauts { name missions { designation } } }';
  expect((await post(forwardingGateway.url, query, asUser('bob'))).body)
    .toEqual({ data: { astronauts: [{ name: 'Sally Ride', missions: [{ designation: 'STS-41-G' }] }] } });
  expect((await post(plainGateway.url, query, asUser('bob'))).body)
    .toEqual({ data: { astronauts: [{ name: 'Sally Ride', missions: [] }] } });
});

test('a forwarded invalid token is refused by Autograph (HTTP 401, UNAUTHENTICATED), which the gateway passes on', async () => {
  const { body } = await post(forwardingGateway.url, '{ queryMission { designation } }', { [HEADER]: 'Bearer not-a-token' });
  expect(body.data).toEqual({ queryMission: null });
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  expect(body.errors[0].extensions.response).toMatchObject({
    status: 401,
    body: { errors: [{ message: `invalid token in header ${HEADER}: jwt malformed`, extensions: { code: 'UNAUTHENTICATED' } }] },
  });
});
