import { compileAggregate } from '../../src/query/aggregate.js';
import { compileFilter } from '../../src/query/filter.js';
import { compileOrder } from '../../src/query/order.js';
import { indexesFor } from '../../src/store/indexes.js';
import { validModel } from '../sdl/helpers.js';

/** GraphQL arguments in → MongoDB documents out, for fields stored under `@dgraph(pred:)` names. */

const model = validModel([
  'type Post @dgraph(type: "dgraph.Post") {',
  '  id: ID!',
  '  title: String @dgraph(pred: "Post.title") @search(by: [hash, term])',
  '  score: Int @dgraph(pred: "$score") @search',
  '  author: Author @dgraph(pred: "Post.author")',
  '}',
  'type Author {',
  '  id: ID!',
  '  name: String @search(by: [exact])',
  '  posts: [Post] @dgraph(pred: "~Post.author")',
  '}',
].join('\n'));

describe('filters', () => {
  const cases: Array<[what: string, typeName: string, filter: Record<string, unknown>, expected: unknown]> = [
    ['eq on a renamed field', 'Post', { title: { eq: 'A' } }, { lookups: [], match: { 'Post%2Etitle': { $eq: 'A' } } }],
    ['a leading $ is escaped', 'Post', { score: { gt: 3 } }, { lookups: [], match: { '%24score': { $gt: 3 } } }],
    ['term tokens live beside the stored name', 'Post', { title: { anyofterms: 'Red Sky' } }, { lookups: [], match: { '_term_Post%2Etitle': { $in: ['red', 'sky'] } } }],
    ['has on a stored relation', 'Post', { has: ['author'] }, { lookups: [], match: { 'Post%2Eauthor': { $exists: true, $ne: null } } }],
  ];
  it.each(cases)('%s', (_what, typeName, filter, expected) => {
    expect(compileFilter(model, typeName, filter)).toEqual(expected);
  });

  it('the reverse edge joins on the forward edge\'s stored name, by type name (the store maps the collection)', () => {
    const plan = compileFilter(model, 'Author', { has: ['posts'] });
    expect(plan.lookups).toEqual([expect.objectContaining({ $lookup: expect.objectContaining({ from: 'Post', localField: '_id', foreignField: 'Post%2Eauthor' }) })]);
  });
});

describe('order and aggregates', () => {
  it('sorts by the stored name', () => {
    expect(compileOrder(model, 'Post', { desc: 'score', then: { asc: 'title' } })).toEqual({ '%24score': -1, 'Post%2Etitle': 1, _id: 1 });
  });

  it('aggregates the stored values under the result field names', () => {
    const group = compileAggregate(model, 'Post', { lookups: [], match: {} }, ['scoreMax', 'titleMin']).at(-1);
    expect(group).toEqual({ $group: { _id: null, scoreMax: { $max: '$%24score' }, titleMin: { $min: '$Post%2Etitle' } } });
  });
});

describe('indexes', () => {
  it('are made on the stored collection and names', () => {
    const byCollection = Object.fromEntries([...indexesFor(model)].map(([collection, specs]) => [collection, specs.map((spec) => [spec.name, spec.keys])]));
    expect(byCollection).toEqual({
      'dgraph%2EPost': [['ag_search_Post%2Etitle', { 'Post%2Etitle': 1 }], ['ag_term_Post%2Etitle', { '_term_Post%2Etitle': 1 }], ['ag_search_%24score', { '%24score': 1 }], ['ag_rel_Post%2Eauthor', { 'Post%2Eauthor': 1 }]],
      Author: [['ag_search_name', { name: 1 }]],
    });
  });
});
