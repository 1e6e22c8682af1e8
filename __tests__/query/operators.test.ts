import type { FieldModel, SearchIndex } from '../../src/sdl/model.js';
import { QueryArgumentError } from '../../src/query/errors.js';
import { absentCondition, filterShapeOf, isFilterOperator, operatorCondition, type FilterOperator } from '../../src/query/operators.js';
import { f, model, schemaModel } from './fixtures.js';

/** The operators a field's `@search` indexes allow, and each operator as the exact MongoDB condition. */

const ORDERED = ['eq', 'in', 'le', 'lt', 'ge', 'gt', 'between'];

const shapes = schemaModel(
  [
    {
      name: 'Shape',
      fields: [
        f('id', 'ID!'),
        f('owner', 'Shape', { storedHere: true }),
        f('plain', 'String'),
        f('key', 'String!', { isUniqueId: true }),
        f('keyedTerms', 'String', { isUniqueId: true, search: ['term'] }),
        f('count', 'Int!', { isUniqueId: true }),
        f('bigKey', 'Int64', { isUniqueId: true }),
        f('hashed', 'String', { search: ['hash'] }),
        f('exact', 'String', { search: ['exact'] }),
        f('terms', 'String', { search: ['term'] }),
        f('text', 'String', { search: ['fulltext'] }),
        f('phrases', 'String', { search: ['ngram'] }),
        f('phraseList', '[String]', { search: ['ngram', 'regexp'] }),
        f('ngramState', 'State', { search: ['ngram'] }),
        f('trigram', 'String', { search: ['trigram'] }),
        f('pattern', 'String', { search: ['regexp'] }),
        f('hashAndTerms', 'String', { search: ['hash', 'term'] }),
        f('numberIndexOnText', 'String', { search: ['int'] }),
        f('flag', 'Boolean', { search: ['bool'] }),
        f('unindexedFlag', 'Boolean'),
        f('int', 'Int', { search: ['int'] }),
        f('int64', 'Int64', { search: ['int64'] }),
        f('float', 'Float', { search: ['float'] }),
        f('when', 'DateTime', { search: ['year'] }),
        f('state', 'State', { search: ['hash'] }),
        f('orderedState', 'State', { search: ['exact'] }),
        f('refs', '[ID]', { search: ['hash'] }),
        f('labels', '[String]', { search: ['exact'] }),
      ],
    },
  ],
  { State: ['ON', 'OFF'] },
);
const shape = shapes.types.get('Shape')!;
const field = (name: string): FieldModel => shape.fieldsByName.get(name)!;

