import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { refuseUnlistedOrigin, refuseUntrustedBrowser, type BrowserHeaders, type CrossSiteRefusal } from './cross-site.js';
import { HttpError } from './http-io.js';
import { isLoopbackAddress } from './loopback.js';

export interface AdminCaller extends Partial<BrowserHeaders> {
  /** `req.socket.remoteAddress`. */
  remoteAddress: string | undefined;
  authorization: string | undefined;
}

/** The parts of `req` that decide whether it may call a trusted endpoint. */
export function callerOf(req: IncomingMessage): AdminCaller {
  const secFetchSite = req.headers['sec-fetch-site'];
  return {
    remoteAddress: req.socket.remoteAddress,
    authorization: req.headers.authorization,
    host: req.headers.host,
    origin: req.headers.origin,
    secFetchSite: Array.isArray(secFetchSite) ? secFetchSite.join(',') : secFetchSite,
    localPort: req.socket.localPort,
  };
}

/** What `authorizeAdmin` and `authorizeMetrics` check a caller against. */
export interface TrustPolicy {
  /** When set, callers need `Authorization: Bearer <token>` (from anywhere); otherwise loopback callers only. */
  token: string | undefined;
  /** `--cors-origins`: with a token, the browser origins besides the service's own that may call. */
  corsOrigins?: '*' | readonly string[];
}

/** The callers' side of one trusted endpoint: how messages name it and its token. */
interface TrustedEndpoint {
  /** Subject of the refusals, e.g. `admin endpoints`. */
  subject: string;
  tokenName: string;
  /** `tokenName` with its article. */
  aToken: string;
  tokenVariable: string;
  tokenFlag: string;
  realm: string;
  /** Whether `subject` names several endpoints (the verbs agree with it). */
  plural: boolean;
}

const ADMIN: TrustedEndpoint = { subject: 'admin endpoints', tokenName: 'admin token', aToken: 'an admin token', tokenVariable: 'ADMIN_TOKEN', tokenFlag: '--admin-token', realm: 'autograph-admin', plural: true };
const METRICS: TrustedEndpoint = { subject: '/metrics', tokenName: 'metrics token', aToken: 'a metrics token', tokenVariable: 'METRICS_TOKEN', tokenFlag: '--metrics-token', realm: 'autograph-metrics', plural: false };

/**
 * Throws the HttpError that refuses `caller`, or returns when it may use `/admin/*`.
 * With a token configured, the caller must send `Authorization: Bearer <token>` (from anywhere); without
 * one, only callers on the loopback interface are let in, so a fresh install is not remotely writable, and
 * of those no web page but the service's own (cross-site.ts), since a browser on the machine is on loopback too.
 */
export function authorizeAdmin(caller: AdminCaller, policy: TrustPolicy): void {
  authorize(caller, policy, ADMIN);
}

/**
 * Throws the HttpError that refuses a Prometheus scrape of `/metrics`, or returns when it may read them. Its
 * own token, not the admin token (as Hasura's metrics secret), so a scraper never holds the right to replace
 * the schema; without one, loopback callers only (as Apollo Router, whose metrics listen on 127.0.0.1 by
 * default), and no other site's web page.
 */
export function authorizeMetrics(caller: AdminCaller, policy: TrustPolicy): void {
  authorize(caller, policy, METRICS);
}

function authorize(caller: AdminCaller, policy: TrustPolicy, endpoint: TrustedEndpoint): void {
  const headers: BrowserHeaders = { host: caller.host, origin: caller.origin, secFetchSite: caller.secFetchSite, localPort: caller.localPort };
  if (policy.token !== undefined) {
    const presented = bearerToken(caller.authorization);
    if (presented === undefined || !sameSecret(presented, policy.token)) {
      throw new HttpError(
        401,
        'UNAUTHENTICATED',
        presented === undefined
          ? `${endpoint.subject} ${agree(endpoint, 'needs', 'need')} the header "Authorization: Bearer <${endpoint.tokenName}>"`
          : `the ${endpoint.tokenName} is not valid`,
        { 'www-authenticate': `Bearer realm="${endpoint.realm}"` },
      );
    }
    const refusal = refuseUnlistedOrigin(headers, policy.corsOrigins);
    if (refusal) throw crossSiteError(refusal, endpoint, 'add the origin to --cors-origins (CORS_ORIGINS) to allow a console served there');
    return;
  }
  if (!isLoopbackAddress(caller.remoteAddress)) {
    throw new HttpError(
      403,
      'FORBIDDEN',
      `${endpoint.subject} ${agree(endpoint, 'accepts', 'accept')} only loopback callers when no ${endpoint.tokenName} is configured: ` +
        `set ${endpoint.tokenVariable} (or ${endpoint.tokenFlag}) and send "Authorization: Bearer <token>"`,
    );
  }
  const refusal = refuseUntrustedBrowser(headers);
  if (refusal) {
    throw crossSiteError(
      refusal,
      endpoint,
      `without ${endpoint.aToken} ${agree(endpoint, 'it trusts', 'they trust')} every program on this machine, so ${agree(endpoint, 'it answers', 'they answer')} only curl, the CLI and the service's own pages; ` +
        `set ${endpoint.tokenVariable} (or ${endpoint.tokenFlag}) to call ${agree(endpoint, 'it', 'them')} otherwise`,
    );
  }
}

function crossSiteError(refusal: CrossSiteRefusal, endpoint: TrustedEndpoint, remedy: string): HttpError {
  return new HttpError(403, 'FORBIDDEN', `${endpoint.subject} ${agree(endpoint, 'refuses', 'refuse')} ${describe(refusal)}: ${remedy}`);
}

function agree(endpoint: TrustedEndpoint, singular: string, plural: string): string {
  return endpoint.plural ? plural : singular;
}

function describe(refusal: CrossSiteRefusal): string {
  switch (refusal.kind) {
    case 'foreign-host':
      return `the Host "${refusal.host}": it is not a loopback name or address (localhost, 127.0.0.0/8, [::1]) with the service's port`;
    case 'foreign-origin':
      return `a request from the web page of origin ${refusal.origin}, another origin than the service's`;
    case 'cross-site-fetch':
      return `a browser request sent from another site (Sec-Fetch-Site: ${refusal.site})`;
  }
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/** Constant-time comparison; hashing first makes the inputs equal in length without revealing it. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
