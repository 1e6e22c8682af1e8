import { allOf, anyOf, isMatchAll, matchNothing, noneOf } from '../../src/query/combine.js';
import type { Filter } from '../../src/store/port.js';

describe('matchNothing', () => {
  test('is "_id in nothing", a fresh document each time', () => {
    const first = matchNothing();
    expect(first).toEqual({ _id: { $in: [] } });
    expect(matchNothing()).not.toBe(first);
  });
});

describe('isMatchAll', () => {
  test.each<[Filter, boolean]>([
    [{}, true],
    [{ a: 1 }, false],
    [{ $or: [] }, false],
  ])('%j → %s', (filter, expected) => {
    expect(isMatchAll(filter)).toBe(expected);
  });
});

const nullPrototype = (fields: Record<string, unknown>): Record<string, unknown> => Object.assign(Object.create(null) as Record<string, unknown>, fields);

describe('allOf', () => {
  test.each<[string, Filter[], Filter]>([
    ['nothing: match all', [], {}],
    ['only match-all parts: match all', [{}, {}], {}],
    ['match-all parts drop out', [{}, { a: 1 }, {}], { a: 1 }],
    ['different paths: one document', [{ a: 1 }, { b: { $gt: 2 } }], { a: 1, b: { $gt: 2 } }],
    ['one path, different operators: merged', [{ n: { $gte: 1 } }, { n: { $lte: 5 } }], { n: { $gte: 1, $lte: 5 } }],
    ['one path, three parts, different operators', [{ n: { $gte: 1 } }, { m: 2 }, { n: { $lte: 5, $ne: 3 } }], { n: { $gte: 1, $lte: 5, $ne: 3 }, m: 2 }],
    ['one path, the same operator twice: $and', [{ n: { $gt: 1 } }, { n: { $gt: 2 } }], { $and: [{ n: { $gt: 1 } }, { n: { $gt: 2 } }] }],
    ['one operator shared among others: $and', [{ n: { $gt: 1, $lt: 9 } }, { n: { $ne: 4, $gt: 2 } }], { $and: [{ n: { $gt: 1, $lt: 9 } }, { n: { $ne: 4, $gt: 2 } }] }],
    ['one path, a value and an operator: $and', [{ n: 1 }, { n: { $gt: 0 } }], { $and: [{ n: 1 }, { n: { $gt: 0 } }] }],
    ['one path, an operator and a value: $and', [{ n: { $gt: 0 } }, { n: 1 }], { $and: [{ n: { $gt: 0 } }, { n: 1 }] }],
    ['one path, an operator and null: $and', [{ n: { $gt: 0 } }, { n: null }], { $and: [{ n: { $gt: 0 } }, { n: null }] }],
    ['one path, null and an operator: $and', [{ n: null }, { n: { $gt: 0 } }], { $and: [{ n: null }, { n: { $gt: 0 } }] }],
    ['one path, undefined and an operator: $and', [{ n: undefined }, { n: { $gt: 0 } }], { $and: [{ n: undefined }, { n: { $gt: 0 } }] }],
    ['one path, text and an operator: $and', [{ n: 'x' }, { n: { $gt: 0 } }], { $and: [{ n: 'x' }, { n: { $gt: 0 } }] }],
    ['an empty document is a value, not an operator document', [{ n: {} }, { n: { $gt: 0 } }], { $and: [{ n: {} }, { n: { $gt: 0 } }] }],
    ['a document with a field besides operators is a value', [{ n: { $gt: 0, x: 1 } }, { n: { $lt: 5 } }], { $and: [{ n: { $gt: 0, x: 1 } }, { n: { $lt: 5 } }] }],
    ['top-level operators ($expr) are never merged', [{ $expr: { $gt: ['$a', 1] } }, { $expr: { $lt: ['$a', 5] } }], { $and: [{ $expr: { $gt: ['$a', 1] } }, { $expr: { $lt: ['$a', 5] } }] }],
    ['two $or: $and', [{ $or: [{ a: 1 }] }, { $or: [{ b: 1 }] }], { $and: [{ $or: [{ a: 1 }] }, { $or: [{ b: 1 }] }] }],
  ])('%s', (_name, conditions, expected) => {
    expect(allOf(conditions)).toEqual(expected);
  });

  test('a single part is returned as it is', () => {
    const part = { a: { $in: ['x'] } };
    expect(allOf([{}, part])).toBe(part);
  });

  test('a document not built from Object (a null prototype) is a value, not merged', () => {
    const value = nullPrototype({ $gt: 0 });
    const merged = allOf([{ n: value }, { n: { $lt: 5 } }]);
    expect(Object.keys(merged)).toEqual(['$and']);
    expect((merged.$and as Filter[])[0].n).toBe(value);
  });

  test('the parts are not changed', () => {
    const first = { n: { $gte: 1 } };
    const second = { n: { $lte: 5 } };
    allOf([first, second]);
    expect(first).toEqual({ n: { $gte: 1 } });
    expect(second).toEqual({ n: { $lte: 5 } });
  });
});

describe('anyOf', () => {
  test.each<[string, Filter[], Filter]>([
    ['nothing: match nothing', [], { _id: { $in: [] } }],
    ['a match-all part: match all', [{ a: 1 }, {}], {}],
    ['one part stands alone', [{ a: 1 }], { a: 1 }],
    ['two parts', [{ a: 1 }, { b: 2 }], { $or: [{ a: 1 }, { b: 2 }] }],
    ['nested $or flattened', [{ $or: [{ a: 1 }, { b: 2 }] }, { c: 3 }], { $or: [{ a: 1 }, { b: 2 }, { c: 3 }] }],
    ['a single $or stands alone, flattened', [{ $or: [{ a: 1 }, { b: 2 }] }], { $or: [{ a: 1 }, { b: 2 }] }],
    ['an $or beside other keys is not flattened', [{ $or: [{ a: 1 }], d: 4 }, { c: 3 }], { $or: [{ $or: [{ a: 1 }], d: 4 }, { c: 3 }] }],
    ['an $and is not flattened', [{ $and: [{ a: 1 }, { b: 2 }] }, { c: 3 }], { $or: [{ $and: [{ a: 1 }, { b: 2 }] }, { c: 3 }] }],
  ])('%s', (_name, conditions, expected) => {
    expect(anyOf(conditions)).toEqual(expected);
  });
});

describe('noneOf', () => {
  test.each<[Filter, Filter]>([
    [{}, { _id: { $in: [] } }],
    [{ a: 1 }, { $nor: [{ a: 1 }] }],
  ])('%j → %j', (condition, expected) => {
    expect(noneOf(condition)).toEqual(expected);
  });
});
