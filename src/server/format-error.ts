import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode } from '../errors/codes.js';
import { howToRaise } from '../limits/settings.js';
import { errorCodeOf, isUnplannedError } from './error-classes.js';

/** What a client reads instead of the message of a fault the service did not plan for. */
export const MASKED_INTERNAL_MESSAGE = 'internal server error: the service logged the details';

/** graphql-js's refusal when `parseOptions.maxTokens` stops the parser (16.x writes "more that"). */
const PARSER_TOKEN_LIMIT = /^Syntax Error: Document contains more tha[nt] (\d+) tokens\. Parsing aborted\.$/;

/**
 * Apollo Server's `formatError`. Errors thrown below the GraphQL layer keep their code: a ClientInputError
 * (a bad filter, `first`, `offset`, Ref...) answers BAD_USER_INPUT or its own code with its message, a
 * StoreUnavailableError answers STORE_UNAVAILABLE. Any other fault answers INTERNAL_SERVER_ERROR with a
 * fixed message: engine messages ("Maximum call stack size exceeded", driver errors) never reach clients;
 * the error-logging plugin logs the real one.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const code = errorCodeOf(error);
  if (isUnplannedError(error)) {
    // Usually INTERNAL_SERVER_ERROR; a parse that overflowed the stack keeps GRAPHQL_PARSE_FAILED.
    return { ...formatted, message: MASKED_INTERNAL_MESSAGE, extensions: { ...formatted.extensions, code } };
  }
  const tokenLimit = code === ErrorCode.GRAPHQL_PARSE_FAILED ? PARSER_TOKEN_LIMIT.exec(formatted.message) : null;
  if (tokenLimit) {
    // The parser's backstop for query texts the limits plugin did not scan (found by hash): said like its refusals.
    const limit = tokenLimit[1];
    return { ...formatted, message: `the number of tokens in the operation is more than ${limit}, over the limit ${limit}; ${howToRaise('maxTokens')}` };
  }
  if (formatted.extensions?.code === code) return formatted;
  return { ...formatted, extensions: { ...formatted.extensions, code } };
}
