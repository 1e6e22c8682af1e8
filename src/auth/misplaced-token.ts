import type { AuthorizationConfig } from '../sdl/model.js';
import type { HeaderSource } from './token.js';

/** A JWS in compact form (`header.payload.signature`, the header a JSON object: `eyJ`), with an optional `Bearer `. */
const TOKEN_LIKE = /^(bearer\s+)?eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/i;

/** The most header values looked at per request, so a request of thousands of headers costs no more. */
const MAX_HEADERS_SCANNED = 64;

/**
 * The name of a header that carries what looks like a token when the configured one carries none: the
 * request is answered as anonymous, and its caller is told why (plugin.ts) instead of guessing.
 * Undefined when the configured header is present, or no other header holds a token.
 */
export function misplacedTokenHeader(config: AuthorizationConfig, headers: HeaderSource): string | undefined {
  const configured = config.header.toLowerCase();
  const entries = headerEntries(headers);
  if (entries.some(([name]) => name === configured)) return undefined;
  let scanned = 0;
  for (const [name, value] of entries) {
    if (++scanned > MAX_HEADERS_SCANNED) break;
    if (value.length <= 16 * 1024 && TOKEN_LIKE.test(value.trim())) return name;
  }
  return undefined;
}

function headerEntries(headers: HeaderSource): Array<[string, string]> {
  const source = headers as { entries?: () => Iterable<[string, string]> } & Record<string, unknown>;
  if (typeof source.get === 'function' && typeof source.entries === 'function') {
    return [...source.entries()].map(([name, value]) => [name.toLowerCase(), value]);
  }
  return Object.entries(headers as Record<string, string | string[] | undefined>).flatMap(([name, value]) =>
    value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value] as [string, string]],
  );
}
