import { activateSchema, gql, gqlData } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { MUSIC_SCHEMA } from '../fixtures/schemas';
import { activeSchemaText, expectRefusedUpload } from './schema-lifecycle';

/** Issue 2 acceptance on a schema with Int, Float, DateTime, an enum and a many-to-many list relation. */

let server: TestServer;

const data = <T = any>(query: string, variables?: Record<string, unknown>): Promise<T> => gqlData<T>(server.url, query, variables);

beforeAll(async () => {
  server = await startTestServer();
  await activateSchema(server.url, MUSIC_SCHEMA);
  await data(`mutation {
    addAlbum(input: [
      { title: "Kind of Blue", released: "1959-08-17T00:00:00Z", rating: 4.9, tracks: 5, genre: JAZZ,
        artists: [{ name: "Miles Davis" }, { name: "John Coltrane" }] },
      { title: "A Love Supreme", released: "1965-01-01T00:00:00+02:00", rating: 4.8, tracks: 4, genre: JAZZ,
        artists: [{ name: "John Coltrane" }] },
      { title: "Abbey Road", released: "1969-09-26T00:00:00Z", rating: 4.7, tracks: 17, genre: ROCK,
        artists: [{ name: "The Beatles" }] }
    ]) { numUids }
  }`);
});

afterAll(async () => {
  await server.close();
});

test('add with nested list references links existing artists by @id instead of duplicating them', async () => {
  const artists = await data(`{ queryArtist(order: { asc: name }) { name albums(order: { asc: released }) { title } } }`);
  expect(artists.queryArtist).toEqual([
    { name: 'John Coltrane', albums: [{ title: 'Kind of Blue' }, { title: 'A Love Supreme' }] },
    { name: 'Miles Davis', albums: [{ title: 'Kind of Blue' }] },
    { name: 'The Beatles', albums: [{ title: 'Abbey Road' }] },
  ]);
});

test('getAlbum by id returns every scalar kind and the list relation; an unknown id gives null', async () => {
  const { queryAlbum } = await data(`{ queryAlbum(filter: { title: { eq: "A Love Supreme" } }) { id } }`);
  const { id } = queryAlbum[0];
  const got = await data(`query($id: ID!) {
    getAlbum(id: $id) { id title released rating tracks genre artists { name } }
    missing: getAlbum(id: "000000000000000000000000") { title }
  }`, { id });
  expect(got).toEqual({
    getAlbum: { id, title: 'A Love Supreme', released: '1964-12-31T22:00:00Z', rating: 4.8, tracks: 4, genre: 'JAZZ', artists: [{ name: 'John Coltrane' }] },
    missing: null,
  });
});

test('DateTime is normalised to UTC and filters and orders by time', async () => {
  const result = await data(`{
    queryAlbum(filter: { released: { ge: "1960-01-01T00:00:00Z" } }, order: { desc: released }) { title released }
  }`);
  expect(result.queryAlbum).toEqual([
    { title: 'Abbey Road', released: '1969-09-26T00:00:00Z' },
    { title: 'A Love Supreme', released: '1964-12-31T22:00:00Z' },
  ]);
});

test('Int, Float and enum filters, with between, in and combined with and/or/not', async () => {
  const result = await data(`{
    a: queryAlbum(filter: { tracks: { between: { min: 4, max: 5 } } }, order: { asc: tracks }) { title }
    b: queryAlbum(filter: { rating: { gt: 4.75 }, genre: { eq: JAZZ } }, order: { asc: title }) { title }
    c: queryAlbum(filter: { or: [{ genre: { in: [ROCK] } }, { tracks: { lt: 5 } }] }, order: { asc: title }) { title }
    d: queryAlbum(filter: { not: { genre: { eq: JAZZ } } }) { title genre }
  }`);
  expect(result.a).toEqual([{ title: 'A Love Supreme' }, { title: 'Kind of Blue' }]);
  expect(result.b).toEqual([{ title: 'A Love Supreme' }, { title: 'Kind of Blue' }]);
  expect(result.c).toEqual([{ title: 'A Love Supreme' }, { title: 'Abbey Road' }]);
  expect(result.d).toEqual([{ title: 'Abbey Road', genre: 'ROCK' }]);
});

test('aggregateAlbum computes count, min, max, sum and avg', async () => {
  const result = await data(`{
    aggregateAlbum { count tracksSum tracksMin tracksMax ratingAvg releasedMin titleMax }
  }`);
  expect(result.aggregateAlbum.count).toBe(3);
  expect(result.aggregateAlbum.tracksSum).toBe(26);
  expect(result.aggregateAlbum.tracksMin).toBe(4);
  expect(result.aggregateAlbum.tracksMax).toBe(17);
  expect(result.aggregateAlbum.ratingAvg).toBeCloseTo(4.8, 5);
  expect(result.aggregateAlbum.releasedMin).toBe('1959-08-17T00:00:00Z');
  expect(result.aggregateAlbum.titleMax).toBe('Kind of Blue');
});

test('a list relation takes its own filter, order, first and offset, and has an aggregate', async () => {
  const result = await data(`{
    getArtist(name: "John Coltrane") {
      albums(filter: { rating: { ge: 4.8 } }, order: { desc: rating }, first: 1) { title }
      rest: albums(order: { desc: rating }, offset: 1) { title }
      albumsAggregate { count ratingMax }
    }
  }`);
  expect(result.getArtist).toEqual({
    albums: [{ title: 'Kind of Blue' }],
    rest: [{ title: 'A Love Supreme' }],
    albumsAggregate: { count: 2, ratingMax: 4.9 },
  });
});

