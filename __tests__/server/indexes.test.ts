import { buildSchemaModel } from '../../src/sdl/build';
import type { SchemaModel } from '../../src/sdl/model';
import { indexesFor } from '../../src/store/indexes';

function model(source: string): SchemaModel {
  const { model: built, errors } = buildSchemaModel(source);
  if (!built) throw new Error(`test schema does not build: ${JSON.stringify(errors)}`);
  return built;
}

describe('indexesFor', () => {
  it('indexes @id, searched fields, text-token arrays and relations stored on this side', () => {
    const indexes = indexesFor(
      model(`
enum Genre { ROCK JAZZ }
interface Named {
  name: String! @search(by: [exact])
}
type Album implements Named {
  id: ID!
  code: String! @id
  title: String! @search(by: [hash, term, fulltext])
  summary: String @search(by: [trigram])
  released: DateTime @search
  rating: Float @search
  tracks: Int @search(by: [int])
  live: Boolean @search
  genre: Genre @search(by: [hash])
  notes: String
  label: Label
  artists: [Artist] @hasInverse(field: albums)
}
type Artist {
  id: ID!
  albums: [Album]
}
type Label {
  id: ID!
  albums: [Album] @hasInverse(field: label)
}
`),
    );
    expect([...indexes.keys()]).toEqual(['Album', 'Artist', 'Label']);
    expect(indexes.get('Album')).toEqual([
      { name: 'ag_search_name', keys: { name: 1 } },
      { name: 'ag_unique_code', keys: { code: 1 }, unique: true, partialFilterExpression: { code: { $type: 'string' } } },
      { name: 'ag_search_title', keys: { title: 1 } },
      { name: 'ag_term_title', keys: { _term_title: 1 } },
      { name: 'ag_fulltext_title', keys: { _fulltext_title: 1 } },
      { name: 'ag_search_released', keys: { released: 1 } },
      { name: 'ag_search_rating', keys: { rating: 1 } },
      { name: 'ag_search_tracks', keys: { tracks: 1 } },
      { name: 'ag_search_live', keys: { live: 1 } },
      { name: 'ag_search_genre', keys: { genre: 1 } },
      { name: 'ag_rel_label', keys: { label: 1 } },
      // Both sides are lists: the side declaring @hasInverse stores the ids.
      { name: 'ag_rel_artists', keys: { artists: 1 } },
    ]);
    expect(indexes.get('Artist')).toEqual([]);
    // Label.albums is derived from Album.label, so Label stores nothing to index.
    expect(indexes.get('Label')).toEqual([]);
  });

  it('gives an @id field only its unique index, even when it is also searched', () => {
    const indexes = indexesFor(model('type User {\n  username: String! @id @search(by: [hash])\n  name: String\n}\n'));
    expect(indexes.get('User')).toEqual([
      { name: 'ag_unique_username', keys: { username: 1 }, unique: true, partialFilterExpression: { username: { $type: 'string' } } },
    ]);
  });

  it.each<[string, string]>([
    ['Int', 'number'],
    ['Int64', 'number'],
    ['String', 'string'],
  ])('an @id field of type %s is unique among the documents holding a %s there', (scalar, bsonType) => {
    const indexes = indexesFor(model(`type Item {\n  code: ${scalar}! @id\n}\n`));
    expect(indexes.get('Item')).toEqual([{ name: 'ag_unique_code', keys: { code: 1 }, unique: true, partialFilterExpression: { code: { $type: bsonType } } }]);
  });

  it('leaves out external and computed fields, and the ID field (it is _id)', () => {
    const indexes = indexesFor(
      model(`
type Mission @key(fields: "id") @extends {
  id: ID! @external
  code: String @external
  crew: [Astronaut]
}
type Astronaut @key(fields: "id") {
  id: ID!
  name: String @search(by: [hash])
}
`),
    );
    expect(indexes.get('Mission')).toEqual([{ name: 'ag_rel_crew', keys: { crew: 1 } }]);
    expect(indexes.get('Astronaut')).toEqual([{ name: 'ag_search_name', keys: { name: 1 } }]);
  });
});
