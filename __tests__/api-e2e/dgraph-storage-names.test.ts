/**
 * `@dgraph(type:, pred:)` as storage names over HTTP, on both backends: a GraphQL field renamed over its
 * stored data, Dgraph-style predicate names (`Author.name`) stored under safe names, reverse edges,
 * existing collections served under another type name, with filters, order, aggregates, indexes,
 * relations, `@auth` rules and federation entity lookups all reaching the stored names.
 */
import { authorizationLine, tokenFor } from '../auth/keys.js';
import { activateSchema, gql, gqlData, uploadSchema } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(() => server.close());

const raw = (collection: string) => server.store.collection(collection);

describe('a rename that keeps the data', () => {
  test('label becomes title @dgraph(pred: "label"): stored values stay readable, filterable, orderable and aggregatable', async () => {
    await activateSchema(server.url, 'type Post {\n  id: ID!\n  label: String @search(by: [hash, term])\n  score: Int\n}');
    await gqlData(server.url, 'mutation { addPost(input: [{ label: "beta post", score: 2 }, { label: "alpha post", score: 1 }]) { numUids } }');

    await activateSchema(server.url, 'type Post {\n  id: ID!\n  title: String @dgraph(pred: "label") @search(by: [hash, term])\n  rank: Int @dgraph(pred: "score")\n}');
    expect(await gqlData(server.url, '{ queryPost(order: { asc: title }) { title rank } }')).toEqual({
      queryPost: [{ title: 'alpha post', rank: 1 }, { title: 'beta post', rank: 2 }],
    });
    expect(await gqlData(server.url, '{ queryPost(filter: { title: { eq: "beta post" } }) { rank } }')).toEqual({ queryPost: [{ rank: 2 }] });
    expect(await gqlData(server.url, '{ queryPost(filter: { title: { anyofterms: "alpha" } }) { title } }')).toEqual({ queryPost: [{ title: 'alpha post' }] });
    expect(await gqlData(server.url, '{ queryPost(filter: { has: rank }, order: { desc: rank }) { rank } }')).toEqual({ queryPost: [{ rank: 2 }, { rank: 1 }] });
    expect(await gqlData(server.url, '{ aggregatePost { count titleMin rankMax rankSum } }')).toEqual({
      aggregatePost: { count: 2, titleMin: 'alpha post', rankMax: 2, rankSum: 3 },
    });
  });

  test('writes go to the stored names; the indexes keep their names and keys', async () => {
    await gqlData(server.url, 'mutation { addPost(input: [{ title: "gamma post", rank: 3 }]) { numUids } }');
    await gqlData(server.url, 'mutation { updatePost(input: { filter: { title: { eq: "alpha post" } }, set: { rank: 10 } }) { numUids } }');
    const stored = await raw('Post').find({}, { sort: { label: 1 }, projection: { label: 1, score: 1, title: 1, rank: 1 } });
    expect(stored.map(({ _id, ...values }) => values)).toEqual([
      { label: 'alpha post', score: 10 },
      { label: 'beta post', score: 2 },
      { label: 'gamma post', score: 3 },
    ]);
    const indexes = (await server.store.listIndexes('Post')).filter((index) => index.name.startsWith('ag_')).map((index) => [index.name, index.keys]);
    expect(indexes).toEqual(expect.arrayContaining([['ag_search_label', { label: 1 }], ['ag_term_label', { _term_label: 1 }]]));
    expect(indexes.some(([name]) => String(name).includes('title'))).toBe(false);
  });
});

