import { GraphQLError } from 'graphql';
import { asDuplicateError, duplicateError, typeOf } from '../../../src/resolve/mutations/objects.js';
import { DuplicateKeyError } from '../../../src/store/port.js';
import { modelOf } from './harness';

/** A store's DuplicateKeyError (stored names, `_id`) told to the client as Dgraph words it, by the field's API name. */
const model = modelOf(`
type User {
  userID: ID!
  name: String! @id
  email: String @id @dgraph(pred: "User.email")
}

type Doc {
  key: ID! @id
  title: String @id
}

type Tag {
  label: String! @id
}

type Plain {
  text: String
}

extend type Reader @key(fields: "handle") {
  handle: String! @id @external
}

extend type Book @key(fields: "isbn") {
  isbn: ID! @external
}
`);

const view = (error: unknown) => {
  const { message, extensions } = error as GraphQLError;
  return { message, extensions };
};

describe('asDuplicateError', () => {
  test.each([
    ['an @id field by its stored name', 'User', 'User%2Eemail', 'a@x', 'email'],
    ['an @id field whose stored name is its name', 'User', 'name', 'ann', 'name'],
    ['_id of a generated ID: the ID field', 'User', '_id', '0x1', 'userID'],
    ['_id of an ID @id: that field', 'Doc', '_id', 'd1', 'key'],
    ['_id of a type without an ID field: id', 'Tag', '_id', 't', 'id'],
    ['_id of an extended type keyed by an @id field: the key', 'Reader', '_id', 'amy', 'handle'],
    ['_id of an extended type keyed by its ID: the key', 'Book', '_id', '978', 'isbn'],
    ['a stored name no field has: as the store names it', 'Plain', 'other', 1, 'other'],
  ])('%s', (_case, typeName, storedField, value, field) => {
    const error = asDuplicateError(new DuplicateKeyError(typeName, storedField, value), typeOf(model, typeName));
    expect(view(error)).toEqual({
      message: `id ${String(value)} already exists for field ${field} inside type ${typeName}`,
      extensions: { code: 'DUPLICATE_ID', type: typeName, field, value },
    });
  });

  test('any other error passes through unchanged', () => {
    const other = new Error('disk full');
    expect(asDuplicateError(other, typeOf(model, 'User'))).toBe(other);
  });
});

test('duplicateError prints the value as a string', () => {
  expect(view(duplicateError('Tag', 'label', 12))).toEqual({
    message: 'id 12 already exists for field label inside type Tag',
    extensions: { code: 'DUPLICATE_ID', type: 'Tag', field: 'label', value: 12 },
  });
});

test('typeOf names an unknown type', () => {
  expect(() => typeOf(model, 'Nope')).toThrow(new GraphQLError('Unknown type Nope'));
  expect(typeOf(model, 'Tag').name).toBe('Tag');
});