describe('filterShapeOf: what a field accepts in a filter', () => {
  test.each<[string, string, { kind: string; operators?: string[] }]>([
    ['a relation', 'owner', { kind: 'none' }],
    ['a field without @search', 'plain', { kind: 'none' }],
    ['an @id String field is hash-indexed', 'key', { kind: 'operators', operators: ['eq', 'in'] }],
    ['an @id String field with term: both', 'keyedTerms', { kind: 'operators', operators: ['eq', 'in', 'allofterms', 'anyofterms'] }],
    ['an @id Int field compares', 'count', { kind: 'operators', operators: ORDERED }],
    ['an @id Int64 field compares', 'bigKey', { kind: 'operators', operators: ORDERED }],
    ['hash', 'hashed', { kind: 'operators', operators: ['eq', 'in'] }],
    ['exact', 'exact', { kind: 'operators', operators: ORDERED }],
    ['term', 'terms', { kind: 'operators', operators: ['allofterms', 'anyofterms'] }],
    ['fulltext', 'text', { kind: 'operators', operators: ['alloftext', 'anyoftext'] }],
    ['ngram', 'phrases', { kind: 'operators', operators: ['ngram'] }],
    ['ngram and regexp on a list', 'phraseList', { kind: 'operators', operators: ['ngram', 'regexp'] }],
    ['ngram on an enum', 'ngramState', { kind: 'operators', operators: ['ngram'] }],
    ['trigram', 'trigram', { kind: 'operators', operators: ['regexp'] }],
    ['regexp', 'pattern', { kind: 'operators', operators: ['regexp'] }],
    ['hash and term: the union', 'hashAndTerms', { kind: 'operators', operators: ['eq', 'in', 'allofterms', 'anyofterms'] }],
    ['a number index on a String gives no operator', 'numberIndexOnText', { kind: 'none' }],
    ['Boolean with bool: a plain value', 'flag', { kind: 'boolean' }],
    ['Boolean without @search', 'unindexedFlag', { kind: 'none' }],
    ['Int', 'int', { kind: 'operators', operators: ORDERED }],
    ['Int64', 'int64', { kind: 'operators', operators: ORDERED }],
    ['Float', 'float', { kind: 'operators', operators: ORDERED }],
    ['DateTime', 'when', { kind: 'operators', operators: ORDERED }],
    ['enum with hash', 'state', { kind: 'operators', operators: ['eq', 'in'] }],
    ['enum with exact', 'orderedState', { kind: 'operators', operators: ORDERED }],
  ])('%s (%s)', (_name, fieldName, expected) => {
    const found = filterShapeOf(field(fieldName));
    expect(found.kind === 'operators' ? { kind: found.kind, operators: [...found.operators] } : found).toEqual(expected);
  });

  test.each<[SearchIndex, string[]]>([
    ['hash', ['eq', 'in']],
    ['exact', ORDERED],
    ['term', ['allofterms', 'anyofterms']],
    ['fulltext', ['alloftext', 'anyoftext']],
    ['ngram', ['ngram']],
    ['trigram', ['regexp']],
    ['regexp', ['regexp']],
  ])('a String field with only %s', (index, operators) => {
    const single = schemaModel([{ name: 'One', fields: [f('id', 'ID!'), f('value', 'String', { search: [index] })] }]);
    const found = filterShapeOf(single.types.get('One')!.fieldsByName.get('value')!);
    expect(found.kind === 'operators' ? [...found.operators] : found).toEqual(operators);
  });
});

