import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import { errorCodeOf, isUnplannedError } from './error-classes.js';

/** What a client reads instead of the message of a fault the service did not plan for. */
export const MASKED_INTERNAL_MESSAGE = 'internal server error: the service logged the details';

/**
 * Apollo Server's `formatError`. Errors thrown below the GraphQL layer keep their code: a ClientInputError
 * (a bad filter, `first`, `offset`, Ref...) answers BAD_USER_INPUT or its own code with its message, a
 * StoreUnavailableError answers STORE_UNAVAILABLE. Any other fault answers INTERNAL_SERVER_ERROR with a
 * fixed message: engine messages ("Maximum call stack size exceeded", driver errors) never reach clients;
 * the error-logging plugin logs the real one.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const code = errorCodeOf(error);
  if (code === ErrorCode.INTERNAL_SERVER_ERROR && isUnplannedError(error)) {
    return { ...formatted, message: MASKED_INTERNAL_MESSAGE, extensions: { ...formatted.extensions, code } };
  }
  if (formatted.extensions?.code === code) return formatted;
  return { ...formatted, extensions: { ...formatted.extensions, code } };
}
