import { ClientInputError, isClientErrorCode } from '../../src/errors/codes.js';
import { QueryArgumentError } from '../../src/query/errors.js';
import { RegexpArgumentError } from '../../src/query/regexp.js';

describe('query argument errors are client errors', () => {
  test.each<[string, Error, string]>([
    ['QueryArgumentError', new QueryArgumentError('Task.priority eq: expected a number, got "1"'), 'QueryArgumentError'],
    ['RegexpArgumentError', new RegexpArgumentError('Task.title regexp: the pattern is empty'), 'RegexpArgumentError'],
  ])('%s: its name, message and code', (_name, error, name) => {
    expect(error).toBeInstanceOf(ClientInputError);
    expect(error).toBeInstanceOf(QueryArgumentError);
    expect(error.name).toBe(name);
    expect((error as ClientInputError).code).toBe('BAD_USER_INPUT');
    expect(isClientErrorCode((error as ClientInputError).code)).toBe(true);
  });

  test('the message reaches the client unchanged', () => {
    expect(new QueryArgumentError('TaskFilter: type Task has no field "nope"').message).toBe('TaskFilter: type Task has no field "nope"');
  });
});
