import { activateSchema, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/**
 * Issue 13: DateTime values reach custom logic, and come back from it, in the form Dgraph answers them
 * (RFC 3339, UTC, whole seconds): a lambda sees in `parent` what a client would read.
 */

const SCHEMA = `
type Event {
  id: ID!
  name: String! @search(by: [hash])
  at: DateTime
  also: [DateTime]
  atSeen: String @lambda
  alsoSeen: [String] @lambda
  batchSeen: String @lambda
}

type Query {
  fromLambda: DateTime @lambda
}
`;

const SCRIPT = `
self.addGraphQLResolvers({
  'Event.atSeen': ({ parent }) => parent.at,
  'Event.alsoSeen': ({ parent }) => parent.also,
  'Query.fromLambda': () => new Date('2001-02-03T04:05:06.789Z'),
});
self.addMultiParentGraphQLResolvers({
  'Event.batchSeen': ({ parents }) => parents.map((event) => event.at),
});
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await loadLambda(server.url, SCRIPT);
  await gqlData(server.url, 'mutation { addEvent(input: [{ name: "launch", at: "2000-01-01T00:00:00.250Z", also: ["2000-01-02T03:04:05+01:00", "2000-01-03"] }]) { numUids } }');
});

afterAll(() => server.close());

test('a lambda\'s parent holds DateTimes as the API answers them, single and in lists', async () => {
  const result = await gqlData(server.url, '{ queryEvent { at also atSeen alsoSeen batchSeen } }');
  expect(result.queryEvent).toEqual([{
    at: '2000-01-01T00:00:00Z',
    also: ['2000-01-02T02:04:05Z', '2000-01-03T00:00:00Z'],
    atSeen: '2000-01-01T00:00:00Z',
    alsoSeen: ['2000-01-02T02:04:05Z', '2000-01-03T00:00:00Z'],
    batchSeen: '2000-01-01T00:00:00Z',
  }]);
});

test('a DateTime a lambda returns is answered in the same form', async () => {
  expect(await gqlData(server.url, '{ fromLambda }')).toEqual({ fromLambda: '2001-02-03T04:05:06Z' });
});
