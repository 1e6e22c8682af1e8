import { explain, planAccess } from '../../src/store/embedded/access-plan.js';
import type { Filter, IndexSpec, SortSpec } from '../../src/store/port.js';

const INDEXES: IndexSpec[] = [
  { name: 'ag_search_completed', keys: { completed: 1 } },
  { name: 'ag_search_createdAt', keys: { createdAt: 1 } },
  { name: 'ag_search_priority', keys: { priority: 1 } },
  { name: 'ag_term_title', keys: { _term_title: 1 } },
  { name: 'ag_id_slug', keys: { slug: 1 }, unique: true, sparse: true },
  { name: 'ag_slug_plain', keys: { slug: 1 } },
  { name: 'ag_nested', keys: { 'meta.key': 1 } },
  { name: 'ag_compound', keys: { user: 1, priority: 1 } },
];

type Case = [description: string, filter: Filter, sort: SortSpec | undefined, keep: number | undefined, plan: string];

const CASES: Case[] = [
  ['no filter: a scan', {}, undefined, undefined, 'SCAN all documents'],
  ['unindexed field: a scan with the whole filter', { title: 'a' }, undefined, undefined, 'SCAN all documents\nFILTER {"title":"a"}'],
  ['_id equality', { _id: 'x' }, undefined, undefined, 'IDS ["x"]'],
  ['_id $in keeps only strings', { _id: { $in: ['x', 5, 'y'] } }, undefined, undefined, 'IDS ["x","y"]'],
  ['_id $in beside $ne: narrows, keeps the condition', { _id: { $in: ['x'], $ne: 'x' } }, undefined, undefined, 'IDS ["x"]\nFILTER {"_id":{"$in":["x"],"$ne":"x"}}'],
  ['Boolean equality answered', { completed: true }, undefined, undefined, 'INDEX ag_search_completed: completed in [true]'],
  ['$eq answered', { completed: { $eq: false } }, undefined, undefined, 'INDEX ag_search_completed: completed in [false]'],
  [
    'term + Boolean: two lookups, nothing left',
    { _term_title: { $in: ['urgent', 'review'] }, completed: false },
    undefined,
    undefined,
    'INDEX ag_term_title: _term_title in ["urgent","review"]\nAND INDEX ag_search_completed: completed in [false]',
  ],
  [
    '$all: one lookup per term, kept to be tested (needs an array)',
    { _term_title: { $all: ['urgent', 'review'] } },
    undefined,
    undefined,
    'INDEX ag_term_title: _term_title in ["urgent"]\nAND INDEX ag_term_title: _term_title in ["review"]\nFILTER {"_term_title":{"$all":["urgent","review"]}}',
  ],
  [
    'range with two bounds: two lookups, answered',
    { createdAt: { $gte: '2024-01-01', $lt: '2024-02-01' } },
    undefined,
    undefined,
    'INDEX ag_search_createdAt: createdAt $gte "2024-01-01"\nAND INDEX ag_search_createdAt: createdAt $lt "2024-02-01"',
  ],
  ['range on numbers', { priority: { $gt: 3 } }, undefined, undefined, 'INDEX ag_search_priority: priority $gt 3'],
  ['null equality: not an index lookup', { priority: null }, undefined, undefined, 'SCAN all documents\nFILTER {"priority":null}'],
  ['$gt null or a Boolean: not a range lookup', { priority: { $gt: null }, completed: { $gt: false } }, undefined, undefined, 'SCAN all documents\nFILTER {"priority":{"$gt":null},"completed":{"$gt":false}}'],
  [
    'an operator beside a lookup: narrows, kept',
    { priority: { $gte: 2, $ne: 4 } },
    undefined,
    undefined,
    'INDEX ag_search_priority: priority $gte 2\nFILTER {"priority":{"$gte":2,"$ne":4}}',
  ],
  ['a unique index is preferred', { slug: 'p-1' }, undefined, undefined, 'INDEX ag_id_slug: slug in ["p-1"]'],
  ['dotted path: narrows only', { 'meta.key': 'k' }, undefined, undefined, 'INDEX ag_nested: meta.key in ["k"]\nFILTER {"meta.key":"k"}'],
  ['compound index: no lookup', { user: 'u1' }, undefined, undefined, 'SCAN all documents\nFILTER {"user":"u1"}'],
  [
    'inside $and: narrows only',
    { $and: [{ completed: true }, { title: 'a' }] },
    undefined,
    undefined,
    'INDEX ag_search_completed: completed in [true]\nFILTER {"$and":[{"completed":true},{"title":"a"}]}',
  ],
  ['$or: a scan', { $or: [{ completed: true }, { priority: 1 }] }, undefined, undefined, 'SCAN all documents\nFILTER {"$or":[{"completed":true},{"priority":1}]}'],
  [
    'sorted page: walk the index of the first sort field',
    { _term_title: { $in: ['urgent'] }, completed: false },
    { createdAt: -1, _id: 1 },
    20,
    'INDEX ag_term_title: _term_title in ["urgent"]\nAND INDEX ag_search_completed: completed in [false]\nORDER BY INDEX ag_search_createdAt: createdAt desc, first 20',
  ],
  ['sort without a page: no walk', {}, { createdAt: 1, _id: 1 }, undefined, 'SCAN all documents'],
  ['sort by _id: walk the ids in order', { completed: true }, { _id: -1 }, 10, 'INDEX ag_search_completed: completed in [true]\nORDER BY INDEX _id_: _id desc, first 10'],
  ['sort by _id without a page: no walk', {}, { _id: 1 }, undefined, 'SCAN all documents'],
  ['sort by an unindexed field: no walk', {}, { title: 1, _id: 1 }, 10, 'SCAN all documents'],
  ['sort on a sparse index: no walk (it lacks documents without the field)', {}, { slug: 1 }, 10, 'SCAN all documents'],
  ['only the first sort field counts', {}, { title: 1, createdAt: 1 }, 10, 'SCAN all documents'],
];

describe('planAccess', () => {
  it.each(CASES)('%s', (_, filter, sort, keep, expected) => {
    expect(explain(planAccess(filter, sort, INDEXES, keep))).toBe(expected);
  });

  it('leaves in the residual exactly what the lookups do not answer', () => {
    const filter = { completed: true, priority: { $gt: 2, $ne: 4 }, title: { $regex: '^a' }, 'meta.key': 'k' };
    expect(planAccess(filter, undefined, INDEXES).residual).toEqual({ priority: { $gt: 2, $ne: 4 }, title: { $regex: '^a' }, 'meta.key': 'k' });
  });

  it('does not change the filter it plans', () => {
    const filter = { completed: true, _term_title: { $in: ['a'] } };
    const copy = structuredClone(filter);
    planAccess(filter, { createdAt: 1 }, INDEXES, 5);
    expect(filter).toEqual(copy);
  });
});
