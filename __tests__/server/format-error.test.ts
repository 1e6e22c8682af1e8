import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ClientInputError, ErrorCode } from '../../src/errors/codes';
import { QueryArgumentError } from '../../src/query/errors';
import { formatError, MASKED_INTERNAL_MESSAGE } from '../../src/server/format-error';
import { StoreUnavailableError } from '../../src/store/port';

/** What Apollo Server hands formatError: its formatted error (INTERNAL_SERVER_ERROR unless the error has a code) and the error. */
function apolloFormats(error: unknown, code = 'INTERNAL_SERVER_ERROR'): GraphQLFormattedError {
  const message = error instanceof Error ? error.message : String(error);
  return formatError({ message, path: ['queryTask'], extensions: { code } }, error);
}

/** A resolver's error as graphql-js hands it on: wrapped in a located GraphQLError. */
const fromResolver = (error: Error) => new GraphQLError(error.message, { originalError: error });

describe('formatError', () => {
  test.each<[string, unknown, string, GraphQLFormattedError]>([
    ['an engine RangeError from a resolver: masked', fromResolver(new RangeError('Maximum call stack size exceeded')), 'INTERNAL_SERVER_ERROR',
      { message: MASKED_INTERNAL_MESSAGE, path: ['queryTask'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    ['a plain Error from a resolver: masked', fromResolver(new Error('invalid filter for collection Task: boom')), 'INTERNAL_SERVER_ERROR',
      { message: MASKED_INTERNAL_MESSAGE, path: ['queryTask'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    ['a query argument error: BAD_USER_INPUT with its message', fromResolver(new QueryArgumentError('first must be at most 10000, got 20000')), 'INTERNAL_SERVER_ERROR',
      { message: 'first must be at most 10000, got 20000', path: ['queryTask'], extensions: { code: 'BAD_USER_INPUT' } }],
    ['a client input error with its own code', fromResolver(new ClientInputError('id x already exists', ErrorCode.DUPLICATE_ID)), 'INTERNAL_SERVER_ERROR',
      { message: 'id x already exists', path: ['queryTask'], extensions: { code: 'DUPLICATE_ID' } }],
    ['a store outage, however wrapped: STORE_UNAVAILABLE', fromResolver(new Error('read failed', { cause: new StoreUnavailableError('no primary') })), 'INTERNAL_SERVER_ERROR',
      { message: 'read failed', path: ['queryTask'], extensions: { code: 'STORE_UNAVAILABLE' } }],
    ['a GraphQLError with its code: unchanged', new GraphQLError('TaskRef: bad', { extensions: { code: 'BAD_USER_INPUT' } }), 'BAD_USER_INPUT',
      { message: 'TaskRef: bad', path: ['queryTask'], extensions: { code: 'BAD_USER_INPUT' } }],
    ["graphql-js's own message (a non-null violation): kept", new GraphQLError('Cannot return null for non-nullable field Task.title.'), 'INTERNAL_SERVER_ERROR',
      { message: 'Cannot return null for non-nullable field Task.title.', path: ['queryTask'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    ['a parse that overflowed the stack: masked, still GRAPHQL_PARSE_FAILED',
      new GraphQLError('Maximum call stack size exceeded', { originalError: new RangeError('Maximum call stack size exceeded'), extensions: { code: 'GRAPHQL_PARSE_FAILED' } }), 'GRAPHQL_PARSE_FAILED',
      { message: MASKED_INTERNAL_MESSAGE, path: ['queryTask'], extensions: { code: 'GRAPHQL_PARSE_FAILED' } }],
    ["the parser's token limit: worded like the limits' refusals",
      new GraphQLError('Syntax Error: Document contains more that 15000 tokens. Parsing aborted.', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } }), 'GRAPHQL_PARSE_FAILED',
      { message: 'the number of tokens in the operation is more than 15000, over the limit 15000; raise it with --max-tokens or MAX_TOKENS', path: ['queryTask'], extensions: { code: 'GRAPHQL_PARSE_FAILED' } }],
  ])('%s', (_name, error, apolloCode, expected) => {
    expect(apolloFormats(error, apolloCode)).toEqual(expected);
  });
});
