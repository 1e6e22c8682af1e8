/**
 * CORS for `/graphql`, as a pure function of the policy and the request's headers. Off unless origins are
 * configured: then no `Access-Control-*` header is ever sent and browsers keep their same-origin rule.
 *
 * Credentials (cookies) are never allowed: the service authenticates by a header token, which a browser
 * sends only when the page's script sets it, so `Access-Control-Allow-Credentials` is not needed.
 */

export interface CorsPolicy {
  /** `*` for any origin, or the exact origins allowed. */
  origins: '*' | readonly string[];
  /** How long a browser may reuse a preflight answer, in seconds. */
  maxAgeSeconds: number;
}

/** Browsers may cache a preflight for this long (Chromium caps it at 2 hours); a schema's new auth header is seen within it. */
export const CORS_MAX_AGE_SECONDS = 600;

/** The methods `/graphql` serves. */
export const CORS_METHODS = ['GET', 'POST'] as const;

/**
 * Request headers a browser client of `/graphql` sends beyond the CORS-safelisted ones: JSON bodies,
 * Apollo's CSRF-prevention headers (GET needs one), Apollo Client's name and version (its
 * `clientAwareness`), and the request id a client may pass along.
 */
export const CORS_BASE_HEADERS = [
  'content-type',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'apollographql-client-name',
  'apollographql-client-version',
  'x-request-id',
] as const;

export interface CorsRequest {
  method: string;
  origin: string | undefined;
  /** `Access-Control-Request-Method`: present on a preflight only. */
  requestMethod: string | undefined;
}

export type CorsAnswer =
  /** Not a cross-origin request, or CORS is off: nothing to add. */
  | { kind: 'none' }
  /** An actual request: add these headers to its response (none when its origin is not allowed). */
  | { kind: 'actual'; headers: Record<string, string> }
  /** A preflight from an allowed origin: answer 204 with these headers, without running anything. */
  | { kind: 'preflight'; headers: Record<string, string> }
  /** A preflight from an origin not in the list: refuse it, saying which origin. */
  | { kind: 'refused-preflight'; origin: string; headers: Record<string, string> };

/** What a preflight allows a listed origin: the methods it may use and the request headers it may send. */
export interface CorsOffer {
  methods: readonly string[];
  headers: readonly string[];
}

/** `/graphql`'s offer: `authHeader` is the active schema's token header (`# Autograph.Authorization` Header), which a browser must be allowed to send. */
export function graphqlCorsOffer(authHeader: string | undefined): CorsOffer {
  return { methods: CORS_METHODS, headers: allowedHeaders(authHeader) };
}

/** The admin endpoints' offer, made only when an admin token is configured: a console sends it as `Authorization`. */
export const ADMIN_CORS_OFFER: CorsOffer = { methods: ['GET', 'POST', 'DELETE'], headers: ['authorization', 'content-type', 'x-request-id'] };

/** What CORS adds to or answers for one request. */
export function answerCors(policy: CorsPolicy | undefined, request: CorsRequest, offer: CorsOffer): CorsAnswer {
  if (policy === undefined || request.origin === undefined) return { kind: 'none' };
  const anyOrigin = policy.origins === '*';
  const allowed = anyOrigin || policy.origins.includes(request.origin);
  // With a list, the answer depends on Origin: shared caches must keep one copy per origin.
  const vary: Record<string, string> = anyOrigin ? {} : { vary: 'Origin' };
  const isPreflight = request.method === 'OPTIONS' && request.requestMethod !== undefined;
  if (!allowed) {
    return isPreflight ? { kind: 'refused-preflight', origin: request.origin, headers: vary } : { kind: 'actual', headers: vary };
  }
  const allowOrigin = { 'access-control-allow-origin': anyOrigin ? '*' : request.origin, ...vary };
  if (!isPreflight) return { kind: 'actual', headers: allowOrigin };
  return {
    kind: 'preflight',
    headers: {
      ...allowOrigin,
      'access-control-allow-methods': offer.methods.join(', '),
      'access-control-allow-headers': offer.headers.join(', '),
      'access-control-max-age': String(policy.maxAgeSeconds),
    },
  };
}

function allowedHeaders(authHeader: string | undefined): string[] {
  const headers: string[] = [...CORS_BASE_HEADERS];
  const auth = authHeader?.toLowerCase();
  if (auth !== undefined && !headers.includes(auth)) headers.push(auth);
  return headers;
}
