import { GraphQLError } from 'graphql';
import { ErrorCode } from '../errors/codes.js';

/**
 * A token was sent but cannot be trusted (bad signature, expired, not yet valid, other audience, other
 * algorithm, malformed). The request is refused before anything runs: HTTP 401, code UNAUTHENTICATED.
 */
export class AuthenticationError extends GraphQLError {
  constructor(readonly reason: string, header: string) {
    super(`invalid token in header ${header}: ${reason}`, {
      extensions: { code: ErrorCode.UNAUTHENTICATED, http: { status: 401 } },
    });
    this.name = 'AuthenticationError';
  }
}

/**
 * A token was sent but the key set that would verify it cannot be fetched (and no recent copy is at hand).
 * The request is refused rather than served as anonymous: HTTP 503, code KEY_SET_UNAVAILABLE.
 */
export class KeySetUnavailableError extends GraphQLError {
  constructor(readonly url: string, reason: string) {
    super(`cannot verify the token: the key set ${url} cannot be fetched (${reason})`, {
      extensions: { code: ErrorCode.KEY_SET_UNAVAILABLE, http: { status: 503 } },
    });
    this.name = 'KeySetUnavailableError';
  }
}

/**
 * A mutation rule refused it: an `add` rule refused an object being added, or an `update` rule refused a
 * change to an existing object (an upsert, or a link that writes the object's side of an edge). The
 * mutation writes nothing.
 */
export class AuthorizationError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: ErrorCode.FORBIDDEN } });
    this.name = 'AuthorizationError';
  }
}

/** An `@auth` rule that cannot be compiled (the schema let through a rule this layer cannot read). */
export class AuthRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthRuleError';
  }
}
