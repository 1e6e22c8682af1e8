import { ClientInputError, ERROR_CODES, ErrorCode, isClientErrorCode } from '../../src/errors/codes';
import { PERSISTED_QUERY_CLIENT_ERROR_CODES } from '../../src/persisted/index';
import { QueryArgumentError } from '../../src/query/errors';

describe('error codes', () => {
  test.each<[string, boolean]>([
    ['BAD_USER_INPUT', true],
    ['GRAPHQL_VALIDATION_FAILED', true],
    ['GRAPHQL_PARSE_FAILED', true],
    ['UNAUTHENTICATED', true],
    ['FORBIDDEN', true],
    ['DUPLICATE_ID', true],
    ['BAD_SCHEMA', true],
    ['BAD_LAMBDA_SCRIPT', true],
    ['INTERNAL_SERVER_ERROR', false],
    ['STORE_UNAVAILABLE', false],
    ['LAMBDA_FAILED', false],
    ['SOMETHING_NEW', false],
  ])('%s is a client code: %s', (code, client) => {
    expect(isClientErrorCode(code)).toBe(client);
  });

  test('every persisted query client code is a client code here', () => {
    for (const code of PERSISTED_QUERY_CLIENT_ERROR_CODES) expect(ERROR_CODES).toHaveProperty(code, 'client');
  });

  test('ErrorCode names each code as itself', () => {
    expect(Object.entries(ErrorCode).every(([name, code]) => name === code)).toBe(true);
    expect(Object.keys(ErrorCode).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  test('a query argument error is a client input error with BAD_USER_INPUT', () => {
    const error = new QueryArgumentError('first must be at most 10000, got 20000');
    expect(error).toBeInstanceOf(ClientInputError);
    expect(error.code).toBe('BAD_USER_INPUT');
  });
});
