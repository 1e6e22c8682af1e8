import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { StoreUnavailableError } from '../store/port.js';

/** The error code of every answer that failed because the data store could not be reached (as the persisted query plugin's). */
export const STORE_UNAVAILABLE_CODE = 'STORE_UNAVAILABLE';

/**
 * Apollo Server's `formatError`: an error caused by StoreUnavailableError (thrown by a resolver, maybe
 * wrapped) carries the code STORE_UNAVAILABLE instead of INTERNAL_SERVER_ERROR, so clients can tell
 * "try again later" from a fault. Its message already reads "data store unavailable: ...".
 */
export function formatStoreUnavailable(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  if (!causedByStoreUnavailable(error)) {
    return formatted;
  }
  return { ...formatted, extensions: { ...formatted.extensions, code: STORE_UNAVAILABLE_CODE } };
}

function causedByStoreUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    if (current instanceof StoreUnavailableError) {
      return true;
    }
    seen.add(current);
    current = current instanceof GraphQLError && current.originalError ? current.originalError : current.cause;
  }
  return false;
}
