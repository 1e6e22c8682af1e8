import { QueryArgumentError } from '../../src/query/errors.js';
import type { PageArgs, PageLimits } from '../../src/query/pagination.js';
import { expectArgumentError } from './argument-error.js';
import { compileOrder } from '../../src/query/order.js';
import { compilePage, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/query/pagination.js';
import { f, model, schemaModel } from './fixtures.js';

describe('compileOrder', () => {
  test.each<[string, Record<string, unknown> | null | undefined, Record<string, number>]>([
    ['no order sorts by _id (creation order)', undefined, { _id: 1 }],
    ['null order', null, { _id: 1 }],
    ['empty order', {}, { _id: 1 }],
    ['asc', { asc: 'priority' }, { priority: 1, _id: 1 }],
    ['desc', { desc: 'due' }, { due: -1, _id: 1 }],
    ['then', { desc: 'priority', then: { asc: 'title' } }, { priority: -1, title: 1, _id: 1 }],
    ['then, recursively', { asc: 'score', then: { desc: 'size', then: { asc: 'description' } } }, { score: 1, size: -1, description: 1, _id: 1 }],
    ['a field named again keeps its first place', { asc: 'priority', then: { desc: 'priority', then: { asc: 'title' } } }, { priority: 1, title: 1, _id: 1 }],
    ['null asc/desc/then are not given', { asc: 'title', desc: null, then: null }, { title: 1, _id: 1 }],
  ])('%s', (_name, order, expected) => {
    const sort = compileOrder(model, 'Task', order);
    expect(sort).toEqual(expected);
    expect(Object.keys(sort)).toEqual(Object.keys(expected));
  });

  test('an interface orders by its fields', () => {
    expect(compileOrder(model, 'Item', { asc: 'label' })).toEqual({ label: 1, _id: 1 });
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['Boolean', { asc: 'completed' }, 'TaskOrder.asc: "completed" is not an orderable field of Task'],
    ['ID', { asc: 'id' }, 'TaskOrder.asc: "id" is not an orderable field of Task'],
    ['list', { desc: 'tags' }, 'TaskOrder.desc: "tags" is not an orderable field of Task'],
    ['relation', { asc: 'user' }, 'TaskOrder.asc: "user" is not an orderable field of Task'],
    ['enum', { asc: 'status' }, 'TaskOrder.asc: "status" is not an orderable field of Task'],
    ['unknown field', { asc: 'nope' }, 'TaskOrder.asc: "nope" is not an orderable field of Task'],
    ['unknown field further down', { asc: 'title', then: { desc: 'nope' } }, 'TaskOrder.desc: "nope"'],
    ['asc and desc together', { asc: 'title', desc: 'priority' }, 'TaskOrder: give either asc or desc in one order object, not both'],
    ['unknown key', { ascending: 'title' }, 'TaskOrder has no key "ascending"'],
  ])('%s is refused', (_name, order, message) => {
    const compile = () => compileOrder(model, 'Task', order);
    expect(compile).toThrow(QueryArgumentError);
    expect(compile).toThrow(message);
  });

  test('a lambda field is not orderable', () => {
    expect(() => compileOrder(model, 'User', { asc: 'nickname' })).toThrow('UserOrder.asc: "nickname" is not an orderable field of User');
  });
});

describe('compilePage', () => {
  test('documented defaults', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(1000);
    expect(MAX_PAGE_SIZE).toBe(10000);
  });

  test.each<[string, { first?: number | null; offset?: number | null }, { skip: number; limit: number }]>([
    ['nothing given: default page size', {}, { skip: 0, limit: 1000 }],
    ['nulls are not given', { first: null, offset: null }, { skip: 0, limit: 1000 }],
    ['first', { first: 10 }, { skip: 0, limit: 10 }],
    ['first and offset', { first: 10, offset: 20 }, { skip: 20, limit: 10 }],
    ['offset alone keeps the default size', { offset: 5 }, { skip: 5, limit: 1000 }],
    ['first 0 is an empty page', { first: 0 }, { skip: 0, limit: 0 }],
    ['first at the maximum', { first: 10000 }, { skip: 0, limit: 10000 }],
  ])('%s', (_name, args, expected) => {
    expect(compilePage(args)).toEqual(expected);
  });

  test('limits can be configured', () => {
    expect(compilePage({}, { defaultPageSize: 50, maxPageSize: 100 })).toEqual({ skip: 0, limit: 50 });
    expect(() => compilePage({ first: 101 }, { maxPageSize: 100 })).toThrow('first must be at most 100, got 101');
  });

  test.each<[string, { first?: number; offset?: number }, string]>([
    ['first above the maximum', { first: 10001 }, 'first must be at most 10000'],
    ['negative first', { first: -1 }, 'first must not be negative, got -1'],
    ['negative offset', { offset: -5 }, 'offset must not be negative, got -5'],
    ['fractional first', { first: 1.5 }, 'first must be an integer, got 1.5'],
  ])('%s is refused', (_name, args, message) => {
    expect(() => compilePage(args)).toThrow(QueryArgumentError);
    expect(() => compilePage(args)).toThrow(message);
  });
});

