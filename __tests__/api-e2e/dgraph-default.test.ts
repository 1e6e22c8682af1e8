/**
 * `@default(add:, update:)` over HTTP, on both backends: an add takes the add values its input leaves out,
 * an update's `set` the update values (`"$now"`: the mutation's time), and `AddTInput` makes a field with
 * an add default optional.
 */
import { activateSchema, gql, gqlData } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCHEMA = `
enum Status { OPEN DONE }
type Ticket {
  id: ID!
  title: String! @search(by: [hash])
  status: Status! @default(add: {value: "OPEN"})
  votes: Int @default(add: {value: "0"})
  weight: Float @default(add: {value: "1.5"})
  urgent: Boolean! @default(add: {value: "false"})
  created: DateTime @default(add: {value: "$now"})
  updated: DateTime @default(add: {value: "$now"}, update: {value: "$now"})
  due: DateTime @default(add: {value: "2030-01-31"})
  reviewed: Boolean @default(update: {value: "false"})
  notes: [Note]
}
type Note {
  id: ID!
  text: String!
  kind: String! @default(add: {value: "plain"})
}
`;

const FIELDS = 'title status votes weight urgent created updated due reviewed';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
});

afterAll(() => server.close());

const iso = (value: unknown): number => Date.parse(String(value));

test('an add takes every add default its input leaves out; $now is the time of the mutation', async () => {
  const before = Date.now();
  const { addTicket } = await gqlData(server.url, `mutation { addTicket(input: [{ title: "first" }]) { ticket { ${FIELDS} } } }`);
  const after = Date.now();
  const [ticket] = addTicket.ticket;
  expect(ticket).toMatchObject({ title: 'first', status: 'OPEN', votes: 0, weight: 1.5, urgent: false, reviewed: null });
  expect(iso(ticket.due)).toBe(Date.parse('2030-01-31T00:00:00Z'));
  expect(iso(ticket.created)).toBeGreaterThanOrEqual(before - 1000);
  expect(iso(ticket.created)).toBeLessThanOrEqual(after + 1000);
  expect(ticket.updated).toBe(ticket.created);
});

test('given values win over defaults; a null in an add takes the default', async () => {
  const { addTicket } = await gqlData(server.url,
    'mutation { addTicket(input: [{ title: "second", status: DONE, votes: 7, urgent: true, created: "2020-05-01T10:00:00Z", weight: null }]) { ticket { title status votes urgent created weight } } }');
  expect(addTicket.ticket[0]).toMatchObject({ title: 'second', status: 'DONE', votes: 7, urgent: true, weight: 1.5 });
  expect(iso(addTicket.ticket[0].created)).toBe(Date.parse('2020-05-01T10:00:00Z'));
});

test('nested objects created by an add take their own add defaults', async () => {
  const { addTicket } = await gqlData(server.url, 'mutation { addTicket(input: [{ title: "third", notes: [{ text: "n1" }, { text: "n2", kind: "rich" }] }]) { ticket { notes(order: { asc: text }) { text kind } } } }');
  expect(addTicket.ticket[0].notes).toEqual([{ text: 'n1', kind: 'plain' }, { text: 'n2', kind: 'rich' }]);
});

test('an update with set takes the update defaults (not the add ones); an explicit null still removes', async () => {
  const startedAt = Date.now();
  const { updateTicket } = await gqlData(server.url,
    'mutation { updateTicket(input: { filter: { title: { eq: "second" } }, set: { votes: 8 } }) { ticket { votes status reviewed created updated } } }');
  const [ticket] = updateTicket.ticket;
  expect(ticket).toMatchObject({ votes: 8, status: 'DONE', reviewed: false });
  expect(iso(ticket.created)).toBe(Date.parse('2020-05-01T10:00:00Z'));
  expect(iso(ticket.updated)).toBeGreaterThanOrEqual(startedAt - 1000);

  const { updateTicket: removed } = await gqlData(server.url,
    'mutation { updateTicket(input: { filter: { title: { eq: "second" } }, set: { reviewed: null, votes: 9 } }) { ticket { votes reviewed } } }');
  expect(removed.ticket[0]).toEqual({ votes: 9, reviewed: null });
});

test('an update with only remove writes no defaults', async () => {
  await gqlData(server.url, 'mutation { updateTicket(input: { filter: { title: { eq: "first" } }, remove: { votes: 0 } }) { numUids } }');
  const { queryTicket } = await gqlData(server.url, '{ queryTicket(filter: { title: { eq: "first" } }) { votes reviewed } }');
  expect(queryTicket).toEqual([{ votes: null, reviewed: null }]);
});

test('AddTicketInput: a non-null field with an add default is optional, one without stays required', async () => {
  const typeOf = async (input: string, field: string) => {
    const { __type } = await gqlData(server.url, `{ __type(name: "${input}") { inputFields { name type { kind name ofType { name } } } } }`);
    return __type.inputFields.find((candidate: { name: string }) => candidate.name === field).type;
  };
  expect(await typeOf('AddTicketInput', 'status')).toEqual({ kind: 'ENUM', name: 'Status', ofType: null });
  expect(await typeOf('AddTicketInput', 'urgent')).toEqual({ kind: 'SCALAR', name: 'Boolean', ofType: null });
  expect(await typeOf('AddTicketInput', 'title')).toEqual({ kind: 'NON_NULL', name: null, ofType: { name: 'String' } });
  const { body } = await gql(server.url, 'mutation { addTicket(input: [{ status: OPEN }]) { numUids } }');
  expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
});
