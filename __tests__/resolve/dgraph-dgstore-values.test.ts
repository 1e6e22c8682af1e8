import { secretWrites, HashedPassword } from '../../src/resolve/mutations/hashed-password.js';
import { withDefaultValues } from '../../src/resolve/mutations/default-values.js';
import { customParentOf } from '../../src/resolve/custom-values.js';
import { typeOf, validModel } from '../sdl/helpers.js';

/** The values `@default`, `@secret` and `@dgraph(pred:)` put into writes and into custom logic's `parent`. */

const model = validModel([
  'enum Status { OPEN DONE }',
  'type Task @secret(field: "password", pred: "Task.pwd") {',
  '  id: ID!',
  '  title: String @dgraph(pred: "Task.title")',
  '  status: Status @default(add: {value: "OPEN"})',
  '  votes: Int @default(add: {value: "3"}, update: {value: "0"})',
  '  big: Int64 @default(add: {value: "9007199254740991"})',
  '  weight: Float @default(add: {value: "-2.5"})',
  '  done: Boolean @default(add: {value: "true"})',
  '  due: DateTime @default(add: {value: "2026-02-01T10:00:00+02:00"})',
  '  touched: DateTime @default(update: {value: "$now"})',
  '}',
].join('\n'));
const task = typeOf(model, 'Task');
const NOW = '2026-11-24T02:00:00.000Z';
const now = () => NOW;

describe('withDefaultValues', () => {
  const cases: Array<[what: string, input: Record<string, unknown>, action: 'add' | 'update', expected: Record<string, unknown>]> = [
    ['an empty add takes every add default, typed as a client would send it', {}, 'add', {
      status: 'OPEN', votes: 3, big: 9007199254740991, weight: -2.5, done: true, due: '2026-02-01T08:00:00.000Z',
    }],
    ['given values win; null in an add takes the default', { votes: 7, status: null, done: false }, 'add', {
      votes: 7, status: 'OPEN', done: false, big: 9007199254740991, weight: -2.5, due: '2026-02-01T08:00:00.000Z',
    }],
    ['an update takes the update defaults only; $now is the mutation time', { title: 'x' }, 'update', { title: 'x', votes: 0, touched: NOW }],
    ['an explicit null in an update removes instead', { votes: null, touched: null }, 'update', { votes: null, touched: null }],
  ];
  it.each(cases)('%s', (_what, input, action, expected) => {
    expect(withDefaultValues(task, input, action, now)).toEqual(expected);
  });

  it('leaves an input that needs no default as it is (same object)', () => {
    const input = { votes: 1, touched: NOW };
    expect(withDefaultValues(task, input, 'update', now)).toBe(input);
  });
});

describe('secretWrites', () => {
  it('stores the hash under the stored name', () => {
    expect(secretWrites(task, { password: new HashedPassword('$2b$10$hash') })).toEqual({ set: { 'Task%2Epwd': '$2b$10$hash' }, unset: [] });
  });
  it('removes it when the remove patch names it', () => {
    expect(secretWrites(task, {}, { password: 'anything' })).toEqual({ set: {}, unset: ['Task%2Epwd'] });
  });
  it('refuses a password that was not hashed', () => {
    expect(() => secretWrites(task, { password: 'plain' })).toThrow('Task.password reached the store unhashed');
  });
});

describe('customParentOf', () => {
  it('gives custom logic the values by field name, never the secret or the service\'s own fields', () => {
    const stored = { _id: 't1', 'Task%2Etitle': 'Write', votes: 2, 'Task%2Epwd': '$2b$10$hash', _term_x: ['write'], __typename: 'Task' };
    expect(customParentOf(task, stored)).toEqual({ id: 't1', title: 'Write', votes: 2 });
  });
});