describe('Dgraph predicate names, a type stored in another collection, reverse edges', () => {
  const SCHEMA = `
type Author @dgraph(type: "Writer") {
  id: ID!
  name: String! @dgraph(pred: "Author.name") @search(by: [hash, term])
  posts: [Article] @dgraph(pred: "Author.posts")
}
type Article @dgraph(type: "dgraph.Article") {
  id: ID!
  title: String! @dgraph(pred: "Article.title") @search(by: [exact])
  authors: [Author] @dgraph(pred: "~Author.posts")
}`;

  beforeAll(async () => {
    await activateSchema(server.url, SCHEMA);
    await gqlData(server.url, `mutation { addAuthor(input: [
      { name: "Ann Lee", posts: [{ title: "A1" }, { title: "A2" }] },
      { name: "Bo Chan", posts: [{ title: "B1" }] }
    ]) { numUids } }`);
    const { queryArticle } = await gqlData(server.url, '{ queryArticle(filter: { title: { eq: "A1" } }) { id } }');
    await gqlData(server.url, `mutation { updateAuthor(input: { filter: { name: { eq: "Bo Chan" } }, set: { posts: [{ id: "${queryArticle[0].id}" }] } }) { numUids } }`);
  });

  test('dots in names are stored as %2E, in the collection @dgraph(type:) names', async () => {
    const [ann] = await raw('Writer').find({ 'Author%2Ename': 'Ann Lee' });
    expect(Object.keys(ann!).sort()).toEqual(['Author%2Ename', 'Author%2Eposts', '_id', '_term_Author%2Ename']);
    expect(ann!['Author%2Eposts']).toHaveLength(2);
    expect(await raw('dgraph%2EArticle').count({})).toBe(3);
    expect(await raw('Author').count({})).toBe(0);
  });

  test('the reverse edge is the derived side of the forward one', async () => {
    const { queryArticle } = await gqlData(server.url, '{ queryArticle(order: { asc: title }) { title authors(order: { asc: name }) { name } authorsAggregate { count } } }');
    expect(queryArticle).toEqual([
      { title: 'A1', authors: [{ name: 'Ann Lee' }, { name: 'Bo Chan' }], authorsAggregate: { count: 2 } },
      { title: 'A2', authors: [{ name: 'Ann Lee' }], authorsAggregate: { count: 1 } },
      { title: 'B1', authors: [{ name: 'Bo Chan' }], authorsAggregate: { count: 1 } },
    ]);
    expect(await gqlData(server.url, '{ queryArticle(filter: { has: authors }, order: { asc: title }) { title } }')).toEqual({
      queryArticle: [{ title: 'A1' }, { title: 'A2' }, { title: 'B1' }],
    });
  });

  test('filters through relations and term filters read the stored names', async () => {
    expect(await gqlData(server.url, '{ queryAuthor(filter: { name: { anyofterms: "chan" } }) { name posts(order: { asc: title }) { title } } }')).toEqual({
      queryAuthor: [{ name: 'Bo Chan', posts: [{ title: 'A1' }, { title: 'B1' }] }],
    });
  });

  test('aggregates over a stored edge read the related type\'s stored names', async () => {
    expect(await gqlData(server.url, '{ queryAuthor(order: { asc: name }) { name postsAggregate { count titleMin titleMax } } }')).toEqual({
      queryAuthor: [
        { name: 'Ann Lee', postsAggregate: { count: 2, titleMin: 'A1', titleMax: 'A2' } },
        { name: 'Bo Chan', postsAggregate: { count: 2, titleMin: 'A1', titleMax: 'B1' } },
      ],
    });
    expect(await gqlData(server.url, '{ aggregateArticle(filter: { title: { ge: "A2" } }) { count titleMax } }')).toEqual({ aggregateArticle: { count: 2, titleMax: 'B1' } });
  });

  test('a reverse edge is not written through: the inputs leave it out', async () => {
    const { __type } = await gqlData(server.url, '{ __type(name: "AddArticleInput") { inputFields { name } } }');
    expect(__type.inputFields.map((field: { name: string }) => field.name)).toEqual(['title']);
  });

  test('deleting an article detaches it from the stored forward edges', async () => {
    await gqlData(server.url, 'mutation { deleteArticle(filter: { title: { eq: "A2" } }) { numUids } }');
    const [ann] = await raw('Writer').find({ 'Author%2Ename': 'Ann Lee' });
    expect(ann!['Author%2Eposts']).toHaveLength(1);
  });
});

