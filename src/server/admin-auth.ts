import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { HttpError } from './http-io.js';

export interface AdminCaller {
  /** `req.socket.remoteAddress`. */
  remoteAddress: string | undefined;
  authorization: string | undefined;
}

/**
 * Throws the HttpError that refuses `caller`, or returns when it may use `/admin/*`.
 * With a token configured, the caller must send `Authorization: Bearer <token>` (from anywhere); without
 * one, only callers on the loopback interface are let in, so a fresh install is not remotely writable.
 */
export function authorizeAdmin(caller: AdminCaller, adminToken: string | undefined): void {
  if (adminToken !== undefined) {
    const presented = bearerToken(caller.authorization);
    if (presented === undefined || !sameSecret(presented, adminToken)) {
      throw new HttpError(
        401,
        'UNAUTHENTICATED',
        presented === undefined
          ? 'admin endpoints need the header "Authorization: Bearer <admin token>"'
          : 'the admin token is not valid',
        { 'www-authenticate': 'Bearer realm="autograph-admin"' },
      );
    }
    return;
  }
  if (!isLoopbackAddress(caller.remoteAddress)) {
    throw new HttpError(
      403,
      'FORBIDDEN',
      'admin endpoints accept only loopback callers when no admin token is configured: ' +
        'set ADMIN_TOKEN (or --admin-token) and send "Authorization: Bearer <token>"',
    );
  }
}

/**
 * Throws the HttpError that refuses a Prometheus scrape of `/metrics`, or returns when it may read them. Its
 * own token, not the admin token (as Hasura's metrics secret), so a scraper never holds the right to replace
 * the schema; without one, loopback callers only (as Apollo Router, whose metrics listen on 127.0.0.1 by default).
 */
export function authorizeMetrics(caller: AdminCaller, metricsToken: string | undefined): void {
  if (metricsToken !== undefined) {
    const presented = bearerToken(caller.authorization);
    if (presented === undefined || !sameSecret(presented, metricsToken)) {
      throw new HttpError(
        401,
        'UNAUTHENTICATED',
        presented === undefined ? '/metrics needs the header "Authorization: Bearer <metrics token>"' : 'the metrics token is not valid',
        { 'www-authenticate': 'Bearer realm="autograph-metrics"' },
      );
    }
    return;
  }
  if (!isLoopbackAddress(caller.remoteAddress)) {
    throw new HttpError(
      403,
      'FORBIDDEN',
      '/metrics accepts only loopback callers when no metrics token is configured: set METRICS_TOKEN (or --metrics-token) and send "Authorization: Bearer <token>"',
    );
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

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6 (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) {
    return false;
  }
  const mappedIpv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const candidate = mappedIpv4 ?? address;
  const family = isIP(candidate);
  if (family === 4) {
    return LOOPBACK.check(candidate, 'ipv4');
  }
  return family === 6 && LOOPBACK.check(candidate, 'ipv6');
}
