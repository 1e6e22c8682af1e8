/**
 * Which browser requests the trusted endpoints (`/admin/*`, `/metrics`) refuse, as pure functions of the
 * request's headers. A browser is a caller like any other on the machine it runs on: a web page can send a
 * "simple" cross-site POST (no preflight) to 127.0.0.1, or reach it under its own name by DNS rebinding.
 * Browsers always say where such a request comes from (`Origin` on every cross-site POST, `no-cors` ones
 * included, `Sec-Fetch-Site` on every request), and put the name the page used in `Host`; curl and the CLI
 * send neither of the first two.
 */
import { isLoopbackAddress } from './loopback.js';

export interface BrowserHeaders {
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The port the connection came in on (`req.socket.localPort`): the service's own port. */
  localPort: number | undefined;
}

/** Why a request is refused: the one sentence the 403 answer starts with (the caller adds the remedy). */
export type CrossSiteRefusal =
  | { kind: 'foreign-host'; host: string }
  | { kind: 'foreign-origin'; origin: string }
  | { kind: 'cross-site-fetch'; site: string };

/**
 * With no token configured, the service trusts a caller for being on loopback; a request is then refused
 * unless it is addressed to a loopback name or address with the service's port, and, when a browser sent
 * it, it comes from the service's own origin (`http://<that Host>`), as its own pages do.
 */
export function refuseUntrustedBrowser(headers: BrowserHeaders): CrossSiteRefusal | undefined {
  // No Host at all is HTTP/1.0 (Node refuses an HTTP/1.1 request without one): never a browser's request.
  const host = headers.host === undefined ? undefined : loopbackHost(headers.host, headers.localPort);
  if (headers.host !== undefined && host === undefined) return { kind: 'foreign-host', host: headers.host };
  if (headers.origin !== undefined && (host === undefined || originHost(headers.origin, 'http:') !== host)) {
    return { kind: 'foreign-origin', origin: headers.origin };
  }
  if (headers.secFetchSite !== undefined && !SAME_ORIGIN_SITES.has(headers.secFetchSite.toLowerCase())) {
    return { kind: 'cross-site-fetch', site: headers.secFetchSite };
  }
  return undefined;
}

/**
 * With a token configured, anyone holding it may call from anywhere, but a browser page of another origin
 * only when that origin is listed in `--cors-origins` (a console served elsewhere, on purpose). A browser's
 * `Sec-Fetch-Site` decides when present (it holds behind a proxy that rewrites `Host`); otherwise `Origin` is
 * compared with `Host`, whatever the scheme, since TLS may end at a proxy.
 */
export function refuseUnlistedOrigin(headers: BrowserHeaders, corsOrigins: '*' | readonly string[] | undefined): CrossSiteRefusal | undefined {
  const site = headers.secFetchSite?.toLowerCase();
  const crossSite = site !== undefined ? !SAME_ORIGIN_SITES.has(site) : headers.origin !== undefined && !sameHost(headers.origin, headers.host);
  if (!crossSite || isListed(headers.origin, corsOrigins)) return undefined;
  return headers.origin !== undefined ? { kind: 'foreign-origin', origin: headers.origin } : { kind: 'cross-site-fetch', site: headers.secFetchSite ?? '' };
}

/** `Sec-Fetch-Site` values of a request the service's own page made, or that no page made (typed URL, bookmark). */
const SAME_ORIGIN_SITES = new Set(['same-origin', 'none']);

function isListed(origin: string | undefined, corsOrigins: '*' | readonly string[] | undefined): boolean {
  if (origin === undefined || corsOrigins === undefined) return false;
  return corsOrigins === '*' || corsOrigins.includes(origin);
}

/**
 * `host` normalised as a URL writes it (`localhost:8080`, `127.0.0.1:8080`, `[::1]:8080`), when it names this
 * machine by a loopback name or address with the service's port (80 when it has none); else undefined.
 */
export function loopbackHost(host: string | undefined, localPort: number | undefined): string | undefined {
  const parsed = parseHost(host);
  if (parsed === undefined || localPort === undefined || (parsed.port ?? 80) !== localPort) return undefined;
  const name = parsed.hostname.toLowerCase();
  const address = name.startsWith('[') ? name.slice(1, -1) : name;
  if (name !== 'localhost' && !isLoopbackAddress(address)) return undefined;
  return parsed.host;
}

function parseHost(host: string | undefined): { hostname: string; port: number | undefined; host: string } | undefined {
  if (host === undefined || !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return { hostname: url.hostname, port: url.port === '' ? undefined : Number(url.port), host: url.host };
  } catch {
    return undefined;
  }
}

/** The `host` of an Origin (`http://localhost:8080` → `localhost:8080`), if it is a URL origin of `scheme` (any when omitted). */
function originHost(origin: string, scheme?: string): string | undefined {
  try {
    const url = new URL(origin);
    return scheme === undefined || url.protocol === scheme ? url.host : undefined;
  } catch {
    return undefined;
  }
}

function sameHost(origin: string, host: string | undefined): boolean {
  const ofOrigin = originHost(origin);
  const ofHost = parseHost(host)?.host;
  return ofOrigin !== undefined && ofOrigin === ofHost;
}
