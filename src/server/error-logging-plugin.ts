import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { Logger } from 'pino';
import { PERSISTED_QUERY_CLIENT_ERROR_CODES } from '../persisted/index.js';

/** Error codes that describe a bad request rather than a fault of the service. */
const CLIENT_ERROR_CODES: ReadonlySet<string> = new Set([
  ...PERSISTED_QUERY_CLIENT_ERROR_CODES,
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'RESULT_TOO_LARGE',
]);

/**
 * Logs each GraphQL error of a request as one line: at `debug` when the request was at fault (so normal
 * client mistakes do not flood the log), at `warn` otherwise. One error that failed many fields (an
 * exceeded request budget, a failed batch load) is logged once, at its first path.
 */
export function errorLoggingPlugin<TContext extends BaseContext>(logger: Logger): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, operationName }) {
          const logged = new Set<unknown>();
          for (const error of errors) {
            const cause = error.originalError ?? error;
            if (logged.has(cause)) continue;
            logged.add(cause);
            const code = typeof error.extensions.code === 'string' ? error.extensions.code : undefined;
            const entry = { code, operationName, path: error.path, err: error.originalError ?? error };
            if (code !== undefined && CLIENT_ERROR_CODES.has(code)) {
              logger.debug(entry, 'graphql request rejected');
            } else {
              logger.warn(entry, 'graphql request error');
            }
          }
        },
      };
    },
  };
}
