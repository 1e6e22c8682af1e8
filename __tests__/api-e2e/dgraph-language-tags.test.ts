import fs from 'node:fs';
import { activateSchema, gql, gqlData } from '../helpers/gql';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { fingerprint64 } from 'farmhash-modern';

/**
 * Language tags in `@dgraph(pred:)` through the HTTP endpoint, on the run's store, as Dgraph's e2e
 * `Person` type uses them: one field per language (written, filtered, ordered), preferences `@fr:de`
 * read-only and read in the listed order, `@.` reading the untagged value, else the language whose tag
 * has the smallest FarmHash fingerprint.
 */
const SCHEMA = `
type City {
  id: ID!
  title: String! @search(by: [hash])
  titleFr: String @dgraph(pred: "City.title@fr") @search(by: [hash])
  titleDe: String @dgraph(pred: "City.title@de") @search(by: [exact])
  titleFrDe: String @dgraph(pred: "City.title@fr:de")
  titleDeFr: String @dgraph(pred: "City.title@de:fr")
  titleFrDeAny: String @dgraph(pred: "City.title@fr:de:.")
  titleAny: String @dgraph(pred: "City.title@.") @search(by: [hash])
  mottoEs: String @dgraph(pred: "City.motto@es")
  mottoIt: String @dgraph(pred: "City.motto@it")
  mottoAny: String @dgraph(pred: "City.motto@.")
}
`;

const ALL = 'title titleFr titleDe titleFrDe titleDeFr titleFrDeAny titleAny mottoEs mottoIt mottoAny';

let server: TestServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await makeTempDir('autograph-language-tags-');
  server = await startTestServer({ dataDir });
  await activateSchema(server.url, SCHEMA);
  await gqlData(server.url, 'mutation ($input: [AddCityInput!]!) { addCity(input: $input) { numUids } }', {
    input: [
      { title: 'Geneva', titleFr: 'Genève', titleDe: 'Genf', mottoEs: 'Después de las tinieblas, luz', mottoIt: 'Dopo le tenebre, la luce' },
      { title: 'Basel', titleFr: 'Bâle', mottoIt: 'Basilea' },
      { title: 'Chur', mottoEs: 'Coira' },
    ],
  });
});

