import fs from 'node:fs';
import { activateSchema, gql, gqlData } from '../helpers/gql';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

/**
 * Dgraph's `ngram` index through the HTTP endpoint, on the run's store: `StringNgramFilter { ngram }`
 * matches a value holding any of the query's runs of three full-text words (or the whole query when it
 * has fewer), words lowercased, stop words left out and stemmed, as Dgraph's e2e `Article` tests show.
 */
const SCHEMA = `
type Guide {
  id: ID!
  heading: String! @search(by: [ngram, regexp])
  notes: [String] @search(by: [ngram])
  kind: Kind @search(by: [ngram])
  body: String
}

enum Kind { WALKING_TOUR CYCLING_ROUTE }
`;

const GUIDES = [
  { heading: 'Walking along the Northern Coast', notes: ['Cliff paths give the finest sea views', 'Pack water for long hot stretches'], kind: 'WALKING_TOUR', body: 'Start at the old harbour lighthouse' },
  { heading: 'Cycling Routes for Mountain Passes', notes: ['Steep gradients reward patient climbers', 'Descents need working brakes and care'], kind: 'CYCLING_ROUTE', body: 'Rent bikes in the valley town' },
  { heading: 'Camping and Cooking Outdoors', notes: ['Simple stoves cook hearty meals quickly', 'How to cook: camping and cooking outdoors safely'], body: 'Bring a lighthouse shaped lantern' },
];

let server: TestServer;
let dataDir: string;

const headings = async (filter: string, variables?: Record<string, unknown>): Promise<string[]> =>
  (await gqlData(server.url, `query ${variables ? '($q: String)' : ''} { queryGuide(filter: ${filter}, order: { asc: heading }) { heading } }`, variables)).queryGuide.map(
    (guide: { heading: string }) => guide.heading,
  );

const byHeading = (q: string) => headings('{ heading: { ngram: $q } }', { q });
const byNotes = (q: string) => headings('{ notes: { ngram: $q } }', { q });

beforeAll(async () => {
  dataDir = await makeTempDir('autograph-ngram-');
  server = await startTestServer({ dataDir });
  await activateSchema(server.url, SCHEMA);
  await gqlData(server.url, 'mutation ($input: [AddGuideInput!]!) { addGuide(input: $input) { numUids } }', { input: GUIDES });
});

afterAll(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the generated filter', () => {
  it('is Dgraph\'s StringNgramFilter, merged with the field\'s other indexes in index-name order', async () => {
    const { body } = await gql(server.url, `{
      guide: __type(name: "GuideFilter") { inputFields { name type { name } } }
      merged: __type(name: "StringNgramFilter_StringRegExpFilter") { inputFields { name type { name } } }
      ngram: __type(name: "StringNgramFilter") { inputFields { name type { name } } }
    }`);
    expect(body.data).toEqual({
      guide: {
        inputFields: [
          { name: 'id', type: { name: null } },
          { name: 'heading', type: { name: 'StringNgramFilter_StringRegExpFilter' } },
          { name: 'notes', type: { name: 'StringNgramFilter' } },
          { name: 'kind', type: { name: 'StringNgramFilter' } },
          { name: 'has', type: { name: null } },
          { name: 'and', type: { name: null } },
          { name: 'or', type: { name: null } },
          { name: 'not', type: { name: 'GuideFilter' } },
        ],
      },
      merged: { inputFields: [{ name: 'ngram', type: { name: 'String' } }, { name: 'regexp', type: { name: 'String' } }] },
      ngram: { inputFields: [{ name: 'ngram', type: { name: 'String' } }] },
    });
  });
});