describe('compilePage: every refusal is a client error with its exact message', () => {
  test.each<[string, Record<string, unknown>, string]>([
    ['first as a string', { first: '3' }, 'first must be an integer, got "3"'],
    ['offset as a string', { offset: '2' }, 'offset must be an integer, got "2"'],
    ['fractional offset', { offset: 0.5 }, 'offset must be an integer, got 0.5'],
    ['negative first', { first: -1 }, 'first must not be negative, got -1'],
    ['negative offset', { offset: -5 }, 'offset must not be negative, got -5'],
    ['first above the maximum', { first: 10001 }, 'first must be at most 10000, got 10001'],
  ])('%s', (_name, args, message) => {
    expectArgumentError(() => compilePage(args as PageArgs), message);
  });

  test.each<[string, PageArgs, Partial<PageLimits>, { skip: number; limit: number }]>([
    ['offset 0 and first 0 are given values', { first: 0, offset: 0 }, {}, { skip: 0, limit: 0 }],
    ['a configured default page size', {}, { defaultPageSize: 5 }, { skip: 0, limit: 5 }],
    ['a default above the configured maximum is cut to it', {}, { defaultPageSize: 500, maxPageSize: 100 }, { skip: 0, limit: 100 }],
    ['the built-in default above a configured maximum is cut to it', { offset: 3 }, { maxPageSize: 100 }, { skip: 3, limit: 100 }],
    ['first at a configured maximum', { first: 100 }, { maxPageSize: 100 }, { skip: 0, limit: 100 }],
    ['first above the configured default but within the maximum', { first: 20 }, { defaultPageSize: 5, maxPageSize: 100 }, { skip: 0, limit: 20 }],
  ])('%s', (_name, args, limits, expected) => {
    expect(compilePage(args, limits)).toEqual(expected);
  });

  test('first above a configured maximum', () => {
    expectArgumentError(() => compilePage({ first: 101 }, { maxPageSize: 100 }), 'first must be at most 100, got 101');
  });
});

describe('compileOrder: exact refusals and the tie-break', () => {
  const ORDERABLE = '(orderable: single String, Int, Int64, Float or DateTime fields)';
  test.each<[string, unknown, string]>([
    ['a field that is not orderable', { asc: 'completed' }, `TaskOrder.asc: "completed" is not an orderable field of Task ${ORDERABLE}`],
    ['a field name that is not text', { desc: 5 }, `TaskOrder.desc: 5 is not an orderable field of Task ${ORDERABLE}`],
    ['an order that is text', 'title', 'TaskOrder: expected an object like { asc: field }, got "title"'],
    ['an order that is a list', [{ asc: 'title' }], 'TaskOrder: expected an object like { asc: field }, got [{"asc":"title"}]'],
    ['a then that is a number', { asc: 'title', then: 3 }, 'TaskOrder: expected an object like { asc: field }, got 3'],
    ['an unknown key', { asc: 'title', by: 'x' }, 'TaskOrder has no key "by" (keys: asc, desc, then)'],
    ['asc and desc together', { asc: 'title', desc: 'priority' }, 'TaskOrder: give either asc or desc in one order object, not both'],
  ])('%s', (_name, order, message) => {
    expectArgumentError(() => compileOrder(model, 'Task', order as Record<string, unknown>), message);
  });

  test.each<[string, Record<string, unknown>, Record<string, number>]>([
    ['desc with a null asc', { asc: null, desc: 'priority' }, { priority: -1, _id: 1 }],
    ['an undefined asc', { asc: undefined, desc: 'priority' }, { priority: -1, _id: 1 }],
    ['a level with neither asc nor desc passes on to then', { then: { desc: 'score' } }, { score: -1, _id: 1 }],
  ])('%s', (_name, order, expected) => {
    const sort = compileOrder(model, 'Task', order);
    expect(sort).toEqual(expected);
    expect(Object.keys(sort)).toEqual(Object.keys(expected));
  });

  describe('an extended type ordered by its key, stored as _id', () => {
    const extended = schemaModel([
      { name: 'Product', key: 'id', extended: true, fields: [f('id', 'ID!', { external: true }), f('name', 'String')] },
    ]);
    test.each<[string, Record<string, unknown>, Record<string, number>]>([
      ['descending: _id is the order itself, no second _id', { desc: 'id' }, { _id: -1 }],
      ['then another field after it', { desc: 'id', then: { asc: 'name' } }, { _id: -1, name: 1 }],
      ['another field first, the key next', { asc: 'name', then: { desc: 'id' } }, { name: 1, _id: -1 }],
    ])('%s', (_name, order, expected) => {
      const sort = compileOrder(extended, 'Product', order);
      expect(sort).toEqual(expected);
      expect(Object.keys(sort)).toEqual(Object.keys(expected));
    });
  });

  test('an unknown type', () => {
    expectArgumentError(() => compileOrder(model, 'Nope', { asc: 'title' }), 'unknown type Nope');
  });
});
