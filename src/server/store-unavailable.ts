import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { STORE_UNAVAILABLE_CODE, StoreUnavailableError } from '../store/port.js';

export { STORE_UNAVAILABLE_CODE };

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