test('update adds and removes list edges; both directions follow', async () => {
  await data(`mutation {
    updateAlbum(input: {
      filter: { title: { eq: "Abbey Road" } },
      set: { artists: [{ name: "Miles Davis" }] },
      remove: { artists: [{ name: "The Beatles" }] }
    }) { numUids }
  }`);
  const result = await data(`{
    queryAlbum(filter: { title: { eq: "Abbey Road" } }) { artists { name } }
    getArtist(name: "The Beatles") { albums { title } }
  }`);
  expect(result.queryAlbum).toEqual([{ artists: [{ name: 'Miles Davis' }] }]);
  expect(result.getArtist).toEqual({ albums: [] });
});

test('delete removes the object and every edge pointing at it', async () => {
  const deleted = await data(`mutation { deleteArtist(filter: { name: { eq: "John Coltrane" } }) { numUids } }`);
  expect(deleted.deleteArtist.numUids).toBe(1);
  const result = await data(`{ queryAlbum(order: { asc: title }) { title artists { name } } }`);
  expect(result.queryAlbum).toEqual([
    { title: 'A Love Supreme', artists: [] },
    { title: 'Abbey Road', artists: [{ name: 'Miles Davis' }] },
    { title: 'Kind of Blue', artists: [{ name: 'Miles Davis' }] },
  ]);
});

test('a bad argument is a clear error naming the problem', async () => {
  const { body } = await gql(server.url, `{ queryAlbum(first: 100000) { title } }`);
  expect(body.errors).toEqual([
    expect.objectContaining({ message: 'first must be at most 10000, got 100000', extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
  ]);
  const badDate = await gql(server.url, `{ queryAlbum(filter: { released: { ge: "yesterday" } }) { title } }`);
  expect(badDate.body.errors).toEqual([
    expect.objectContaining({
      message: 'DateTime cannot represent "yesterday": not a date-time; the forms are 2026-01-31T12:00:00Z (RFC 3339, optional fraction and ±hh:mm offset), 2026-01-31T12:00:00, 2026-01-31, 2026-01 or 2026',
      extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
    }),
  ]);
});

test('a schema with errors is refused with line:column, and the previous schema keeps serving', async () => {
  const broken = MUSIC_SCHEMA
    .replace('rating: Float @search', 'rating: Float @search(by: [term])')
    .replace('genre: Genre @search', 'genre: Mood @search');
  const errors = await expectRefusedUpload(server.url, broken);
  expect(errors).toEqual([
    { line: 12, column: 30, message: 'Type Album; field rating: @search(by: [term]) does not apply to Float (allowed: float)' },
    { line: 14, column: 10, message: 'Type Album; field genre: unknown type Mood' },
  ]);
  expect(await activeSchemaText(server.url)).toBe(MUSIC_SCHEMA);
  const still = await data(`{ aggregateAlbum { count } getArtist(name: "Miles Davis") { name } }`);
  expect(still).toEqual({ aggregateAlbum: { count: 3 }, getArtist: { name: 'Miles Davis' } });
});

test('a re-upload that adds a field keeps existing data readable; the new field is null until set', async () => {
  await activateSchema(server.url, MUSIC_SCHEMA.replace('genre: Genre @search', 'genre: Genre @search\n  label: String @search(by: [hash])'));
  const before = await data(`{ queryAlbum(order: { asc: title }) { title released rating tracks genre label artists { name } } }`);
  expect(before.queryAlbum).toEqual([
    { title: 'A Love Supreme', released: '1964-12-31T22:00:00Z', rating: 4.8, tracks: 4, genre: 'JAZZ', label: null, artists: [] },
    { title: 'Abbey Road', released: '1969-09-26T00:00:00Z', rating: 4.7, tracks: 17, genre: 'ROCK', label: null, artists: [{ name: 'Miles Davis' }] },
    { title: 'Kind of Blue', released: '1959-08-17T00:00:00Z', rating: 4.9, tracks: 5, genre: 'JAZZ', label: null, artists: [{ name: 'Miles Davis' }] },
  ]);
  await data(`mutation { updateAlbum(input: { filter: { title: { eq: "Kind of Blue" } }, set: { label: "Columbia" } }) { numUids } }`);
  const labelled = await data(`{ queryAlbum(filter: { label: { eq: "Columbia" } }) { title } }`);
  expect(labelled.queryAlbum).toEqual([{ title: 'Kind of Blue' }]);
});

test('a restart on the same data serves the same schema and data: DateTime, Float, Int, enum and relations', async () => {
  const schemaBefore = await activeSchemaText(server.url);
  server = await server.restart();
  expect(await activeSchemaText(server.url)).toBe(schemaBefore);
  const result = await data(`{
    queryAlbum(filter: { genre: { eq: JAZZ }, released: { lt: "1965-01-01T00:00:00Z" } }, order: { desc: rating }) {
      title released rating tracks genre label artists { name albums(order: { asc: title }) { title } }
    }
    aggregateAlbum { count ratingMax releasedMin }
  }`);
  expect(result.queryAlbum).toEqual([
    { title: 'Kind of Blue', released: '1959-08-17T00:00:00Z', rating: 4.9, tracks: 5, genre: 'JAZZ', label: 'Columbia',
      artists: [{ name: 'Miles Davis', albums: [{ title: 'Abbey Road' }, { title: 'Kind of Blue' }] }] },
    { title: 'A Love Supreme', released: '1964-12-31T22:00:00Z', rating: 4.8, tracks: 4, genre: 'JAZZ', label: null, artists: [] },
  ]);
  expect(result.aggregateAlbum).toEqual({ count: 3, ratingMax: 4.9, releasedMin: '1959-08-17T00:00:00Z' });
});
