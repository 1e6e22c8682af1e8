import bcrypt from 'bcryptjs';
import { ClientInputError, ErrorCode } from '../../errors/codes.js';
import { DEFAULT_BUDGET_LIMITS } from '../../limits/budget.js';
import type { RequestContext } from '../context.js';

/**
 * bcrypt, bounded per request. Hashing or checking one password costs about 0.1 s of CPU at cost 10
 * (Dgraph's `bcrypt.DefaultCost`; bcryptjs is pure JavaScript and yields between rounds, so other
 * requests keep running meanwhile). A request may do at most its budget's `maxPasswordOperations` of them
 * (`--max-password-operations`, default 10), counted before any starts, so a client cannot make the service hash a thousand passwords (an add of many users)
 * or try a thousand guesses (aliased `checkTPassword` fields) in one request. Each operation also stops
 * at the request's deadline.
 */

export const BCRYPT_COST = 10;

const spent = new WeakMap<RequestContext, number>();

/** Reserves `count` operations of the request's allowance; throws TOO_MANY_PASSWORD_OPERATIONS past it (nothing reserved). */
export function reservePasswordOperations(context: RequestContext, count: number, what: string): void {
  if (count === 0) return;
  const limit = context.budget.limits.maxPasswordOperations ?? DEFAULT_BUDGET_LIMITS.maxPasswordOperations;
  const used = spent.get(context) ?? 0;
  if (used + count > limit) {
    throw new ClientInputError(
      `${what} needs ${count} password ${count === 1 ? 'operation' : 'operations'} (bcrypt), and this request has ${limit - used} of ${limit} left; send fewer passwords per request (--max-password-operations)`,
      ErrorCode.TOO_MANY_PASSWORD_OPERATIONS,
    );
  }
  spent.set(context, used + count);
}

/** The bcrypt hash of `password` (call `reservePasswordOperations` first). */
export function hashPassword(context: RequestContext, password: string): Promise<string> {
  return context.budget.within(bcrypt.hash(password, BCRYPT_COST));
}

/** Whether `password` is the one `hash` was made from; a stored value that is no bcrypt hash matches nothing. */
export async function passwordMatches(context: RequestContext, password: string, hash: string): Promise<boolean> {
  if (!/^\$2[aby]\$\d{2}\$/.test(hash)) return false;
  return context.budget.within(bcrypt.compare(password, hash));
}
