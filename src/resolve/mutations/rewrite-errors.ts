import { GraphQLError } from 'graphql';
import { ClientInputError, ErrorCode } from '../../errors/codes.js';

/**
 * Mutation errors worded as Dgraph words them (graphql/resolve/mutation.go and mutation_rewriter.go), so
 * clients moving over keep matching on them: a refusal of the input a mutation writes (a missing field, an
 * `@id` already taken, a Ref to nothing) reads "couldn't rewrite mutation addT because failed to rewrite
 * mutation payload because ..."; a refusal of its filter "couldn't rewrite mutation updateT because ...".
 * Only the client's errors are reworded: the code and extensions stay; authorization refusals and the
 * service's own failures pass unchanged.
 */

/** What part of the mutation the error is about: the objects it writes (`payload`) or the objects it selects (`filter`). */
export type RewritePart = 'payload' | 'filter';

const REWORDED_CODES: ReadonlySet<unknown> = new Set([ErrorCode.BAD_USER_INPUT, ErrorCode.DUPLICATE_ID]);

/** Runs one part of mutation `mutation` (its field name, `addT`), answering its client errors in Dgraph's words. */
export async function rewording<T>(mutation: string, part: RewritePart, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw reworded(mutation, part, error);
  }
}

/** `error` in Dgraph's words when it is the client's refusal of the mutation's input; otherwise `error` itself. */
export function reworded(mutation: string, part: RewritePart, error: unknown): unknown {
  if (typeof error !== 'object' || error === null || alreadyReworded.has(error)) return error;
  const prefix = `couldn't rewrite mutation ${mutation} because ${part === 'payload' ? 'failed to rewrite mutation payload because ' : ''}`;
  let answer: Error | undefined;
  if (error instanceof ClientInputError && REWORDED_CODES.has(error.code)) {
    answer = new ClientInputError(prefix + error.message, error.code);
  } else if (error instanceof GraphQLError && REWORDED_CODES.has(error.extensions.code)) {
    answer = new GraphQLError(prefix + error.message, { extensions: error.extensions, originalError: error });
  }
  if (!answer) return error;
  alreadyReworded.add(answer);
  return answer;
}

/** Errors already in Dgraph's words, so an enclosing part leaves them as they are. */
const alreadyReworded = new WeakSet<object>();
