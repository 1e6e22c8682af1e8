import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/**
 * Issue 13 (dgrules): user-declared `input` types, as Dgraph accepts them, through the real service. The
 * values a client gives reach a lambda (`args`) and a `@custom(http:)` body template as the objects the
 * client wrote (variables and literals alike); the input types are part of the API and of `_service`.
 * Also Dgraph's `@custom(http:)` GET with a body.
 */

interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
}

let remote: Server;
let remoteBase: string;
const received: Received[] = [];

beforeAll(async () => {
  remote = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request = { method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body: text ? JSON.parse(text) : undefined };
      received.push(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (request.path === '/books/search') {
        const { query } = request.body as { query: { words: string[]; range?: { from: number; to: number } } };
        return res.end(JSON.stringify([{ id: 'b1', title: `${query.words.join('+')} from ${query.range?.from ?? '-'}` }]));
      }
      res.end(JSON.stringify({ id: 'b9', title: `found ${JSON.stringify(request.body)}` }));
    });
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  remoteBase = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterAll(async () => {
  remote.closeAllConnections();
  await new Promise((resolve) => remote.close(resolve));
});

function schema(base: string): string {
  return `
enum Shelf { FICTION SCIENCE }

"Years, both ends included."
input YearRange {
  from: Int!
  to: Int!
}

input BookQuery {
  words: [String!]!
  range: YearRange
  shelf: Shelf
}

type Book {
  id: ID!
  title: String! @search(by: [hash])
  year: Int @search
  related(query: BookQuery): [String] @lambda
}

type Query {
  booksLike(query: BookQuery!): [Book] @lambda
  searchRemote(query: BookQuery!): [Book] @custom(http: { url: "${base}/books/search", method: POST, body: "{ query: $query }" })
  lookupRemote(id: ID!, shelf: Shelf): Book @custom(http: { url: "${base}/books/lookup", method: GET, body: "{ id: $id, shelf: $shelf }" })
}

type Mutation {
  echoQuery(query: BookQuery): String @lambda
}
`;
}

const SCRIPT = `
self.addGraphQLResolvers({
  'Query.booksLike': async ({ args, graphql }) => {
    const answer = await graphql(
      'query($from: Int!, $to: Int!) { queryBook(filter: { year: { between: { min: $from, max: $to } } }, order: { asc: year }) { id title year } }',
      { from: args.query.range.from, to: args.query.range.to },
    );
    return answer.data.queryBook.filter((book) => args.query.words.some((word) => book.title.includes(word)));
  },
  'Book.related': ({ parent, args }) => [parent.title, JSON.stringify(args.query)],
  'Mutation.echoQuery': ({ args }) => JSON.stringify(args),
});
`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ customAllow: ['127.0.0.1'] });
  await activateSchema(server.url, schema(remoteBase));
  await loadLambda(server.url, SCRIPT);
  const { body } = await gql(server.url, `mutation {
    addBook(input: [{ title: "Dune", year: 1965 }, { title: "Dune Messiah", year: 1969 }, { title: "Solaris", year: 1961 }, { title: "Dune 2", year: 1990 }]) { numUids }
  }`);
  expect(body.errors).toBeUndefined();
});

afterAll(() => server.close());

beforeEach(() => {
  received.length = 0;
});

test('a lambda query receives the input object given as a variable', async () => {
  const { body } = await gql(server.url, 'query($q: BookQuery!) { booksLike(query: $q) { title year } }', {
    q: { words: ['Dune'], range: { from: 1960, to: 1970 } },
  });
  expect(body).toEqual({ data: { booksLike: [{ title: 'Dune', year: 1965 }, { title: 'Dune Messiah', year: 1969 }] } });
});

test('a lambda field and a lambda mutation receive input objects written as literals, enums and nulls included', async () => {
  const { body } = await gql(server.url, `{
    queryBook(filter: { title: { eq: "Solaris" } }) { related(query: { words: ["a", "b"], range: { from: 1, to: 2 }, shelf: SCIENCE }) }
  }`);
  expect(body).toEqual({ data: { queryBook: [{ related: ['Solaris', '{"words":["a","b"],"range":{"from":1,"to":2},"shelf":"SCIENCE"}'] }] } });
  const mutation = await gql(server.url, 'mutation { echoQuery(query: { words: ["x"], range: null }) }');
  expect(mutation.body).toEqual({ data: { echoQuery: '{"query":{"words":["x"],"range":null}}' } });
});

test('a @custom body template carries the input object to the remote endpoint', async () => {
  const { body } = await gql(server.url, 'query($q: BookQuery!) { searchRemote(query: $q) { id title } }', {
    q: { words: ['red', 'planet'], range: { from: 1950, to: 1960 }, shelf: 'FICTION' },
  });
  expect(body).toEqual({ data: { searchRemote: [{ id: 'b1', title: 'red+planet from 1950' }] } });
  expect(received).toEqual([{
    method: 'POST',
    path: '/books/search',
    contentType: 'application/json',
    body: { query: { words: ['red', 'planet'], range: { from: 1950, to: 1960 }, shelf: 'FICTION' } },
  }]);
});

test('a @custom GET sends its body template, as Dgraph does', async () => {
  const { body } = await gql(server.url, '{ lookupRemote(id: "b9", shelf: SCIENCE) { id title } }');
  expect(body).toEqual({ data: { lookupRemote: { id: 'b9', title: 'found {"id":"b9","shelf":"SCIENCE"}' } } });
  expect(received).toEqual([{ method: 'GET', path: '/books/lookup', contentType: 'application/json', body: { id: 'b9', shelf: 'SCIENCE' } }]);
});

test('a value that does not fit the input type is a client error naming the field', async () => {
  const { body } = await gql(server.url, 'query($q: BookQuery!) { booksLike(query: $q) { title } }', { q: { words: ['x'], range: { from: 1 } } });
  expect(body.data).toBeUndefined();
  expect(body.errors).toEqual([expect.objectContaining({
    message: 'Variable "$q" got invalid value { from: 1 } at "q.range"; Field "to" of required type "Int!" was not provided.',
    extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
  })]);
});

test('the input types are printed in the API and in the federation SDL', async () => {
  const { body } = await gql(server.url, '{ _service { sdl } }');
  const sdl: string = body.data!._service.sdl;
  expect(sdl).toContain('"Years, both ends included."\ninput YearRange {\n  from: Int!\n  to: Int!\n}');
  expect(sdl).toContain('input BookQuery {\n  words: [String!]!\n  range: YearRange\n  shelf: Shelf\n}');
  expect(sdl).toContain('booksLike(query: BookQuery!): [Book]');
  expect(sdl).toContain('related(query: BookQuery): [String]');
  const introspection = await gql(server.url, '{ __type(name: "BookQuery") { kind inputFields { name } } }');
  expect(introspection.body).toEqual({ data: { __type: { kind: 'INPUT_OBJECT', inputFields: [{ name: 'words' }, { name: 'range' }, { name: 'shelf' }] } } });
});
