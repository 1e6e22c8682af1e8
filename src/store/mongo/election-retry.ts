import { MongoServerError, MongoServerSelectionError } from 'mongodb';

/**
 * How long the service rides out a replica set without a primary before calling MongoDB unavailable.
 * The MongoDB manual (Replica Set Elections) puts the median time to elect a new primary at no more than
 * 12 seconds with the default settings (`electionTimeoutMillis` 10 s, plus heartbeats).
 */
export const ELECTION_WINDOW_MS = 12_000;

/** Pause between two attempts of an operation while no primary is known. */
export const ELECTION_POLL_MS = 250;

/** "Not primary" refusals: the server did not run the operation, so running it again cannot apply it twice. */
const NOT_PRIMARY_CODES = new Set([
  10107, // NotWritablePrimary
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/**
 * Errors after which an operation was certainly not applied: no server could be selected for it, or the
 * server refused it as not primary. Retrying those is safe for any write. (A network error in the middle
 * of a write is not among them: the driver's retryable writes already retried that once, with the
 * server's own protection against applying it twice.)
 */
export function isNotAppliedError(error: unknown): boolean {
  if (error instanceof MongoServerSelectionError) return true;
  return error instanceof MongoServerError && typeof error.code === 'number' && NOT_PRIMARY_CODES.has(error.code);
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
