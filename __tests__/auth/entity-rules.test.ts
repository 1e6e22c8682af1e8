import { activateSchema, gql } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizationLine, tokenFor } from './keys.js';

/**
 * `_entities` on an extended type under a query rule: an object the caller may not see is null, and so
 * is one this service holds no document for (the rule cannot vouch for it), where an extended type
 * without a rule answers the key alone.
 */
const RULE = 'query($USER: String!) { queryAstronaut(filter: { owner: { eq: $USER } }) { __typename } }';
const SCHEMA = `
extend type Astronaut @key(fields: "id") @auth(query: { rule: """${RULE}""" }) {
  id: ID! @external
  owner: String @search(by: [hash])
  note: String
}

extend type Planet @key(fields: "id") {
  id: ID! @external
  note: String
}
${authorizationLine({ header: 'X-Auth-Token' })}
`;

const ENTITIES = 'query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Astronaut { id note } ... on Planet { id note } } }';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  const { body } = await gql(server.url, 'mutation { addAstronaut(input: [{ id: "a1", owner: "alice", note: "Alice\'s" }]) { numUids } }', undefined, {
    'X-Auth-Token': tokenFor({ USER: 'alice' }),
  });
  expect(body).toEqual({ data: { addAstronaut: { numUids: 1 } } });
});

afterAll(async () => {
  await server?.close();
});

test.each<[string, Record<string, unknown>, unknown[]]>([
  ['the owner sees the stored astronaut; one without a document is null, not a stub', { USER: 'alice' }, [{ id: 'a1', note: "Alice's" }, null, { id: 'p1', note: null }]],
  ['another user sees neither astronaut', { USER: 'bob' }, [null, null, { id: 'p1', note: null }]],
])('%s', async (_name, claims, entities) => {
  const reps = [{ __typename: 'Astronaut', id: 'a1' }, { __typename: 'Astronaut', id: 'a2' }, { __typename: 'Planet', id: 'p1' }];
  const { status, body } = await gql(server.url, ENTITIES, { reps }, { 'X-Auth-Token': tokenFor(claims) });
  expect(status).toBe(200);
  expect(body).toEqual({ data: { _entities: entities } });
});
