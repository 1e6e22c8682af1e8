import type { Context } from '@opentelemetry/api';
import { ERROR_CODES, isClientErrorCode } from '../errors/codes.js';

export type PersistedQueryResult = 'hit' | 'miss' | 'register';

/** What is learnt about one HTTP request while it runs; the request observer reports it when it ends. */
export interface RequestObservation {
  readonly requestId: string;
  /**
   * The OpenTelemetry context holding the request's span, the parent of its store, lambda and `@custom`
   * spans; undefined when no SDK traces (then those calls make no spans at all).
   */
  readonly traceContext?: Context;
  /**
   * For a request whose new trace the sampler dropped before any span was made: the context its `@custom`
   * calls pass on, flagged not sampled (made only if it makes one).
   */
  readonly droppedTraceContext?: () => Context;
  /** `query`, `mutation` or `subscription` once Apollo resolved the operation (after validation). */
  operationType?: string;
  /** The operation's name once resolved; empty for an anonymous operation. */
  operationName?: string;
  /** `extensions.code` of every error answered, in order, without repeats. */
  readonly errorCodes: string[];
  persistedQuery?: PersistedQueryResult;
}

export function noteErrorCode(observation: RequestObservation, code: string): void {
  if (!observation.errorCodes.includes(code)) observation.errorCodes.push(code);
}

/**
 * The request's outcome label: `server_error` when any error was the service's (or, with no error code,
 * the status is 5xx), else the first client error code (`client_error` for a 4xx without one), else `ok`.
 * Codes come from errors/codes.ts, a fixed set, so the label's values are bounded.
 */
export function outcomeOf(observation: RequestObservation, status: number): string {
  const codes = observation.errorCodes;
  if (codes.some((code) => !isClientErrorCode(code))) return 'server_error';
  const clientCode = codes.find((code) => Object.hasOwn(ERROR_CODES, code));
  if (clientCode !== undefined) return clientCode;
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}
