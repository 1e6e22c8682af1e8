import { GraphQLError, type ExecutionResult } from 'graphql';
import { ErrorCode } from '../errors/codes.js';

export function tooManyOnConnection(limit: number): GraphQLError {
  return new GraphQLError(`this connection already runs ${limit} subscriptions, the most allowed per connection; complete one first`, {
    extensions: { code: ErrorCode.TOO_MANY_SUBSCRIPTIONS, limit },
  });
}

export function serviceAtCapacity(limit: number): GraphQLError {
  return new GraphQLError(`the service runs ${limit} subscriptions, the most it allows; try again later`, {
    extensions: { code: ErrorCode.SUBSCRIPTIONS_AT_CAPACITY, limit },
  });
}

export function onlySubscriptions(operation: string): GraphQLError {
  return new GraphQLError(`only subscriptions are served over WebSocket; send this ${operation} over HTTP POST to /graphql`, {
    extensions: { code: ErrorCode.BAD_REQUEST },
  });
}

export function noSchemaYet(): GraphQLError {
  return new GraphQLError('no schema is loaded yet: upload one to /admin/schema', { extensions: { code: ErrorCode.SCHEMA_NOT_LOADED } });
}

/** The last result of every subscription running when a new schema is activated. */
export function schemaChangedResult(): ExecutionResult {
  return {
    errors: [
      new GraphQLError('the schema was replaced, so this subscription ended; subscribe again to follow the new schema', {
        extensions: { code: ErrorCode.SCHEMA_CHANGED },
      }),
    ],
  };
}

export function tokenExpired(header: string, expiredAt: Date): GraphQLError {
  return new GraphQLError(`the token in ${header} expired at ${expiredAt.toISOString()}, so the subscription ended; reconnect with a fresh token`, {
    extensions: { code: ErrorCode.UNAUTHENTICATED },
  });
}
