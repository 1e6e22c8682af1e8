import type { Collection, Store } from '../../src/store/port.js';
import { withCollections } from '../../src/store/with-collections.js';
import { pluck, useService } from './harness';

/**
 * `@cascade` over HTTP, with the data and queries of Dgraph's own end-to-end cases (queryWithCascade in
 * graphql/e2e/common/query.go): authors George (reputation, a post with text), Jerry (reputation, a
 * country, a post without text) and Kramer (a country, a post with text, no reputation).
 */

const SCHEMA = `
type Author {
  id: ID!
  name: String! @search(by: [hash])
  reputation: Float @search
  dob: DateTime
  country: Country
  posts: [Post] @hasInverse(field: author)
}

type Post {
  id: ID!
  title: String! @search(by: [term])
  text: String
  author: Author
}

type Country {
  id: ID!
  name: String
}
`;

/** Every read the service sends to the Author collection: `find` (filter and options) or `aggregate` (pipeline). */
const authorReads: unknown[] = [];

function recording(store: Store): Store {
  return withCollections(store, (name) => {
    const collection = store.collection(name);
    if (name !== 'Author') return collection;
    const recorded: Collection = {
      name: collection.name,
      find: (filter, options, scope) => {
        authorReads.push({ find: filter, options });
        return collection.find(filter, options, scope);
      },
      count: (filter, scope) => collection.count(filter, scope),
      aggregate: (pipeline, scope) => {
        authorReads.push({ aggregate: pipeline });
        return collection.aggregate(pipeline, scope);
      },
      findPerKey: (field, keys, filter, page, scope) => collection.findPerKey(field, keys, filter, page, scope),
      insertMany: (documents, scope) => collection.insertMany(documents, scope),
      updateMany: (filter, update, scope) => collection.updateMany(filter, update, scope),
      deleteMany: (filter, scope) => collection.deleteMany(filter, scope),
    };
    return recorded;
  });
}

/** Lookup names carry a digest of what they compute: shown as `<lookup>` so the table stays readable. */
function withoutDigests(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/__cascade_(\w+?)_[0-9a-f]{12}/g, '<$1 lookup>'));
}

const api = useService(SCHEMA, { wrapStore: recording });

beforeAll(async () => {
  await api.data(`mutation {
    addAuthor(input: [
      { name: "George", reputation: 4.5, posts: [{ title: "A show about nothing", text: "Got ya!" }] },
      { name: "Jerry", reputation: 4.6, country: { name: "outer Galaxy2" }, posts: [{ title: "Outside" }] },
      { name: "Kramer", country: { name: "outer space2" }, posts: [{ title: "Ha! Cosmo Kramer", text: "Giddy up!" }] }
    ]) { numUids }
  }`);
});

test('@cascade on queryT: only authors with every selected field, posts with text included (the cascade trickles down)', async () => {
  const result = await api.data(`{ queryAuthor(order: { asc: name }) @cascade { reputation posts { text } } }`);
  expect(result).toEqual({ queryAuthor: [{ reputation: 4.5, posts: [{ text: 'Got ya!' }] }] });
});

test('@cascade on a relation field: its objects are cut, the parents stay', async () => {
  const result = await api.data(`{ queryAuthor(order: { asc: name }) { name posts @cascade { title text } } }`);
  expect(result).toEqual({
    queryAuthor: [
      { name: 'George', posts: [{ title: 'A show about nothing', text: 'Got ya!' }] },
      { name: 'Jerry', posts: [] },
      { name: 'Kramer', posts: [{ title: 'Ha! Cosmo Kramer', text: 'Giddy up!' }] },
    ],
  });
});

test('@cascade written in a named fragment or an inline fragment applies as if written in place', async () => {
  const expected = {
    queryAuthor: [
      { name: 'George', posts: [{ title: 'A show about nothing', text: 'Got ya!' }] },
      { name: 'Jerry', posts: [] },
      { name: 'Kramer', posts: [{ title: 'Ha! Cosmo Kramer', text: 'Giddy up!' }] },
    ],
  };
  const named = await api.data(`{ queryAuthor(order: { asc: name }) { ...Written } } fragment Written on Author { name posts @cascade { title text } }`);
  expect(named).toEqual(expected);
  const inline = await api.data(`{ queryAuthor(order: { asc: name }) { ... on Author { name posts @cascade { title text } } } }`);
  expect(inline).toEqual(expected);
  // The same operation text without the directive, answered before and after: nothing is cut.
  const uncut = await api.data(`{ queryAuthor(order: { asc: name }) { ...Plain } } fragment Plain on Author { name posts { title text } }`);
  expect(uncut.queryAuthor[1]).toEqual({ name: 'Jerry', posts: [{ title: 'Outside', text: null }] });
});

test('@cascade(fields:) at the top only requires the listed fields: a null country keeps its author', async () => {
  const result = await api.data(`{ queryAuthor(order: { asc: name }) @cascade(fields: ["name"]) { name reputation country { name } } }`);
  expect(result).toEqual({
    queryAuthor: [
      { name: 'George', reputation: 4.5, country: null },
      { name: 'Jerry', reputation: 4.6, country: { name: 'outer Galaxy2' } },
      { name: 'Kramer', reputation: null, country: { name: 'outer space2' } },
    ],
  });
});