describe('matching', () => {
  test.each<[string, string, string[]]>([
    ['one word', 'Cycling', ['Cycling Routes for Mountain Passes']],
    ['two words next to each other', 'Northern Coast', ['Walking along the Northern Coast']],
    ['three words', 'Camping and Cooking', ['Camping and Cooking Outdoors']],
    ['a stem of a word', 'walk', ['Walking along the Northern Coast']],
    ['another form of the word', 'cooked', ['Camping and Cooking Outdoors']],
    ['any case', 'MOUNTAIN PASSES', ['Cycling Routes for Mountain Passes']],
    ['stop words are left out of the query', 'for Mountain', ['Cycling Routes for Mountain Passes']],
    ['words apart in the text do not make a run', 'Cycling Mountain', []],
    ['words in another order do not make a run', 'Coast Northern', []],
    ['a word no heading has', 'swimming', []],
    ['only stop words', 'the and for', []],
    ['an empty query', '', []],
  ])('heading: %s (%j)', async (_name, q, expected) => {
    expect(await byHeading(q)).toEqual(expected);
  });

  test.each<[string, string, string[]]>([
    ['a word of one item', 'brakes', ['Cycling Routes for Mountain Passes']],
    ['a run inside one item', 'finest sea views', ['Walking along the Northern Coast']],
    ['words that meet once a stop word is left out', 'cook camping cooking', ['Camping and Cooking Outdoors']],
    ['a run does not span two items', 'stretches cliff', []],
    ['any of the runs of a longer query', 'gradients reward patient climbers on rocky trails', ['Cycling Routes for Mountain Passes']],
    ['none of the runs of a longer query', 'patient climbers on rocky trails', []],
    ['a word of several items', 'cook', ['Camping and Cooking Outdoors']],
  ])('notes: %s (%j)', async (_name, q, expected) => {
    expect(await byNotes(q)).toEqual(expected);
  });

  it('an enum value is tokenised as text: its name is one word', async () => {
    expect(await headings('{ kind: { ngram: "walking_tour" } }')).toEqual(['Walking along the Northern Coast']);
    expect(await headings('{ kind: { ngram: "CYCLING_ROUTE" } }')).toEqual(['Cycling Routes for Mountain Passes']);
    expect(await headings('{ kind: { ngram: "walking tour" } }')).toEqual([]);
  });

  it('combines with the field\'s other index and with other filters', async () => {
    expect(await headings('{ heading: { ngram: "outdoors", regexp: "/^Camp/" } }')).toEqual(['Camping and Cooking Outdoors']);
    expect(await headings('{ heading: { ngram: "outdoors", regexp: "/^Walk/" } }')).toEqual([]);
    expect(await headings('{ or: [{ heading: { ngram: "coast" } }, { notes: { ngram: "stoves" } }] }')).toEqual(['Camping and Cooking Outdoors', 'Walking along the Northern Coast']);
    expect(await headings('{ not: { heading: { ngram: "coast" } } }')).toEqual(['Camping and Cooking Outdoors', 'Cycling Routes for Mountain Passes']);
  });

  it('refuses ngram on a field without the index', async () => {
    const { body } = await gql(server.url, '{ queryGuide(filter: { body: { ngram: "lighthouse" } }) { heading } }');
    expect(body.errors?.[0]?.message).toBe('Field "body" is not defined by type "GuideFilter".');
  });
});

describe('writes keep the tokens in step', () => {
  it('an update replaces a list\'s tokens, and removing items removes theirs', async () => {
    await gqlData(server.url, `mutation { updateGuide(input: { filter: { heading: { ngram: "camping cooking outdoors" } }, set: { notes: ["Lakeside pitches fill early"] } }) { numUids } }`);
    expect(await byNotes('stoves')).toEqual([]);
    expect(await byNotes('lakeside pitches')).toEqual(['Camping and Cooking Outdoors']);
    await gqlData(server.url, `mutation { updateGuide(input: { filter: { heading: { ngram: "camping" } }, remove: { notes: ["Lakeside pitches fill early"] } }) { numUids } }`);
    expect(await byNotes('lakeside')).toEqual([]);
    await gqlData(server.url, `mutation { updateGuide(input: { filter: { heading: { ngram: "camping" } }, set: { notes: ["Simple stoves cook hearty meals quickly", "How to cook: camping and cooking outdoors safely"] } }) { numUids } }`);
    expect(await byNotes('stoves')).toEqual(['Camping and Cooking Outdoors']);
  });
});

describe('the index on the store', () => {
  it('is a multikey index over the stored tokens', async () => {
    const indexes = await server.store.listIndexes('Guide');
    expect(indexes.filter((index) => index.name.startsWith('ag_ngram_')).map(({ name, keys }) => ({ name, keys }))).toEqual([
      { name: 'ag_ngram_heading', keys: { _ngram_heading: 1 } },
      { name: 'ag_ngram_notes', keys: { _ngram_notes: 1 } },
      { name: 'ag_ngram_kind', keys: { _ngram_kind: 1 } },
    ]);
  });

  it('a field that gains the index gets tokens for the objects stored before', async () => {
    expect((await gql(server.url, '{ queryGuide(filter: { body: { ngram: "lighthouse" } }) { heading } }')).body.errors).toBeDefined();
    await activateSchema(server.url, SCHEMA.replace('body: String', 'body: String @search(by: [ngram])'));
    expect(await headings('{ body: { ngram: "lighthouse" } }')).toEqual(['Camping and Cooking Outdoors', 'Walking along the Northern Coast']);
    expect(await headings('{ body: { ngram: "old harbour lighthouses" } }')).toEqual(['Walking along the Northern Coast']);
    const indexes = await server.store.listIndexes('Guide');
    expect(indexes.map((index) => index.name)).toContain('ag_ngram_body');
  });
});
