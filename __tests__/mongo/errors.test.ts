import {
  MongoClientClosedError,
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { isTransientTransactionError, toStoreError } from '../../src/store/mongo/errors.js';
import { DuplicateKeyError, StoreUnavailableError } from '../../src/store/port.js';

// Bulk inserts (MongoBulkWriteError as driver 7 builds it from a server reply): ./duplicate-insert.test.ts.
describe('toStoreError', () => {
  it('turns E11000 with keyValue into DuplicateKeyError(collection, field, value)', () => {
    const error = new MongoServerError({
      message: 'E11000 duplicate key error collection: app.User index: ag_User_username dup key: { username: "ann" }',
      code: 11000,
      keyPattern: { username: 1 },
      keyValue: { username: 'ann' },
    });
    const translated = toStoreError(error, 'User');
    expect(translated).toBeInstanceOf(DuplicateKeyError);
    expect(translated).toMatchObject({ collection: 'User', field: 'username', value: 'ann' });
    expect((translated as Error).message).toBe('duplicate value "ann" for username in User');
  });

  it('names every field of a compound key', () => {
    const error = new MongoServerError({ message: 'E11000', code: 11000, keyValue: { a: 1, b: 'x' } });
    expect(toStoreError(error, 'T')).toMatchObject({ field: 'a,b', value: { a: 1, b: 'x' } });
  });

  it('falls back to the message when the server sends no keyValue', () => {
    const error = new MongoServerError({
      message: 'E11000 duplicate key error collection: app.User index: ag_User_username dup key: { username: "ann" }',
      code: 11000,
    });
    expect(toStoreError(error, 'User')).toMatchObject({ field: 'ag_User_username', value: '{ username: "ann" }' });
  });

  it.each<[string, Error]>([
    ['a network error', new MongoNetworkError('connection reset')],
    ['a server selection timeout', new MongoServerSelectionError('Server selection timed out after 2000 ms', { type: 'Unknown' } as never)],
    ['a closed topology', new MongoTopologyClosedError()],
    ['a closed client', new MongoClientClosedError()],
    ['a primary stepping down', new MongoServerError({ message: 'not primary', code: 10107 })],
    ['a shutdown in progress', new MongoServerError({ message: 'shutting down', code: 91 })],
  ])('turns %s into StoreUnavailableError', (_case, error) => {
    const translated = toStoreError(error, 'Task');
    expect(translated).toBeInstanceOf(StoreUnavailableError);
    expect((translated as Error).message).toBe(`data store unavailable: ${error.message}`);
  });

  it('returns other errors unchanged, so their message still says what is wrong', () => {
    const badQuery = new MongoServerError({ message: 'unknown operator: $eqq', code: 2 });
    expect(toStoreError(badQuery, 'Task')).toBe(badQuery);
    const plain = new TypeError('boom');
    expect(toStoreError(plain, 'Task')).toBe(plain);
  });

  it('passes port errors through', () => {
    const duplicate = new DuplicateKeyError('User', 'username', 'ann');
    expect(toStoreError(duplicate, 'Other')).toBe(duplicate);
  });
});

describe('isTransientTransactionError', () => {
  it('follows the TransientTransactionError label', () => {
    const conflict = new MongoServerError({ message: 'WriteConflict', code: 112, errorLabels: ['TransientTransactionError'] });
    expect(isTransientTransactionError(conflict)).toBe(true);
    expect(isTransientTransactionError(new MongoServerError({ message: 'E11000', code: 11000 }))).toBe(false);
    expect(isTransientTransactionError(new Error('plain'))).toBe(false);
  });
});
