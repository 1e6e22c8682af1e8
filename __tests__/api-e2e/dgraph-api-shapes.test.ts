import { useService } from './harness';

/**
 * Issue 13 (dgapi): a Dgraph client's requests, written against Dgraph's generated API, work unchanged
 * over HTTP: ID fields under their declared names, `@id` Refs, `upsert` only with an `@id` field,
 * `@deprecated` in introspection and `_service`, DateTime answered as Dgraph answers it, and extended
 * types ordered by their key and patched as Dgraph's Patch allows.
 */

const SCHEMA = `
type Post @key(fields: "postID") {
  postID: ID!
  title: String! @search(by: [term])
  published: DateTime @search
  kind: Kind @search(by: [exact])
  legacy: String @deprecated(reason: "use title")
  author: Author
  genre: Genre
}

type Author {
  id: ID!
  name: String! @id
  posts: [Post] @hasInverse(field: author)
}

type Genre {
  name: String! @id
}

type District {
  dgId: ID!
  id: String! @id
  name: String
}

enum Kind {
  NEWS
  OPINION @deprecated(reason: "use NEWS")
}

extend type Book @key(fields: "id") {
  id: ID! @external
  shelf: Int
}

extend type Reader @key(fields: "handle") {
  handle: String! @id @external
  stars: Int
}
`;

const api = useService(SCHEMA);

let firstPostID: string;

beforeAll(async () => {
  const added = await api.data(`mutation {
    addPost(input: [
      { title: "Hello world", published: "2000-01-01T00:00:00.250Z", kind: NEWS, author: { name: "Ann" }, genre: { name: "Tech" } },
      { title: "Second post", published: "2001-06-15T08:30:00+02:00", kind: OPINION, author: { name: "Bob" } }
    ]) { post(order: { asc: title }) { postID title } }
  }`);
  firstPostID = added.addPost.post[0].postID;
});