afterAll(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const cities = async (filter: string, order = '{ asc: title }') =>
  (await gqlData(server.url, `{ queryCity(filter: ${filter}, order: ${order}) { ${ALL} } }`)).queryCity;

describe('reads', () => {
  it('each field reads its language, a preference its first language with a value, @. the untagged value first', async () => {
    expect(await cities('{}')).toEqual([
      { title: 'Basel', titleFr: 'Bâle', titleDe: null, titleFrDe: 'Bâle', titleDeFr: 'Bâle', titleFrDeAny: 'Bâle', titleAny: 'Basel', mottoEs: null, mottoIt: 'Basilea', mottoAny: 'Basilea' },
      { title: 'Chur', titleFr: null, titleDe: null, titleFrDe: null, titleDeFr: null, titleFrDeAny: 'Chur', titleAny: 'Chur', mottoEs: 'Coira', mottoIt: null, mottoAny: 'Coira' },
      {
        title: 'Geneva', titleFr: 'Genève', titleDe: 'Genf', titleFrDe: 'Genève', titleDeFr: 'Genf', titleFrDeAny: 'Genève', titleAny: 'Geneva',
        mottoEs: 'Después de las tinieblas, luz', mottoIt: 'Dopo le tenebre, la luce', mottoAny: expect.any(String),
      },
    ]);
  });

  it('@. without an untagged value reads the language whose tag has the smallest fingerprint, as Dgraph does', async () => {
    const [geneva] = await cities('{ title: { eq: "Geneva" } }');
    const first = fingerprint64('es') < fingerprint64('it') ? 'Después de las tinieblas, luz' : 'Dopo le tenebre, la luce';
    expect(geneva.mottoAny).toBe(first);
    expect(geneva.mottoAny).toBe('Después de las tinieblas, luz');
  });
});

describe('filters and orders', () => {
  it('filters and orders by a single language like any field', async () => {
    const found = await gqlData(server.url, `{ queryCity(filter: { or: [{ titleFr: { eq: "Bâle" } }, { titleDe: { ge: "G" } }] }, order: { desc: titleFr }) { title } }`);
    expect(found.queryCity).toEqual([{ title: 'Geneva' }, { title: 'Basel' }]);
  });

  it('@. filters match any stored language or the untagged value; eq null asks for none of them', async () => {
    expect((await cities('{ titleAny: { eq: "Genf" } }')).map((city: { title: string }) => city.title)).toEqual(['Geneva']);
    expect((await cities('{ titleAny: { in: ["Bâle", "Chur"] } }')).map((city: { title: string }) => city.title)).toEqual(['Basel', 'Chur']);
    expect((await cities('{ titleAny: { eq: "Zürich" } }'))).toEqual([]);
    expect((await cities('{ has: [titleAny, mottoAny] }')).map((city: { title: string }) => city.title)).toEqual(['Basel', 'Chur', 'Geneva']);
    expect((await cities('{ has: titleFr }')).map((city: { title: string }) => city.title)).toEqual(['Basel', 'Geneva']);
  });
});

describe('writes', () => {
  it('an update sets one language; the preferences follow', async () => {
    await gqlData(server.url, `mutation { updateCity(input: { filter: { title: { eq: "Chur" } }, set: { titleDe: "Chur (GR)" } }) { numUids } }`);
    const [chur] = await cities('{ title: { eq: "Chur" } }');
    expect(chur).toMatchObject({ titleDe: 'Chur (GR)', titleFrDe: 'Chur (GR)', titleDeFr: 'Chur (GR)', titleFrDeAny: 'Chur (GR)', titleAny: 'Chur' });
  });

  it('preferences are read-only: not in Add, Patch or Ref, nor orderable; a list of languages has no has', async () => {
    const { body } = await gql(server.url, `{
      add: __type(name: "AddCityInput") { inputFields { name } }
      patch: __type(name: "CityPatch") { inputFields { name } }
      orderable: __type(name: "CityOrderable") { enumValues { name } }
      has: __type(name: "CityHasFilter") { enumValues { name } }
      filter: __type(name: "CityFilter") { inputFields { name } }
    }`);
    const writable = ['title', 'titleFr', 'titleDe', 'mottoEs', 'mottoIt'];
    expect(body.data).toEqual({
      add: { inputFields: writable.map((name) => ({ name })) },
      patch: { inputFields: writable.map((name) => ({ name })) },
      orderable: { enumValues: writable.map((name) => ({ name })) },
      has: { enumValues: ['title', 'titleFr', 'titleDe', 'titleAny', 'mottoEs', 'mottoIt', 'mottoAny'].map((name) => ({ name })) },
      filter: { inputFields: ['id', 'title', 'titleFr', 'titleDe', 'titleAny', 'has', 'and', 'or', 'not'].map((name) => ({ name })) },
    });
    const refused = await gql(server.url, 'mutation { addCity(input: [{ title: "Bern", titleAny: "Berne" }]) { numUids } }');
    expect(refused.body.errors?.[0]?.message).toBe('Field "titleAny" is not defined by type "AddCityInput". Did you mean "title", "titleDe", or "titleFr"?');
    expect((await cities('{ title: { eq: "Bern" } }'))).toEqual([]);
  });

  it('each language is stored in a field of its own', async () => {
    const [stored] = await server.store.collection('City').find({ title: 'Geneva' });
    expect(stored).toMatchObject({ title: 'Geneva', 'City%2Etitle@fr': 'Genève', 'City%2Etitle@de': 'Genf', 'City%2Emotto@es': 'Después de las tinieblas, luz' });
    expect(Object.keys(stored!).filter((key) => key.includes('Any') || key.includes(':'))).toEqual([]);
  });
});

describe('schema rules (Dgraph\'s wording)', () => {
  test.each<[string, string, string]>([
    ['an Int field', 'n: Int @dgraph(pred: "T.n@en")', 'Type T; field n: Expected type `String` for language tag field but got `Int`'],
    ['@id', 'n: String @id @dgraph(pred: "T.n@en")', 'Type T; field n: @id directive not supported on language tag fields'],
    ['@search on a list of languages', 'n: String @dgraph(pred: "T.n@en:fr") @search(by: [hash])', 'Type T; field n: @search directive not applicable on language tag field with multiple languages'],
    ['`*`', 'n: String @dgraph(pred: "T.n@*")', 'Type T; field n: `*` language tag not supported in GraphQL'],
    ['an empty tag', 'n: String @dgraph(pred: "T.n@")', 'Type T; field n: empty language tag not supported'],
    ['two @', 'n: String @dgraph(pred: "T.n@en@fr")', 'Type T; field n: multiple language tag not supported'],
    ['a tag that is not one', 'n: String @dgraph(pred: "T.n@e n")', 'Type T; field n: "e n" is not a language tag (letters, then "-" and letters or digits, at most 35 characters; "." for any language)'],
    ['term on @.', 'n: String @dgraph(pred: "T.n@.") @search(by: [term])', 'Type T; field n: @search(by: [term]) is not supported on an any-language (@.) field here: its tokens are kept per stored value (hash, exact, regexp and trigram are)'],
  ])('refuses %s', async (_name, field, message) => {
    const response = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: `type T {\n  id: ID!\n  ${field}\n}\n` });
    const body = (await response.json()) as { errors?: Array<{ message: string }> };
    expect(body.errors?.map((error) => error.message)).toEqual([message]);
  });
});
