/**
 * Requests the service sends to itself on behalf of code the operator installed (a lambda script's
 * `graphql()`), as opposed to requests from clients. In safelist mode such a request runs without being
 * registered: the safelist limits what clients may send, and the operator's own script is not a client.
 *
 * The mark is a symbol-keyed property: a request parsed from an HTTP body (JSON) cannot carry one, so
 * clients cannot claim it. It survives Apollo Server copying the request object (object spread).
 */
const TRUSTED_REQUEST = Symbol('autograph.persisted.trustedRequest');

/** Marks `request` (a GraphQL request about to be passed to Apollo Server) as sent by the service itself. */
export function markTrustedRequest<T extends object>(request: T): T {
  Object.defineProperty(request, TRUSTED_REQUEST, { value: true, enumerable: true });
  return request;
}

export function isTrustedRequest(request: object): boolean {
  return (request as { [TRUSTED_REQUEST]?: unknown })[TRUSTED_REQUEST] === true;
}