describe('a reverse edge declared on an interface (Dgraph\'s dgraph-reverse-directive-with-interfaces)', () => {
  beforeAll(async () => {
    await activateSchema(server.url, [
      'interface Movie {\n  id: ID!\n  name: String! @search(by: [hash])\n  director: [Director] @dgraph(pred: "~directed.movies")\n}',
      'type OscarMovie implements Movie {\n  year: Int!\n}',
      'type Director {\n  id: ID!\n  name: String!\n  directed: [OscarMovie] @dgraph(pred: "directed.movies")\n}',
    ].join('\n'));
    await gqlData(server.url, 'mutation { addDirector(input: [{ name: "Kurosawa", directed: [{ name: "Ran", year: 1985 }] }, { name: "Nobody" }]) { numUids } }');
  });

  test('read through the interface and through the type, filtered by has', async () => {
    expect(await gqlData(server.url, '{ queryMovie { name director { name } } }')).toEqual({ queryMovie: [{ name: 'Ran', director: [{ name: 'Kurosawa' }] }] });
    expect(await gqlData(server.url, '{ queryOscarMovie(filter: { has: director }) { year directorAggregate { count } } }')).toEqual({
      queryOscarMovie: [{ year: 1985, directorAggregate: { count: 1 } }],
    });
    expect(await gqlData(server.url, '{ queryMovie(filter: { not: { has: director } }) { name } }')).toEqual({ queryMovie: [] });
  });
});

describe('an existing collection served under another type name', () => {
  const SCHEMA = `
type Product @key(fields: "sku") @dgraph(type: "legacy_products") {
  id: ID!
  sku: String! @id
  price: Float @dgraph(pred: "unit_price")
}`;

  beforeAll(async () => {
    await raw('legacy_products').insertMany([
      { _id: 'p1', sku: 'SKU-1', unit_price: 9.5 },
      { _id: 'p2', sku: 'SKU-2', unit_price: 20 },
    ]);
    await activateSchema(server.url, SCHEMA);
  });

  test('its documents are the type\'s objects: query, get by @id, federation entities', async () => {
    expect(await gqlData(server.url, '{ queryProduct(order: { desc: price }) { id sku price } }')).toEqual({
      queryProduct: [{ id: 'p2', sku: 'SKU-2', price: 20 }, { id: 'p1', sku: 'SKU-1', price: 9.5 }],
    });
    expect(await gqlData(server.url, '{ getProduct(sku: "SKU-1") { id price } }')).toEqual({ getProduct: { id: 'p1', price: 9.5 } });
    expect(await gqlData(server.url, '{ _entities(representations: [{ __typename: "Product", sku: "SKU-2" }]) { ... on Product { id price } } }')).toEqual({
      _entities: [{ id: 'p2', price: 20 }],
    });
  });

  test('the @id index is made on that collection, so a duplicate is refused with DUPLICATE_ID', async () => {
    const indexes = await server.store.listIndexes('legacy_products');
    expect(indexes.find((index) => index.name === 'ag_unique_sku')?.keys).toEqual({ sku: 1 });
    const { body } = await gql(server.url, 'mutation { addProduct(input: [{ sku: "SKU-1", price: 1 }]) { numUids } }');
    expect(body.errors?.[0]?.extensions?.code).toBe('DUPLICATE_ID');
    expect(body.errors?.[0]?.message).toBe('couldn\'t rewrite mutation addProduct because failed to rewrite mutation payload because id SKU-1 already exists for field sku inside type Product');
  });
});