describe('an ID field not named id keeps its name', () => {
  test('getT, TFilter and the payload use postID', async () => {
    const got = await api.data('query ($id: ID!) { getPost(postID: $id) { postID title } }', { id: firstPostID });
    expect(got.getPost).toEqual({ postID: firstPostID, title: 'Hello world' });
    const filtered = await api.data('query ($ids: [ID!]) { queryPost(filter: { postID: $ids }) { title } }', { ids: [firstPostID] });
    expect(filtered.queryPost).toEqual([{ title: 'Hello world' }]);
  });

  test('a Ref names an existing object by postID', async () => {
    const added = await api.data('mutation ($id: ID!) { addAuthor(input: [{ name: "Cid", posts: [{ postID: $id }] }]) { author { name posts { title } } } }', { id: firstPostID });
    expect(added.addAuthor.author).toEqual([{ name: 'Cid', posts: [{ title: 'Hello world' }] }]);
    const unknown = await api.errors('mutation { addAuthor(input: [{ name: "Dee", posts: [{ postID: "0xnope" }] }]) { numUids } }');
    expect(unknown).toEqual([{ code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because PostRef: no Post with postID "0xnope"' }]);
  });

  test('the generic id is not an argument of getPost', async () => {
    const errors = await api.errors('{ getPost(id: "1") { title } }');
    expect(errors).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Unknown argument "id" on field "Query.getPost".' },
      { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Field "getPost" argument "postID" of type "ID!" is required, but it was not provided.' },
    ]);
  });

  test('_entities takes the key under its declared name', async () => {
    const result = await api.data('query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Post { postID title } } }', {
      representations: [{ __typename: 'Post', postID: firstPostID }],
    });
    expect(result._entities).toEqual([{ postID: firstPostID, title: 'Hello world' }]);
  });
});

describe('type District { dgId: ID!  id: String! @id }', () => {
  let dgId: string;

  beforeAll(async () => {
    const added = await api.data('mutation { addDistrict(input: [{ id: "north", name: "North" }, { id: "south", name: "South" }]) { district(order: { asc: id }) { dgId id name } } }');
    expect(added.addDistrict.district.map((district: { id: string }) => district.id)).toEqual(['north', 'south']);
    dgId = added.addDistrict.district[0].dgId;
  });

  test('getDistrict by the ID or by the @id field', async () => {
    const byDgId = await api.data('query ($dgId: ID) { getDistrict(dgId: $dgId) { id name } }', { dgId });
    expect(byDgId.getDistrict).toEqual({ id: 'north', name: 'North' });
    const byId = await api.data('{ getDistrict(id: "south") { id name } }');
    expect(byId.getDistrict).toEqual({ id: 'south', name: 'South' });
  });

  test('the filter has both: dgId as IDs, id as a hash-searchable String', async () => {
    const byDgId = await api.data('query ($ids: [ID!]) { queryDistrict(filter: { dgId: $ids }) { id } }', { ids: [dgId] });
    expect(byDgId.queryDistrict).toEqual([{ id: 'north' }]);
    const byId = await api.data('{ queryDistrict(filter: { id: { in: ["south"] } }) { name } }');
    expect(byId.queryDistrict).toEqual([{ name: 'South' }]);
  });

  test('a second add with the same id is refused as Dgraph refuses it', async () => {
    const errors = await api.errors('mutation { addDistrict(input: [{ id: "north" }]) { numUids } }');
    expect(errors).toEqual([{ code: 'DUPLICATE_ID', message: 'couldn\'t rewrite mutation addDistrict because failed to rewrite mutation payload because id north already exists for field id inside type District' }]);
  });
});

describe('Refs and upsert as Dgraph generates them', () => {
  test('upsert exists only on types with an @id field', async () => {
    expect(await api.errors('mutation { addPost(input: [{ title: "x" }], upsert: true) { numUids } }')).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Unknown argument "upsert" on field "Mutation.addPost".' },
    ]);
    const upserted = await api.data('mutation { addGenre(input: [{ name: "Tech" }], upsert: true) { genre { name } numUids } }');
    expect(upserted.addGenre).toEqual({ genre: [{ name: 'Tech' }], numUids: 0 });
  });

  test('GenreRef requires its key, as Dgraph\'s GenreRef { name: String! } does', async () => {
    expect(await api.errors('mutation { addPost(input: [{ title: "x", genre: {} }]) { numUids } }')).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Field "GenreRef.name" of required type "String!" was not provided.' },
    ]);
    const linked = await api.data('mutation { addPost(input: [{ title: "Tech talk", genre: { name: "Tech" } }]) { post { genre { name } } } }');
    expect(linked.addPost.post).toEqual([{ genre: { name: 'Tech' } }]);
  });
});

describe('@deprecated is kept', () => {
  test('on fields and enum values in introspection', async () => {
    const result = await api.data(`{
      post: __type(name: "Post") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } }
      kind: __type(name: "Kind") { enumValues(includeDeprecated: true) { name isDeprecated deprecationReason } }
    }`);
    expect(result.post.fields.find((field: { name: string }) => field.name === 'legacy')).toEqual({ name: 'legacy', isDeprecated: true, deprecationReason: 'use title' });
    expect(result.post.fields.find((field: { name: string }) => field.name === 'title')).toEqual({ name: 'title', isDeprecated: false, deprecationReason: null });
    expect(result.kind.enumValues).toEqual([
      { name: 'NEWS', isDeprecated: false, deprecationReason: null },
      { name: 'OPINION', isDeprecated: true, deprecationReason: 'use NEWS' },
    ]);
  });

  test('in the _service SDL the gateway reads', async () => {
    const { _service } = await api.data('{ _service { sdl } }');
    expect(_service.sdl).toContain('  legacy: String @deprecated(reason: "use title")\n');
    expect(_service.sdl).toContain('  OPINION @deprecated(reason: "use NEWS")\n');
  });
});

