import { QueryArgumentError } from '../../src/query/errors.js';

/** Runs `compile` and expects it to refuse its argument as a client mistake, with exactly `message`. */
export function expectArgumentError(compile: () => unknown, message: string): void {
  let thrown: unknown;
  try {
    compile();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(QueryArgumentError);
  expect({ code: (thrown as QueryArgumentError).code, message: (thrown as Error).message }).toEqual({ code: 'BAD_USER_INPUT', message });
}
