import { MongoErrorLabel, MongoError, MongoServerError, type ClientSession, type TransactionOptions } from 'mongodb';
import { StoreUnavailableError } from '../port.js';
import { pause } from './election-retry.js';

/** Snapshot reads and a majority-acknowledged commit: what the service's all-or-nothing mutations rely on. */
export const TRANSACTION_OPTIONS: TransactionOptions = { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } };

const MAX_TIME_MS_EXPIRED = 50;

const hasLabel = (error: unknown, label: string): boolean => error instanceof MongoError && error.hasErrorLabel(label);
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs `work` in one transaction on `session` with the retry logic the MongoDB manual gives for the Core
 * API ("Transactions in Applications"): the whole transaction again after an error labelled
 * TransientTransactionError (a write conflict, a primary stepping down), and the commit again after
 * UnknownTransactionCommitResult (the driver retries a commit with majority write concern). The driver's
 * `withTransaction` does the same for up to 120 s; here every retry, of the work or of the commit, starts
 * only within `windowMS` of the first attempt, so a caller waits at most about `windowMS` plus the
 * running operation's own server selection.
 */
export async function runTransaction<T>(session: ClientSession, work: () => Promise<T>, windowMS: number): Promise<T> {
  const startedAt = Date.now();
  const elapsed = () => Date.now() - startedAt;
  let attempts = 0;
  let lastError: unknown;
  for (;;) {
    if (attempts > 0) {
      if (elapsed() >= windowMS) {
        throw new Error(`transaction abandoned after ${attempts} attempts in ${elapsed()} ms, the last failing with: ${messageOf(lastError)}`);
      }
      await pause(backoffMS(attempts));
    }
    attempts += 1;
    session.startTransaction(TRANSACTION_OPTIONS);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await abortQuietly(session);
      if (!hasLabel(error, MongoErrorLabel.TransientTransactionError)) throw error;
      lastError = error;
      continue;
    }
    const failed = await commit(session, elapsed, windowMS);
    if (!failed) return result;
    lastError = failed;
  }
}

/** Commits, retrying an unknown result within the window; returns a transient error (retry the whole), else throws. */
async function commit(session: ClientSession, elapsed: () => number, windowMS: number): Promise<unknown> {
  for (;;) {
    try {
      await session.commitTransaction();
      return undefined;
    } catch (error) {
      const timedOut = error instanceof MongoServerError && error.code === MAX_TIME_MS_EXPIRED;
      if (hasLabel(error, MongoErrorLabel.UnknownTransactionCommitResult) && !timedOut) {
        if (elapsed() < windowMS) continue;
        throw new StoreUnavailableError(`the commit of a transaction was not confirmed within ${windowMS} ms (${messageOf(error)}); its writes may or may not be in place`);
      }
      if (hasLabel(error, MongoErrorLabel.TransientTransactionError)) return error;
      throw error;
    }
  }
}

/** An abort after a failure is best effort: the server aborts an unfinished transaction by itself. */
async function abortQuietly(session: ClientSession): Promise<void> {
  if (!session.inTransaction()) return;
  try {
    await session.abortTransaction();
  } catch {
    // The server discards the transaction at its timeout (transactionLifetimeLimitSeconds) anyway.
  }
}

/** The driver's backoff between transaction attempts: up to 5 ms × 1.5^attempt, at most 500 ms, with jitter. */
function backoffMS(attempt: number): number {
  return Math.random() * Math.min(5 * 1.5 ** attempt, 500);
}