describe('filters', () => {
  test('the enum exact filter takes between as Dgraph types it (one enum value), and refuses it as no range', async () => {
    expect(await api.errors('{ queryPost(filter: { kind: { between: NEWS } }) { title } }')).toEqual([
      { code: 'BAD_USER_INPUT', message: 'Post.kind between: expected { min, max } with both given, got "NEWS"' },
    ]);
    const ordered = await api.data('{ queryPost(filter: { kind: { ge: NEWS } }, order: { asc: title }) { title } }');
    expect(ordered.queryPost.map((post: { title: string }) => post.title)).toEqual(['Hello world', 'Second post']);
  });
});

describe('DateTime answered as Dgraph answers it', () => {
  test('in results and aggregates: RFC 3339, UTC, whole seconds', async () => {
    const result = await api.data('{ queryPost(filter: { has: published }, order: { asc: published }) { published } aggregatePost { publishedMin publishedMax } }');
    expect(result.queryPost).toEqual([{ published: '2000-01-01T00:00:00Z' }, { published: '2001-06-15T06:30:00Z' }]);
    expect(result.aggregatePost).toEqual({ publishedMin: '2000-01-01T00:00:00Z', publishedMax: '2001-06-15T06:30:00Z' });
  });

  test('the stored value keeps its fraction: a filter on it still finds the object', async () => {
    const exact = await api.data('{ queryPost(filter: { published: { eq: "2000-01-01T00:00:00.250Z" } }) { title } }');
    expect(exact.queryPost).toEqual([{ title: 'Hello world' }]);
    const whole = await api.data('{ queryPost(filter: { published: { eq: "2000-01-01T00:00:00Z" } }) { title } }');
    expect(whole.queryPost).toEqual([]);
  });
});

describe('extended types as Dgraph generates them', () => {
  beforeAll(async () => {
    await api.data('mutation { addBook(input: [{ id: "b1", shelf: 2 }, { id: "b2", shelf: 1 }]) { numUids } }');
    await api.data('mutation { addReader(input: [{ handle: "zed", stars: 1 }, { handle: "amy", stars: 5 }]) { numUids } }');
  });

  test('ordered by the key, whether the ID or an @id field', async () => {
    const books = await api.data('{ queryBook(order: { desc: id }) { id } aggregateBook { idMin idMax } }');
    expect(books.queryBook).toEqual([{ id: 'b2' }, { id: 'b1' }]);
    expect(books.aggregateBook).toEqual({ idMin: 'b1', idMax: 'b2' });
    const readers = await api.data('{ queryReader(order: { asc: handle }) { handle } }');
    expect(readers.queryReader).toEqual([{ handle: 'amy' }, { handle: 'zed' }]);
  });

  test('the Patch names the @id key: the same value passes, another is refused', async () => {
    const same = await api.data('mutation { updateReader(input: { filter: { handle: { eq: "amy" } }, set: { handle: "amy", stars: 4 } }) { reader { handle stars } } }');
    expect(same.updateReader.reader).toEqual([{ handle: 'amy', stars: 4 }]);
    expect(await api.errors('mutation { updateReader(input: { filter: { handle: { eq: "amy" } }, set: { handle: "ann" } }) { numUids } }')).toEqual([
      { code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation updateReader because failed to rewrite mutation payload because UpdateReaderInput.set.handle: handle is the key of Reader, owned by another service; it cannot change from "amy" to "ann"' },
    ]);
    expect(await api.errors('mutation { updateReader(input: { filter: { handle: { eq: "amy" } }, remove: { handle: "amy" } }) { numUids } }')).toEqual([
      { code: 'BAD_USER_INPUT', message: 'couldn\'t rewrite mutation updateReader because failed to rewrite mutation payload because UpdateReaderInput: handle is the key of Reader, owned by another service; it cannot be removed' },
    ]);
    const unchanged = await api.data('{ getReader(handle: "amy") { handle stars } }');
    expect(unchanged.getReader).toEqual({ handle: 'amy', stars: 4 });
  });
});
