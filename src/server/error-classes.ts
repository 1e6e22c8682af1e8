import { GraphQLError } from 'graphql';
import { ClientInputError, ErrorCode } from '../errors/codes.js';
import { StoreUnavailableError } from '../store/port.js';

/** `error` and what it wraps (a resolver's error inside graphql-js's located error, `cause` chains). */
export function* causeChain(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    yield current;
    seen.add(current);
    current = current instanceof GraphQLError && current.originalError ? current.originalError : current.cause;
  }
}

/**
 * The code an error is answered with: its own `extensions.code`, else that of a ClientInputError or
 * StoreUnavailableError it wraps, else INTERNAL_SERVER_ERROR. The error-logging plugin sees errors before
 * Apollo formats them, so it classifies them with this same function.
 */
export function errorCodeOf(error: unknown): string {
  for (const cause of causeChain(error)) {
    if (cause instanceof GraphQLError && typeof cause.extensions.code === 'string') return cause.extensions.code;
    if (cause instanceof ClientInputError) return cause.code;
    if (cause instanceof StoreUnavailableError) return ErrorCode.STORE_UNAVAILABLE;
  }
  return ErrorCode.INTERNAL_SERVER_ERROR;
}

/**
 * Whether the message comes from code below GraphQL (a resolver's `Error`, a RangeError of the engine)
 * rather than from a GraphQLError written for the client. A RangeError ("Maximum call stack size
 * exceeded", "Invalid array length") is one whatever wraps it, even Apollo's parse failure.
 */
export function isUnplannedError(error: unknown): boolean {
  const chain = [...causeChain(error)];
  if (chain.some((cause) => cause instanceof RangeError)) return true;
  if (chain.some((cause) => cause instanceof ClientInputError || cause instanceof StoreUnavailableError)) return false;
  if (chain.some((cause) => cause instanceof GraphQLError && typeof cause.extensions.code === 'string')) return false;
  return chain.some((cause) => !(cause instanceof GraphQLError));
}
