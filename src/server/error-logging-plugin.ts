import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import type { Logger } from 'pino';
import { isClientErrorCode } from '../errors/codes.js';
import { errorCodeOf } from './error-classes.js';

/**
 * Logs each GraphQL error of a request as one line: at `debug` when the request was at fault (so normal
 * client mistakes do not flood the log), at `warn` otherwise, with the real error (whose message the
 * client does not see when it is masked, see format-error.ts). One error that failed many fields (an
 * exceeded request budget, a failed batch load) is logged once, at its first path.
 */
export function errorLoggingPlugin<TContext extends BaseContext>(logger: Logger): ApolloServerPlugin<TContext> {
  // Keeps nothing between hooks (the causes already logged are per call): one listener serves every request.
  const listener: GraphQLRequestListener<TContext> = {
    async didEncounterErrors({ errors, operationName }) {
      const logged = new Set<unknown>();
      for (const error of errors) {
        const cause = error.originalError ?? error;
        if (logged.has(cause)) continue;
        logged.add(cause);
        const code = errorCodeOf(error);
        const entry = { code, operationName, path: error.path, err: error.originalError ?? error };
        if (isClientErrorCode(code)) {
          logger.debug(entry, 'graphql request rejected');
        } else {
          logger.warn(entry, 'graphql request error');
        }
      }
    },
  };
  return {
    async requestDidStart() {
      return listener;
    },
  };
}
