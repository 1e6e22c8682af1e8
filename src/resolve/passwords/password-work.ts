import bcrypt from 'bcryptjs';
import { ClientInputError, ErrorCode } from '../../errors/codes.js';
import { DEFAULT_BUDGET_LIMITS } from '../../limits/budget.js';
import type { RequestContext } from '../context.js';
import { WorkSlots } from './work-slots.js';

/**
 * bcrypt, bounded per request. Hashing or checking one password costs about 0.1 s of CPU at cost 10
 * (Dgraph's `bcrypt.DefaultCost`; bcryptjs is pure JavaScript and yields between rounds, so other
 * requests keep running meanwhile). A request may do at most its budget's `maxPasswordOperations` of them
 * (`--max-password-operations`, default 10), counted before any starts, so a client cannot make the
 * service hash a thousand passwords (an add of many users) or try a thousand guesses (aliased
 * `checkTPassword` fields) in one request. Across requests, at most
 * `BCRYPT_SLOTS` operations run at once (one per core of the machines this runs on); the others wait, and
 * give up at their request's deadline.
 */

export const BCRYPT_COST = 10;
export const BCRYPT_SLOTS = 2;

const slots = new WorkSlots(BCRYPT_SLOTS);

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
  return context.budget.within(slots.run(() => bcrypt.hash(password, BCRYPT_COST), () => context.budget.check()));
}

/** Whether `password` is the one `hash` was made from; a stored value that is no bcrypt hash matches nothing. */
export async function passwordMatches(context: RequestContext, password: string, hash: string): Promise<boolean> {
  if (!/^\$2[aby]\$\d{2}\$/.test(hash)) return false;
  return context.budget.within(slots.run(() => bcrypt.compare(password, hash), () => context.budget.check()));
}