describe('operatorCondition: one operator → MongoDB', () => {
  test.each<[string, string, FilterOperator, unknown, Record<string, unknown>]>([
    ['eq', 'exact', 'eq', 'a', { exact: { $eq: 'a' } }],
    ['le', 'exact', 'le', 'a', { exact: { $lte: 'a' } }],
    ['lt', 'int', 'lt', 3, { int: { $lt: 3 } }],
    ['ge', 'float', 'ge', 0.5, { float: { $gte: 0.5 } }],
    ['gt', 'int64', 'gt', -2, { int64: { $gt: -2 } }],
    ['between', 'int', 'between', { min: 0, max: 0 }, { int: { $gte: 0, $lte: 0 } }],
    ['between on strings', 'exact', 'between', { min: 'a', max: 'b' }, { exact: { $gte: 'a', $lte: 'b' } }],
    ['between on DateTime normalises both ends', 'when', 'between', { min: '2026', max: '2026-06-30T23:00:00-01:00' }, { when: { $gte: '2026-01-01T00:00:00.000Z', $lte: '2026-07-01T00:00:00.000Z' } }],
    ['DateTime eq', 'when', 'eq', '2026-01-31T12:00:00+02:00', { when: { $eq: '2026-01-31T10:00:00.000Z' } }],
    ['in', 'hashed', 'in', ['a', 'b'], { hashed: { $in: ['a', 'b'] } }],
    ['in leaves out undefined items', 'int', 'in', [1, undefined, 2], { int: { $in: [1, 2] } }],
    ['in with null also matches no value', 'int', 'in', [null, 1], { $or: [{ int: { $in: [1] } }, { int: { $eq: null } }] }],
    ['in with null on a list field: no items', 'labels', 'in', ['x', null], { $or: [{ labels: { $in: ['x'] } }, { 'labels.0': { $exists: false } }] }],
    ['an enum value', 'state', 'eq', 'ON', { state: { $eq: 'ON' } }],
    ['an ID value', 'refs', 'in', ['r1'], { refs: { $in: ['r1'] } }],
    ['allofterms: every term', 'terms', 'allofterms', 'Red RED green', { _term_terms: { $all: ['red', 'green'] } }],
    ['anyofterms: any term', 'terms', 'anyofterms', 'red green', { _term_terms: { $in: ['red', 'green'] } }],
    ['allofterms of no word matches nothing', 'terms', 'allofterms', '!?', { _id: { $in: [] } }],
    ['anyofterms of no word matches nothing', 'terms', 'anyofterms', '', { _id: { $in: [] } }],
    ['alloftext: every stem', 'text', 'alloftext', 'jumping foxes', { _fulltext_text: { $all: ['jump', 'fox'] } }],
    ['anyoftext: any stem', 'text', 'anyoftext', 'jumping foxes', { _fulltext_text: { $in: ['jump', 'fox'] } }],
    ['alloftext of stop words only matches nothing', 'text', 'alloftext', 'the of', { _id: { $in: [] } }],
    ['ngram of one word: its stem', 'phrases', 'ngram', 'Running', { _ngram_phrases: { $in: ['run'] } }],
    ['ngram of two words: the pair, stop words left out', 'phrases', 'ngram', 'for Health', { _ngram_phrases: { $in: ['health'] } }],
    ['ngram of three words: the one run of three', 'phrases', 'ngram', 'NUTRITION AND HEALTHY eating', { _ngram_phrases: { $in: ['nutrit healthi eat'] } }],
    ['ngram of more words: any run of three', 'phrases', 'ngram', 'natural language processing advanced algorithms',
      { _ngram_phrases: { $in: ['natur languag process', 'languag process advanc', 'process advanc algorithm'] } }],
    ['ngram repeats a run once', 'phrases', 'ngram', 'buy milk buy milk buy', { _ngram_phrases: { $in: ['buy milk buy', 'milk buy milk'] } }],
    ['ngram on a list field', 'phraseList', 'ngram', 'bone density', { _ngram_phraseList: { $in: ['bone densiti'] } }],
    ['ngram on an enum field', 'ngramState', 'ngram', 'Offline', { _ngram_ngramState: { $in: ['offlin'] } }],
    ['ngram of stop words only matches nothing', 'phrases', 'ngram', 'is the', { _id: { $in: [] } }],
    ['ngram of an empty string matches nothing', 'phrases', 'ngram', '', { _id: { $in: [] } }],
    ['regexp without flags has no $options', 'pattern', 'regexp', '/^a+$/', { pattern: { $regex: '^a+$' } }],
    ['regexp with i', 'trigram', 'regexp', '/ab/i', { trigram: { $regex: 'ab', $options: 'i' } }],
  ])('%s', (_name, fieldName, operator, value, expected) => {
    expect(operatorCondition(shape, field(fieldName), operator, value)).toEqual(expected);
  });
});

function thrownBy(run: () => unknown): QueryArgumentError {
  try {
    run();
  } catch (error) {
    return error as QueryArgumentError;
  }
  throw new Error('expected an error');
}

