import type { SourceLocation } from '../sdl/model.js';

/** A lambda script that cannot be loaded: a syntax error, a top-level throw, or a bad registration. */
export class LambdaScriptError extends Error {
  override readonly name = 'LambdaScriptError';

  constructor(
    message: string,
    /** Where in the script the problem is, when the engine reports it (1-based line and column). */
    readonly location?: SourceLocation,
  ) {
    super(location ? `${message} (line ${location.line}, column ${location.column})` : message);
  }
}

/**
 * Why a lambda call failed:
 * - `not-registered`: no resolver is registered under the name;
 * - `thrown`: the resolver threw or its promise rejected;
 * - `timeout`: the call did not finish within the time limit (or ran past it in code that could not be
 *   interrupted, so its worker was restarted);
 * - `bad-input`: the parent, args or auth header given to the call cannot be sent to the script as JSON;
 * - `bad-result`: the resolver answered with a value that is not JSON-like, a batch of the wrong length,
 *   or a result larger than the result limit;
 * - `worker-stopped`: the script's worker stopped while running this call (a memory limit: heap,
 *   ArrayBuffers held, resident memory), or while this
 *   call was in flight and the call could not run again (a started mutation, or lost a second time), or
 *   the worker kept crashing on its own and restarts were given up;
 * - `closed`: the host was closed.
 */
export type LambdaCallFailure =
  | 'not-registered'
  | 'thrown'
  | 'timeout'
  | 'bad-input'
  | 'bad-result'
  | 'worker-stopped'
  | 'closed';

/** A lambda resolver call that failed; the message names the resolver. */
export class LambdaCallError extends Error {
  override readonly name = 'LambdaCallError';

  constructor(
    readonly resolver: string,
    readonly failure: LambdaCallFailure,
    /** Why, without the resolver's name. */
    readonly detail: string,
  ) {
    super(`Lambda resolver ${resolver} failed: ${detail}`);
  }
}
