import { ClientInputError } from '../../../src/errors/codes.js';
import { withDefaultValues } from '../../../src/resolve/mutations/default-values.js';
import { checkExtendedKeyKept } from '../../../src/resolve/mutations/extended-key.js';
import { givenId } from '../../../src/resolve/mutations/given-id.js';
import { HashedPassword, secretWrites } from '../../../src/resolve/mutations/hashed-password.js';
import { memberRefOf, unionsContaining } from '../../../src/resolve/mutations/union-refs.js';
import type { TypeModel } from '../../../src/sdl/model.js';
import { modelOf } from './harness';

/** The pure rules a mutation applies to its input before it writes: defaults, keys, ids, secrets, union Refs. */
const model = modelOf(`
enum Status { OPEN DONE }

type Task @secret(field: "password", pred: "Task.pwd") {
  taskID: ID!
  title: String @dgraph(pred: "Task.title")
  status: Status @default(add: {value: "OPEN"})
  votes: Int @default(add: {value: "3"}, update: {value: "0"})
  big: Int64 @default(add: {value: "9007199254740991"})
  weight: Float @default(add: {value: "-2.5"})
  done: Boolean @default(add: {value: "true"})
  shared: Boolean @default(add: {value: "false"})
  due: DateTime @default(add: {value: "2026-02-01T10:00:00+02:00"})
  touched: DateTime @default(update: {value: "$now"})
  label: String @default(add: {value: "new"})
}

type Note {
  code: String! @id
  text: String
}

type Odd {
  undefined: String
}

type Cat { id: ID! name: String }
type Dog { id: ID! name: String }
union Pet = Cat | Dog
union Animal = Cat

extend type Book @key(fields: "id") {
  id: ID! @external
  shelf: Int
}

extend type Reader @key(fields: "handle") {
  handle: String! @id @external
  stars: Int
}
`);

const type = (name: string): TypeModel => model.types.get(name)!;
const NOW = '2026-11-24T04:00:00.000Z';
const now = () => NOW;

/** The error a call throws, as { name, code, message }. */
function thrown(call: () => unknown): { name: string; code?: string; message: string } {
  try {
    call();
  } catch (error) {
    const { name, message, code } = error as ClientInputError;
    return code === undefined ? { name, message } : { name, code, message };
  }
  throw new Error('expected the call to throw');
}

describe('withDefaultValues: @default as Dgraph applies it', () => {
  const ALL_ADD_DEFAULTS = {
    status: 'OPEN', votes: 3, big: 9007199254740991, weight: -2.5, done: true, shared: false,
    due: '2026-02-01T08:00:00.000Z', label: 'new',
  };

  test.each([
    ['an add of nothing takes every add default, each as the value its type gives', 'add', {}, ALL_ADD_DEFAULTS],
    ['an add keeps what it gives, and takes the default of a null', 'add', { votes: 7, done: false, label: null }, { ...ALL_ADD_DEFAULTS, votes: 7, done: false }],
    ['an add keeps an empty string and a zero (given values)', 'add', { label: '', votes: 0 }, { ...ALL_ADD_DEFAULTS, label: '', votes: 0 }],
    ['an update takes the update defaults only', 'update', { title: 'x' }, { title: 'x', votes: 0, touched: NOW }],
    ['an update keeps an explicit null (it removes)', 'update', { votes: null, touched: null }, { votes: null, touched: null }],
    ['an update keeps what it gives', 'update', { votes: 9, touched: '2020-01-01T00:00:00Z' }, { votes: 9, touched: '2020-01-01T00:00:00Z' }],
  ] as const)('%s', (_case, action, input, expected) => {
    const given = { ...input };
    expect(withDefaultValues(type('Task'), given, action, now)).toEqual(expected);
    expect(given).toEqual(input);
  });

  test('an input that needs no default is returned as it is (no copy)', () => {
    const input = { title: 'x' };
    expect(withDefaultValues(type('Note'), input, 'add', now)).toBe(input);
  });

  test('"$now" asks for the time only when a default needs it', () => {
    const asked = jest.fn(now);
    withDefaultValues(type('Task'), { votes: 1, touched: NOW }, 'update', asked);
    expect(asked).not.toHaveBeenCalled();
    withDefaultValues(type('Task'), { votes: 1 }, 'update', asked);
    expect(asked).toHaveBeenCalledTimes(1);
  });

  test('a DateTime default that does not parse fails with the field named', () => {
    const task = type('Task');
    const broken: TypeModel = { ...task, fields: task.fields.map((field) => (field.name === 'due' ? { ...field, defaults: { add: '2026-02-30T00:00:00Z' } } : field)) };
    expect(thrown(() => withDefaultValues(broken, {}, 'add', now))).toEqual({ name: 'Error', message: expect.stringMatching(/^@default of due: /) });
  });
});