describe('an @id field under a stored name', () => {
  beforeAll(async () => {
    await activateSchema(server.url, 'type Tag {\n  name: String! @id @dgraph(pred: "Tag.name")\n  uses: Int @dgraph(pred: "Tag.uses")\n}\ntype Photo {\n  id: ID!\n  tags: [Tag] @dgraph(pred: "Photo.tags")\n}');
    await gqlData(server.url, 'mutation { addTag(input: [{ name: "sea", uses: 1 }, { name: "sky", uses: 2 }]) { numUids } }');
  });

  test('getT, upsert and references find the object by its stored @id', async () => {
    expect(await gqlData(server.url, '{ getTag(name: "sky") { name uses } }')).toEqual({ getTag: { name: 'sky', uses: 2 } });
    await gqlData(server.url, 'mutation { addTag(input: [{ name: "sea", uses: 5 }], upsert: true) { numUids } }');
    await gqlData(server.url, 'mutation { addPhoto(input: [{ tags: [{ name: "sea" }, { name: "sun" }] }]) { numUids } }');
    expect(await gqlData(server.url, '{ queryTag(order: { asc: name }) { name uses } }')).toEqual({
      queryTag: [{ name: 'sea', uses: 5 }, { name: 'sky', uses: 2 }, { name: 'sun', uses: null }],
    });
    expect(await gqlData(server.url, '{ queryPhoto { tags(order: { asc: name }) { name } } }')).toEqual({ queryPhoto: [{ tags: [{ name: 'sea' }, { name: 'sun' }] }] });
  });

  test('a duplicate answers DUPLICATE_ID naming the field, not its stored name', async () => {
    const { body } = await gql(server.url, 'mutation { addTag(input: [{ name: "sky" }]) { numUids } }');
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'DUPLICATE_ID', field: 'name', value: 'sky' });
    const update = await gql(server.url, 'mutation { updateTag(input: { filter: { name: { eq: "sun" } }, set: { name: "sky" } }) { numUids } }');
    expect(update.body.errors?.[0]?.extensions).toMatchObject({ code: 'DUPLICATE_ID', field: 'name', value: 'sky' });
    expect(update.body.errors?.[0]?.message).toBe('couldn\'t rewrite mutation updateTag because failed to rewrite mutation payload because id sky already exists for field name inside type Tag');
  });
});

describe('under @auth', () => {
  const HEADER = 'X-Auth-Token';
  const OWNER = 'query($USER: String!) { queryNote(filter: { owner: { eq: $USER } }) { id } }';
  const SCHEMA = `
type Note @dgraph(type: "notes") @auth(query: { rule: """${OWNER}""" }, update: { rule: """${OWNER}""" }) {
  id: ID!
  owner: String! @dgraph(pred: "Note.owner") @search(by: [hash])
  text: String @dgraph(pred: "Note.text")
}
${authorizationLine({ header: HEADER })}`;
  const as = (user: string) => ({ [HEADER]: tokenFor({ USER: user }) });

  beforeAll(async () => {
    await activateSchema(server.url, SCHEMA);
    await gqlData(server.url, 'mutation { addNote(input: [{ owner: "alice", text: "a1" }, { owner: "bob", text: "b1" }]) { numUids } }');
  });

  test('the rule filters on the stored name', async () => {
    const { status, body } = await gql(server.url, '{ queryNote { owner text } }', undefined, as('alice'));
    expect(status).toBe(200);
    expect(body).toEqual({ data: { queryNote: [{ owner: 'alice', text: 'a1' }] } });
  });

  test('an update outside the rule changes nothing', async () => {
    await gql(server.url, 'mutation { updateNote(input: { filter: {}, set: { text: "changed" } }) { numUids } }', undefined, as('alice'));
    const texts = (await raw('notes').find({}, { sort: { 'Note%2Etext': 1 } })).map((document) => document['Note%2Etext']);
    expect(texts).toEqual(['b1', 'changed']);
  });
});

test('a storage name that would collide is refused at upload with its location', async () => {
  const { status, body } = await uploadSchema(server.url, 'type A {\n  id: ID!\n  a: Int\n  b: Int @dgraph(pred: "a")\n}');
  expect(status).toBe(400);
  expect(body.errors).toEqual([expect.objectContaining({
    message: 'Type A; field b: is stored under "a", as is field a; each field needs its own stored name',
    locations: [{ line: 4, column: 10 }],
    extensions: expect.objectContaining({ code: 'BAD_SCHEMA' }),
  })]);
});
