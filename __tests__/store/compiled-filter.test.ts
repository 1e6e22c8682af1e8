import { Query } from 'mingo';
import { compilePredicate } from '../../src/store/embedded/compiled-filter.js';
import type { Filter } from '../../src/store/port.js';

/** One document per stored value kind in `f`, plus nested objects and arrays of objects in `h`. */
const VALUES: unknown[] = [
  'a', 'b', '1', '', '2024-01-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z', 1, 2, 1.5, 0, -3, true, false, null,
  [], ['a', 1], [1, 5], [['a']], [[1]], [null], [2, 2], ['b', true], [{ x: 'a' }], { x: 'a' }, { x: 1, y: [1, 2] }, {},
];
const NESTED: unknown[] = [
  { x: 'a' }, { x: 1 }, { x: null }, {}, { x: ['a', 'b'] }, { x: { y: 2 } }, 'a', ['a'], [{ x: 'a' }, { x: 1 }], [{ x: ['a'] }], [{}, { x: 'b' }], [],
];

const documents: Record<string, unknown>[] = [];
VALUES.forEach((value, i) => {
  documents.push({ _id: `f${i}`, f: value, n: i, h: NESTED[i % NESTED.length] });
  documents.push({ _id: `g${i}`, g: value, n: -i });
});
documents.push({ _id: 'empty' });

/** Filters the predicate must compile (each is checked against mingo on every document). */
const COMPILED: Filter[] = [
  {},
  { f: 'a' }, { f: 1 }, { f: true }, { f: false }, { f: null }, { f: '' }, { f: 0 },
  { f: { $eq: 'a' } }, { f: { $eq: null } }, { f: { $ne: 'a' } }, { f: { $ne: null } }, { f: { $ne: 1 } },
  { f: { $in: ['a', 1] } }, { f: { $in: [null, true] } }, { f: { $in: [] } }, { f: { $nin: ['a', 2] } }, { f: { $nin: [null] } }, { f: { $nin: [] } },
  { f: { $gt: 1 } }, { f: { $gte: 1 } }, { f: { $lt: 2 } }, { f: { $lte: 0 } }, { f: { $gt: 'a' } }, { f: { $lt: 'b' } },
  { f: { $gte: '2024-01-01T00:00:00.000Z', $lt: '2024-06-01T00:00:00.000Z' } }, { f: { $gt: 1, $lt: 5 } }, { f: { $gte: -3, $lte: 1.5 } },
  { f: { $exists: true } }, { f: { $exists: false } }, { g: { $exists: false }, f: { $ne: 'b' } },
  { f: { $size: 0 } }, { f: { $size: 2 } },
  { f: { $all: ['a'] } }, { f: { $all: ['a', 1] } }, { f: { $all: [2] } },
  { f: { $not: { $gt: 1 } } }, { f: { $not: { $in: ['a', null] } } }, { f: { $not: { $exists: true } } },
  { f: { $elemMatch: { $gt: 1 } } }, { f: { $elemMatch: { $gte: 1, $lt: 2 } } }, { f: { $elemMatch: { x: 'a' } } }, { h: { $elemMatch: { x: { $in: ['a', 'b'] } } } },
  { $or: [{ f: 'a' }, { g: 1 }] }, { $and: [{ f: { $gt: 0 } }, { n: { $lt: 20 } }] }, { $nor: [{ f: null }, { f: { $gt: 0 } }] },
  { $or: [{ f: { $exists: false } }, { $and: [{ n: { $gte: 3 } }, { f: { $nin: ['a'] } }] }] },
  { 'f.x': 'a' }, { 'f.x': null }, { 'f.x': { $exists: true } }, { 'f.y': 1 }, { 'f.y': { $size: 2 } },
  { 'h.x': 'a' }, { 'h.x': { $in: ['a', 1] } }, { 'h.x': null }, { 'h.x': { $ne: 'a' } }, { 'h.x': { $exists: false } }, { 'h.x.y': { $gt: 1 } },
];

/** Filters left to mingo: the predicate does not compile. */
const LEFT_TO_MINGO: Filter[] = [
  { f: /a/ }, { f: { $regex: '^a' } }, { f: { x: 'a' } }, { f: ['a', 1] }, { f: { $eq: ['a', 1] } }, { f: { $in: [['a']] } },
  { f: { $gt: null } }, { f: { $gt: true } }, { f: { $type: 'string' } }, { f: { $mod: [2, 0] } }, { f: { $all: [] } },
  { f: { $not: /a/ } }, { f: { $exists: 1 } }, { f: { $size: 1.5 } }, { $expr: { $eq: ['$f', 1] } }, { $or: [] }, { constructor: 'a' },
  { 'f.0': 'a' }, { f: { $gt: 1, x: 2 } }, { f: {} }, { $where: 'true' }, { f: { $elemMatch: {} } },
];

describe('compiled filter predicates', () => {
  it.each(COMPILED.map((filter) => [JSON.stringify(filter), filter]))('%s matches exactly the documents mingo matches', (_, filter) => {
    const predicate = compilePredicate(filter);
    expect(predicate).toBeDefined();
    const query = new Query(filter);
    const differing = documents
      .map((document) => ({ _id: document._id, compiled: predicate!(document), mingo: query.test(document) }))
      .filter(({ compiled, mingo }) => compiled !== undefined && compiled !== mingo);
    expect(differing).toEqual([]);
  });

  it('gives a verdict on every document, except where a dotted path meets an array or $elemMatch an array element', () => {
    // $elemMatch on values has no verdict on an element that is an array; as a query, on one that is no document.
    const isDocument = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
    for (const filter of COMPILED) {
      const predicate = compilePredicate(filter)!;
      if (Object.keys(filter).some((key) => key.includes('.'))) continue;
      const [field, condition] = Object.entries(filter)[0] ?? ['', undefined];
      const elemMatch = isDocument(condition) ? ((condition as Record<string, unknown>).$elemMatch as Record<string, unknown> | undefined) : undefined;
      const undecidedElement = elemMatch && Object.keys(elemMatch)[0]!.startsWith('$') ? Array.isArray : (item: unknown) => !isDocument(item);
      const undecided = documents.filter((document) => predicate(document) === undefined).map((document) => document._id);
      const expected = elemMatch
        ? documents.filter((document) => Array.isArray(document[field]) && (document[field] as unknown[]).some(undecidedElement)).map((document) => document._id)
        : [];
      expect({ filter, undecided }).toEqual({ filter, undecided: expected });
    }
    expect(compilePredicate({ 'h.x': 'a' })!({ _id: 'x', h: [{ x: 'a' }] })).toBeUndefined();
    expect(compilePredicate({ 'h.x': 'a' })!({ _id: 'x', h: { x: ['a'] } })).toBe(true);
  });

  it.each(LEFT_TO_MINGO.map((filter) => [String(JSON.stringify(filter)), filter]))('%s is left to mingo', (_, filter) => {
    expect(compilePredicate(filter)).toBeUndefined();
  });
});