describe('checkExtendedKeyKept: an extended type keeps the owner\'s key', () => {
  test.each([
    ['the same key value', 'amy', { handle: 'amy', stars: 4 }, {}],
    ['no key at all', 'amy', { stars: 4 }, { stars: 4 }],
    ['the key as a number that prints as the id', '7', { handle: 7 }, {}],
  ])('passes: %s', (_case, id, set, remove) => {
    expect(() => checkExtendedKeyKept(type('Reader'), id, set, remove)).not.toThrow();
  });

  test.each([
    ['another key value', { handle: 'ann' }, {}, 'UpdateReaderInput.set.handle: handle is the key of Reader, owned by another service; it cannot change from "amy" to "ann"'],
    ['a null key in set', { handle: null }, {}, 'UpdateReaderInput: handle is the key of Reader, owned by another service; it cannot be removed'],
    ['the key in remove', {}, { handle: 'amy' }, 'UpdateReaderInput: handle is the key of Reader, owned by another service; it cannot be removed'],
  ])('refuses %s', (_case, set, remove, message) => {
    expect(thrown(() => checkExtendedKeyKept(type('Reader'), 'amy', set, remove))).toEqual({ name: 'ClientInputError', code: 'BAD_USER_INPUT', message });
  });

  test.each([
    ['an extended type keyed by its ID (the ID is not in the Patch)', 'Book', { id: 'b2' }],
    ['a type that is not extended', 'Note', { code: 'other' }],
    ['a type that is not extended, whatever its fields are named', 'Odd', { undefined: 'other' }],
  ])('checks nothing for %s', (_case, typeName, set) => {
    expect(() => checkExtendedKeyKept(type(typeName), 'b1', set, { id: 'b1', code: 'x' })).not.toThrow();
  });
});

describe('givenId: the id an input names under the type\'s ID field', () => {
  test.each([
    ['the ID field by its own name', 'Task', { taskID: '0x1' }, '0x1'],
    ['not under another name', 'Task', { id: '0x1' }, undefined],
    ['not a number', 'Task', { taskID: 1 }, undefined],
    ['not null', 'Task', { taskID: null }, undefined],
    ['a type without an ID field', 'Note', { id: '0x1', code: 'n' }, undefined],
    ['an unknown type', 'Nope', { id: '0x1' }, undefined],
    ['a type without an ID field, whatever its fields are named', 'Odd', { undefined: '0x1' }, undefined],
    ['an extended type\'s external ID', 'Book', { id: 'b1' }, 'b1'],
  ])('%s', (_case, typeName, input, expected) => {
    expect(givenId(model, typeName, input)).toBe(expected);
  });
});

describe('secretWrites: a @secret reaches the store hashed, under its stored name', () => {
  test.each([
    ['a hashed password is set', { password: new HashedPassword('$2a$hash') }, {}, { set: { 'Task%2Epwd': '$2a$hash' }, unset: [] }],
    ['no password: nothing', { title: 'x' }, {}, { set: {}, unset: [] }],
    ['a null password alone: nothing', { password: null }, {}, { set: {}, unset: [] }],
    ['the password in remove: unset', {}, { password: 'anything' }, { set: {}, unset: ['Task%2Epwd'] }],
    ['another field in remove: nothing', {}, { title: 'x' }, { set: {}, unset: [] }],
  ])('%s', (_case, set, remove, expected) => {
    expect(secretWrites(type('Task'), set, remove)).toEqual(expected);
  });

  test('remove is optional', () => {
    expect(secretWrites(type('Task'), {})).toEqual({ set: {}, unset: [] });
  });

  test('a type without a secret writes none, whatever the input', () => {
    expect(secretWrites(type('Note'), { password: 'clear' }, { password: 'x' })).toEqual({ set: {}, unset: [] });
  });

  test('a password in clear is refused: it would be stored unhashed', () => {
    expect(thrown(() => secretWrites(type('Task'), { password: 'clear' }))).toEqual({ name: 'Error', message: 'Task.password reached the store unhashed' });
  });
});

describe('memberRefOf: the member a union Ref names', () => {
  test.each([
    ['a type that is no union: the Ref itself', 'Cat', { id: '1' }, { typeName: 'Cat', ref: { id: '1' } }],
    ['one member Ref', 'Pet', { dogRef: { id: '2' } }, { typeName: 'Dog', ref: { id: '2' } }],
    ['one member Ref beside a null one', 'Pet', { catRef: null, dogRef: { name: 'Rex' } }, { typeName: 'Dog', ref: { name: 'Rex' } }],
  ])('%s', (_case, target, ref, expected) => {
    expect(memberRefOf(model, target, ref)).toEqual(expected);
  });

  test.each([
    ['no member Ref', { catRef: null }, 'PetRef: give exactly one of catRef, dogRef; got 0'],
    ['two member Refs', { catRef: { id: '1' }, dogRef: { id: '2' } }, 'PetRef: give exactly one of catRef, dogRef; got 2'],
    ['a member Ref that is a list', { catRef: [{ id: '1' }] }, 'PetRef.catRef: expected a CatRef object'],
    ['a member Ref that is a string', { dogRef: '2' }, 'PetRef.dogRef: expected a DogRef object'],
  ])('refuses %s', (_case, ref, message) => {
    expect(thrown(() => memberRefOf(model, 'Pet', ref))).toEqual({ name: 'ClientInputError', code: 'BAD_USER_INPUT', message });
  });

  test.each([
    ['Cat', ['Pet', 'Animal']],
    ['Dog', ['Pet']],
    ['Note', []],
  ])('unionsContaining(%s)', (typeName, expected) => {
    expect(unionsContaining(model, typeName)).toEqual(expected);
  });
});
