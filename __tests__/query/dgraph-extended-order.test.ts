import { QueryArgumentError } from '../../src/query/errors.js';
import { compileOrder } from '../../src/query/order.js';
import { validModel } from '../sdl/helpers';

/**
 * Issue 13: as in Dgraph (apollo-federation.graphql), an extended type is orderable by its key, whatever
 * its scalar, and by the external fields a `@provides` names. An `ID` key is the stored `_id`.
 */
const model = validModel(`
extend type Book @key(fields: "id") {
  id: ID! @external
  shelf: Int
}

extend type Reader @key(fields: "handle") {
  id: ID! @external
  handle: String! @id @external
  verified: Boolean @external
  stars: Int
}

type Review @key(fields: "id") {
  id: ID!
  reader: Reader @provides(fields: "verified")
}
`);

describe('compileOrder on extended types', () => {
  test.each<[string, string, Record<string, unknown>, Record<string, number>]>([
    ['an ID key sorts by _id, ascending', 'Book', { asc: 'id' }, { _id: 1 }],
    ['an ID key sorts by _id, descending (no ascending tie-break overrides it)', 'Book', { desc: 'id' }, { _id: -1 }],
    ['an ID key after another field', 'Book', { asc: 'shelf', then: { desc: 'id' } }, { shelf: 1, _id: -1 }],
    ['an @id key is a stored field', 'Reader', { desc: 'handle' }, { handle: -1, _id: 1 }],
    ['a provided external field, even a Boolean', 'Reader', { asc: 'verified' }, { verified: 1, _id: 1 }],
  ])('%s', (_name, typeName, order, expected) => {
    const sort = compileOrder(model, typeName, order);
    expect(sort).toEqual(expected);
    expect(Object.keys(sort)).toEqual(Object.keys(expected));
  });

  test('the owner\'s ID that is not the key is not orderable here', () => {
    expect(() => compileOrder(model, 'Reader', { asc: 'id' })).toThrow(QueryArgumentError);
    expect(() => compileOrder(model, 'Reader', { asc: 'id' })).toThrow('ReaderOrder.asc: "id" is not an orderable field of Reader');
  });
});
