import { randomUUID } from 'node:crypto';

/** The header a request id is read from and echoed in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A caller's id is kept when it is short printable ASCII without spaces (what proxies and load balancers
 * send: UUIDs, hex, base64), so it can neither forge log fields nor grow the log line; otherwise, or when
 * absent, a fresh UUID is used.
 */
const ACCEPTED_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

export function requestIdOf(given: string | string[] | undefined): string {
  const candidate = Array.isArray(given) ? given[0] : given;
  return candidate !== undefined && ACCEPTED_REQUEST_ID.test(candidate) ? candidate : randomUUID();
}
