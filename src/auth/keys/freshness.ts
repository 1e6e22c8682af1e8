/** How long a fetched key set may be used, from its response headers, in seconds. */

/**
 * The lifetime the server asked for: `Cache-Control: max-age` (RFC 9111 5.2.2.1; `no-store`/`no-cache`
 * mean 0), else `Expires` minus `Date` (or minus now). Undefined when the response says nothing usable.
 */
export function declaredLifetimeSeconds(headers: Headers, nowMs: number): number | undefined {
  const cacheControl = headers.get('cache-control');
  if (cacheControl) {
    const directives = cacheControl.toLowerCase().split(',').map((part) => part.trim());
    if (directives.some((directive) => directive === 'no-store' || directive === 'no-cache')) return 0;
    const maxAge = directives.map((directive) => /^max-age\s*=\s*"?(\d+)"?$/.exec(directive)).find((match) => match !== null);
    if (maxAge) return Number(maxAge[1]);
  }
  const expires = headers.get('expires');
  if (expires) {
    const expiresMs = Date.parse(expires);
    if (Number.isNaN(expiresMs)) return 0;
    const dateMs = Date.parse(headers.get('date') ?? '');
    return Math.max(0, Math.floor((expiresMs - (Number.isNaN(dateMs) ? nowMs : dateMs)) / 1000));
  }
  return undefined;
}

export interface LifetimeBounds {
  /** Used when the response declares no lifetime. */
  defaultSeconds: number;
  /** The least time between scheduled refreshes, so `max-age=0` cannot make every request fetch. */
  minSeconds: number;
  /** The most, so a key withdrawn by the issuer stops being trusted within this time. */
  maxSeconds: number;
}

export function boundedLifetimeSeconds(declared: number | undefined, bounds: LifetimeBounds): number {
  return Math.min(bounds.maxSeconds, Math.max(bounds.minSeconds, declared ?? bounds.defaultSeconds));
}
