import { countRoundTrips } from '../../src/store/counting';
import { gqlData } from '../helpers/gql';
import { startCountingTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 14, bug 2: an object answered by a `@lambda` with its ID gets its stored relations loaded, in one
 * read for all such objects, whether or not the request loaded the object elsewhere.
 */

const SCHEMA = `
type Author {
  id: ID!
  name: String! @search(by: [hash])
  city: City
  books: [Book]
}

type City {
  id: ID!
  name: String!
}

type Book {
  id: ID!
  title: String!
  pages: Int
}

type Query {
  authorByName(name: String!): Author @lambda
  authorsNamed(names: [String!]!): [Author] @lambda
  authorIdOnly(name: String!): Author @lambda
}
`;

const SCRIPT = `
async function named({ args, graphql }) {
  const answer = await graphql('query($names: [String]) { queryAuthor(filter: { name: { in: $names } }, order: { asc: name }) { id name } }', { names: args.names });
  return answer.data.queryAuthor;
}
self.addGraphQLResolvers({
  'Query.authorByName': async ({ args, graphql }) => (await named({ args: { names: [args.name] }, graphql }))[0],
  'Query.authorsNamed': named,
  'Query.authorIdOnly': async ({ args, graphql }) => ({ id: (await named({ args: { names: [args.name] }, graphql }))[0].id }),
});
`;

let server: TestServer;
let counter: ReturnType<typeof countRoundTrips>['counter'];

beforeAll(async () => {
  ({ server, counter } = await startCountingTestServer({
    initialSchema: SCHEMA,
    initialLambda: SCRIPT,
  }));
  await gqlData(server.url, `mutation {
    addAuthor(input: [
      { name: "ann", city: { name: "Oslo" }, books: [{ title: "B2", pages: 20 }, { title: "B1", pages: 10 }] },
      { name: "bob", city: { name: "Rome" } },
      { name: "cid" }
    ]) { numUids }
  }`);
});

afterAll(() => server.close());

test('a single relation of the object a lambda answered is loaded without the object being read elsewhere', async () => {
  expect(await gqlData(server.url, '{ authorByName(name: "ann") { name city { name } } }'))
    .toEqual({ authorByName: { name: 'ann', city: { name: 'Oslo' } } });
});

test('list relations (with their arguments) and their aggregates are loaded too', async () => {
  expect(await gqlData(server.url, `{
    authorByName(name: "ann") { books(order: { asc: title }, first: 1) { title } booksAggregate { count pagesSum } }
  }`)).toEqual({ authorByName: { books: [{ title: 'B1' }], booksAggregate: { count: 2, pagesSum: 30 } } });
});

test('a lambda answering only the ID still gets the relations', async () => {
  expect(await gqlData(server.url, '{ authorIdOnly(name: "bob") { city { name } } }'))
    .toEqual({ authorIdOnly: { city: { name: 'Rome' } } });
});

test('the stored fields a lambda object with its ID lacks come from its stored document, in one read', async () => {
  counter.reset();
  expect(await gqlData(server.url, '{ authorIdOnly(name: "bob") { id name city { name } } }'))
    .toEqual({ authorIdOnly: { id: expect.any(String), name: 'bob', city: { name: 'Rome' } } });
  // The lambda's own query (1), the author's document with its edges (1), the city (1).
  expect(counter.count).toBe(3);
});

test('a list of lambda objects reads their stored edges once for all of them', async () => {
  const query = '{ authorsNamed(names: ["ann", "bob", "cid"]) { name city { name } } }';
  counter.reset();
  expect(await gqlData(server.url, query)).toEqual({
    authorsNamed: [
      { name: 'ann', city: { name: 'Oslo' } },
      { name: 'bob', city: { name: 'Rome' } },
      { name: 'cid', city: null },
    ],
  });
  // The lambda's own query (1), the edges of the three authors (1), the cities (1).
  expect(counter.count).toBe(3);
});

test('the same relation through a stored read costs no extra read', async () => {
  counter.reset();
  expect(await gqlData(server.url, '{ queryAuthor(order: { asc: name }) { city { name } } }'))
    .toEqual({ queryAuthor: [{ city: { name: 'Oslo' } }, { city: { name: 'Rome' } }, { city: null }] });
  expect(counter.count).toBe(2);
});
