import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Apollo's inline trace (`ftv1`), which a gateway or router asks of a subgraph with a header: the answer
 * then carries the trace of the fields it resolved; without the header, no trace is made or sent.
 */
const SCHEMA = `type Task @key(fields: "id") {
  id: ID!
  title: String! @search(by: [hash])
}
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, SCHEMA);
  await gql(server.url, 'mutation { addTask(input: [{ title: "traced" }]) { numUids } }');
});

afterAll(async () => {
  await server?.close();
});

const QUERY = '{ queryTask(filter: { title: { eq: "traced" } }) { title } }';

describe('the inline trace', () => {
  it('is sent as extensions.ftv1 when the request asks for it, naming the resolved fields', async () => {
    const answer = await gql(server.url, QUERY, undefined, { 'apollo-federation-include-trace': 'ftv1' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ queryTask: [{ title: 'traced' }] });
    const ftv1 = (answer.body.extensions as { ftv1?: unknown } | undefined)?.ftv1;
    expect(typeof ftv1).toBe('string');
    expect(ftv1).toMatch(/^[A-Za-z0-9+/]+=*$/);
    // The trace is a protobuf message whose nodes hold the response names of the fields as text.
    const trace = Buffer.from(ftv1 as string, 'base64').toString('latin1');
    expect(trace).toContain('queryTask');
    expect(trace).toContain('title');
  });

  it('is not made for a request that does not ask for it, or asks for another format', async () => {
    const plain = await gql(server.url, QUERY);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ data: { queryTask: [{ title: 'traced' }] } });
    const other = await gql(server.url, QUERY, undefined, { 'apollo-federation-include-trace': 'ftv2' });
    expect(other.body).toEqual({ data: { queryTask: [{ title: 'traced' }] } });
  });
});