describe('operatorCondition refuses a value of the wrong kind, naming type, field and operator', () => {
  test.each<[string, string, FilterOperator, unknown, string]>([
    ['a number for a String', 'exact', 'eq', 5, 'Shape.exact eq: expected a string, got 5'],
    ['a number for an enum', 'state', 'eq', 1, 'Shape.state eq: expected a string, got 1'],
    ['a number for an ID', 'refs', 'in', [7], 'Shape.refs in: expected a string, got 7'],
    ['a string for an Int', 'int', 'lt', '3', 'Shape.int lt: expected a number, got "3"'],
    ['a string for an Int64', 'int64', 'ge', '3', 'Shape.int64 ge: expected a number, got "3"'],
    ['a string for a Float', 'float', 'gt', '0.5', 'Shape.float gt: expected a number, got "0.5"'],
    ['NaN for a Float', 'float', 'eq', Number.NaN, 'Shape.float eq: expected a number, got null'],
    ['Infinity for an Int', 'int', 'le', Number.POSITIVE_INFINITY, 'Shape.int le: expected a number, got null'],
    ['a number for a DateTime', 'when', 'eq', 2026, 'Shape.when eq: 2026 is not a valid DateTime'],
    ['a DateTime out of range', 'when', 'lt', '2026-02-30', 'Shape.when lt: "2026-02-30" is not a valid DateTime (day 30 is out of range (01-28 in 2026-02))'],
    ['a DateTime in no known form', 'when', 'gt', 'now', `Shape.when gt: "now" is not a valid DateTime (not a date-time; the forms are 2026-01-31T12:00:00Z (RFC 3339, optional fraction and ±hh:mm offset), 2026-01-31T12:00:00, 2026-01-31, 2026-01 or 2026)`],
    ['in given one value', 'int', 'in', 3, 'Shape.int in: expected a list, got 3'],
    ['in with a wrong item', 'hashed', 'in', ['a', 2], 'Shape.hashed in: expected a string, got 2'],
    ['between given a string', 'int', 'between', '1..2', 'Shape.int between: expected { min, max } with both given, got "1..2"'],
    ['between without min', 'int', 'between', { max: 2 }, 'Shape.int between: expected { min, max } with both given, got {"max":2}'],
    ['between with a null min', 'int', 'between', { min: null, max: 2 }, 'Shape.int between: expected { min, max } with both given, got {"min":null,"max":2}'],
    ['between without max', 'int', 'between', { min: 1 }, 'Shape.int between: expected { min, max } with both given, got {"min":1}'],
    ['between with a null max', 'int', 'between', { min: 1, max: null }, 'Shape.int between: expected { min, max } with both given, got {"min":1,"max":null}'],
    ['between with a wrong min', 'int', 'between', { min: 'a', max: 2 }, 'Shape.int between: expected a number, got "a"'],
    ['between with a wrong max', 'int', 'between', { min: 1, max: 'b' }, 'Shape.int between: expected a number, got "b"'],
    ['allofterms given a number', 'terms', 'allofterms', 3, 'Shape.terms allofterms: expected a string, got 3'],
    ['ngram given a number', 'phrases', 'ngram', 3, 'Shape.phrases ngram: expected a string, got 3'],
    ['anyoftext given a list', 'text', 'anyoftext', ['a'], 'Shape.text anyoftext: expected a string, got ["a"]'],
    ['regexp without slashes', 'pattern', 'regexp', 'a+', 'Shape.pattern regexp: expected a regular expression written /pattern/ or /pattern/i, got "a+"'],
  ])('%s', (_name, fieldName, operator, value, message) => {
    const error = thrownBy(() => operatorCondition(shape, field(fieldName), operator, value));
    expect(error).toBeInstanceOf(QueryArgumentError);
    expect(error.message).toBe(message);
    expect(error.code).toBe('BAD_USER_INPUT');
  });
});

describe('absentCondition: objects without a value', () => {
  test.each<[string, string, string, Record<string, unknown>]>([
    ['a single value is null or missing', 'Task', 'priority', { priority: { $eq: null } }],
    ['a list has no first item', 'Task', 'tags', { 'tags.0': { $exists: false } }],
  ])('%s', (_name, typeName, fieldName, expected) => {
    expect(absentCondition(model.types.get(typeName)!.fieldsByName.get(fieldName)!)).toEqual(expected);
  });
});

describe('isFilterOperator', () => {
  test.each(['eq', 'in', 'le', 'lt', 'ge', 'gt', 'between', 'allofterms', 'anyofterms', 'alloftext', 'anyoftext', 'ngram', 'regexp'])('%s is an operator', (name) => {
    expect(isFilterOperator(name)).toBe(true);
  });

  test.each(['', 'like', 'EQ', 'has', 'and', 'not', 'Stryker was here'])('%j is not', (name) => {
    expect(isFilterOperator(name)).toBe(false);
  });
});