test('@cascade(fields:) at two levels, from variables (Dgraph\'s "parameterized cascade at all levels")', async () => {
  const result = await api.data(`query($top: [String], $deep: [String]) {
    queryAuthor(order: { asc: name }) @cascade(fields: $top) { reputation name dob posts @cascade(fields: $deep) { title text } }
  }`, { top: ['reputation', 'name'], deep: ['text'] });
  expect(result).toEqual({
    queryAuthor: [
      { reputation: 4.5, name: 'George', dob: null, posts: [{ title: 'A show about nothing', text: 'Got ya!' }] },
      { reputation: 4.6, name: 'Jerry', dob: null, posts: [] },
    ],
  });
});

test('@cascade(fields:) may list a field the query does not select, the ID included', async () => {
  const result = await api.data(`{ queryAuthor(order: { asc: name }) @cascade(fields: ["reputation", "id"]) { name } }`);
  expect(pluck(result.queryAuthor, 'name')).toEqual(['George', 'Jerry']);
});

test('@cascade on getT: null when the object lacks a selected field', async () => {
  const { queryAuthor } = await api.data(`{ queryAuthor(order: { asc: name }) { id name } }`);
  const [george, jerry] = queryAuthor;
  const query = `query($id: ID!) { getAuthor(id: $id) @cascade { reputation posts { text } } }`;
  expect(await api.data(query, { id: jerry.id })).toEqual({ getAuthor: null });
  expect(await api.data(query, { id: george.id })).toEqual({ getAuthor: { reputation: 4.5, posts: [{ text: 'Got ya!' }] } });
});

test('first and offset count the objects the cascade keeps', async () => {
  const result = await api.data(`{
    first: queryAuthor(order: { asc: name }, first: 1) @cascade { name country { name } }
    second: queryAuthor(order: { asc: name }, first: 1, offset: 1) @cascade { name country { name } }
    third: queryAuthor(order: { asc: name }, first: 1, offset: 2) @cascade { name country { name } }
  }`);
  expect(result).toEqual({
    first: [{ name: 'Jerry', country: { name: 'outer Galaxy2' } }],
    second: [{ name: 'Kramer', country: { name: 'outer space2' } }],
    third: [],
  });
});

test('a relation\'s filter decides which related objects keep the parent', async () => {
  const result = await api.data(`{ queryAuthor(order: { asc: name }) @cascade { name posts(filter: { title: { anyofterms: "Cosmo nothing" } }) { title } } }`);
  expect(result).toEqual({
    queryAuthor: [
      { name: 'George', posts: [{ title: 'A show about nothing' }] },
      { name: 'Kramer', posts: [{ title: 'Ha! Cosmo Kramer' }] },
    ],
  });
});

describe('GraphQL in, the store read out: the cascade is part of the query, first and offset come after it', () => {
  test.each([
    [
      'selected scalars: a plain find',
      '{ queryAuthor(first: 2) @cascade { name reputation } }',
      [{ find: { name: { $ne: null }, reputation: { $ne: null } }, options: { sort: { _id: 1 }, skip: 0, limit: 2 } }],
    ],
    [
      'fields: lists what is required, selected or not',
      '{ queryAuthor @cascade(fields: ["dob"]) { name } }',
      [{ find: { dob: { $ne: null } }, options: { sort: { _id: 1 }, skip: 0, limit: 1000 } }],
    ],
    [
      'a derived list relation: a semi-join on the inverse field, stopping at the first related object',
      '{ queryAuthor(first: 1, offset: 1) @cascade { name posts { text } } }',
      [{
        aggregate: [
          { $lookup: { from: 'Post', localField: '_id', foreignField: 'author', pipeline: [{ $match: { text: { $ne: null } } }, { $limit: 1 }, { $project: { _id: 1 } }], as: '<posts lookup>' } },
          { $match: { name: { $ne: null }, '<posts lookup>.0': { $exists: true } } },
          { $sort: { _id: 1 } },
          { $skip: 1 },
          { $limit: 1 },
        ],
      }],
    ],
    [
      'a stored single relation: the related object joined by its id, tested in place',
      '{ queryAuthor @cascade { country { name } } }',
      [{
        aggregate: [
          { $lookup: { from: 'Country', localField: 'country', foreignField: '_id', as: '<country lookup>' } },
          { $match: { '<country lookup>': { $elemMatch: { name: { $ne: null } } } } },
          { $sort: { _id: 1 } },
          { $limit: 1000 },
        ],
      }],
    ],
  ])('%s', async (_name, query, reads) => {
    authorReads.length = 0;
    await api.data(query);
    expect(withoutDigests(authorReads)).toEqual(reads);
  });
});

test('@cascade on a mutation payload\'s list keeps only the new objects with every selected field', async () => {
  const result = await api.data(`mutation {
    addAuthor(input: [{ name: "Elaine", reputation: 4.9 }, { name: "Newman" }]) { numUids author(order: { asc: name }) @cascade { name reputation } }
  }`);
  expect(result).toEqual({ addAuthor: { numUids: 2, author: [{ name: 'Elaine', reputation: 4.9 }] } });
  await api.data(`mutation { deleteAuthor(filter: { name: { in: ["Elaine", "Newman"] } }) { numUids } }`);
});

test('@cascade(fields:) naming a field the type lacks is the client\'s error', async () => {
  expect(await api.errors(`{ queryAuthor @cascade(fields: ["title"]) { name } }`)).toEqual([{
    code: 'BAD_USER_INPUT',
    message: '@cascade(fields:) names "title", which type Author does not have (its fields: id, name, reputation, dob, country, posts)',
  }]);
});

test('@cascade is a field directive: elsewhere it fails validation', async () => {
  expect(await api.errors(`query @cascade { queryAuthor { name } }`)).toEqual([{
    code: 'GRAPHQL_VALIDATION_FAILED',
    message: 'Directive "@cascade" may not be used on QUERY.',
  }]);
});
