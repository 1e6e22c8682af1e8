/**
 * The allow-list of hosts `@custom(http:)` may call (`--custom-allow`). Entries: `host` (any port),
 * `host:port`, `*.example.com` (any subdomain, any port), `[::1]` / `[::1]:8080`, or `*` alone (any
 * host). An empty list allows nothing. Host names compare case-insensitively.
 */

interface AllowEntry {
  host: string;
  port?: string;
  anySubdomain: boolean;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

function parseEntry(entry: string): AllowEntry {
  const text = entry.trim().toLowerCase();
  const anySubdomain = text.startsWith('*.');
  const rest = anySubdomain ? text.slice(2) : text;
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(rest);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2], anySubdomain };
  const withPort = /^([^:]+):(\d+)$/.exec(rest);
  if (withPort) return { host: withPort[1]!, port: withPort[2], anySubdomain };
  return { host: rest, anySubdomain };
}

/** Whether `url` may be called. Only http and https URLs are ever allowed. */
export function isHostAllowed(url: URL, allowHosts: readonly string[]): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (allowHosts.some((entry) => entry.trim() === '*')) return true;
  const hostname = url.hostname.toLowerCase();
  const port = url.port || DEFAULT_PORTS[url.protocol]!;
  return allowHosts.map(parseEntry).some((entry) => {
    const hostMatches = entry.anySubdomain ? hostname.endsWith(`.${entry.host}`) : hostname === entry.host;
    return hostMatches && (entry.port === undefined || entry.port === port);
  });
}
