import { InvalidDocumentError, toStorableDocument } from '../../src/store/embedded/json-values.js';

/** toStorableDocument: a valid document comes back as an equal copy sharing nothing; an invalid one names where it is wrong. */
describe('toStorableDocument', () => {
  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['scalars', { _id: 'a', s: 'x', n: 1.5, t: true, f: false, z: null }, { _id: 'a', s: 'x', n: 1.5, t: true, f: false, z: null }],
    ['a field holding undefined is left out', { _id: 'a', gone: undefined, kept: 0 }, { _id: 'a', kept: 0 }],
    ['arrays and nested documents', { _id: 'a', tokens: ['x', 'y'], deep: { list: [{ n: 1 }, [2, null]], empty: {} } }, { _id: 'a', tokens: ['x', 'y'], deep: { list: [{ n: 1 }, [2, null]], empty: {} } }],
  ])('%s', (_case, document, expected) => {
    const stored = toStorableDocument('Things', document);
    expect(stored).toStrictEqual(expected);
    expect(stored).not.toBe(document);
    if (Array.isArray(document.tokens)) expect(stored.tokens).not.toBe(document.tokens);
    if (document.deep) {
      const [from, to] = [document.deep as { list: unknown[] }, stored.deep as { list: unknown[] }];
      expect(to.list).not.toBe(from.list);
      expect(to.list[0]).not.toBe(from.list[0]);
    }
  });

  test('keeps the fields in their order (integer-like keys first, as Object.keys lists them) and a field named __proto__ as an own field', () => {
    const document = JSON.parse('{"_id":"a","b":1,"2":2,"__proto__":{"x":1},"a":{"9":0,"z":1}}') as Record<string, unknown>;
    const stored = toStorableDocument('Things', document);
    expect(Object.keys(stored)).toEqual(['2', '_id', 'b', '__proto__', 'a']);
    expect(Object.keys(stored.a as object)).toEqual(['9', 'z']);
    expect(Object.getOwnPropertyDescriptor(stored, '__proto__')?.value).toEqual({ x: 1 });
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
  });

  test('copies a document without a prototype, and only its own fields', () => {
    const document = Object.assign(Object.create(null) as Record<string, unknown>, { _id: 'a', n: 1 });
    Object.defineProperty(document, 'hidden', { value: 2, enumerable: false });
    expect(toStorableDocument('Things', document)).toStrictEqual({ _id: 'a', n: 1 });
  });

  test.each<[string, unknown, string]>([
    ['not an object', 'text', 'the document is a string, not an object'],
    ['an _id that is not a string', { _id: 7 }, '_id is a number; _id must be a string'],
    ['a Date field', { _id: 'a', when: new Date(0) }, 'when is a Date (store DateTime values as ISO-8601 strings)'],
    ['NaN in a nested document', { _id: 'a', nested: { n: Number.NaN } }, 'nested.n is NaN, not a finite number'],
    ['Infinity in an array', { _id: 'a', list: [1, Number.POSITIVE_INFINITY] }, 'list[1] is Infinity, not a finite number'],
    ['undefined in an array', { _id: 'a', list: ['x', undefined] }, 'list[1] is undefined'],
    ['undefined in an array in an array of documents', { _id: 'a', rows: [{ cells: [undefined] }] }, 'rows[0].cells[0] is undefined'],
    ['a class instance deep down', { _id: 'a', rows: [{}, { at: new Map() }] }, 'rows[1].at is an instance of Map'],
    ['a bigint', { _id: 'a', big: 1n }, 'big is a bigint'],
    ['a function in an array', { _id: 'a', list: [() => 1] }, 'list[0] is a function'],
  ])('refuses %s', (_case, document, problem) => {
    expect(() => toStorableDocument('Things', document)).toThrow(InvalidDocumentError);
    expect(() => toStorableDocument('Things', document)).toThrow(`invalid document for collection Things: ${problem}; the embedded store keeps JSON values only`);
  });
});
