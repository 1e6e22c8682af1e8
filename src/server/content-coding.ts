/**
 * HTTP content codings (RFC 9110 section 8.4): which coding a request body arrived in, and whether the
 * client takes a gzip answer. Pure header reading; http-io.ts and graphql-endpoint.ts do the (de)compression.
 */

/** How a request body is encoded, read off its `Content-Encoding` header. */
export type RequestCoding = { kind: 'identity' } | { kind: 'gzip' } | { kind: 'unsupported'; header: string };

/**
 * `gzip` (and its old alias `x-gzip`, which RFC 9110 8.4.1.3 asks recipients to read as gzip), or none
 * (`identity`, or no header); anything else, a list of codings included, is not supported.
 */
export function requestCoding(header: string | undefined): RequestCoding {
  const coding = (header ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return { kind: 'identity' };
  if (coding === 'gzip' || coding === 'x-gzip') return { kind: 'gzip' };
  return { kind: 'unsupported', header: header ?? '' };
}

/**
 * Whether `Accept-Encoding` admits gzip: `gzip` (or `x-gzip`) listed with a weight above 0, or `*` above 0
 * without gzip refused by name. `gzip;q=0` refuses it; no header means the client did not ask.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined || header === '') return false;
  let named: boolean | undefined;
  let wildcard = false;
  for (const entry of header.split(',')) {
    const [coding, ...params] = entry.split(';');
    const name = coding!.trim().toLowerCase();
    const accepted = weightOf(params) > 0;
    if (name === 'gzip' || name === 'x-gzip') named = (named ?? false) || accepted;
    else if (name === '*') wildcard = accepted;
  }
  return named ?? wildcard;
}

/** The `q` parameter of one `Accept-Encoding` entry (1 when absent; 0 when unreadable, which refuses). */
function weightOf(params: string[]): number {
  for (const param of params) {
    const [key, value] = param.split('=');
    if (key!.trim().toLowerCase() !== 'q') continue;
    const weight = Number((value ?? '').trim());
    return Number.isFinite(weight) ? weight : 0;
  }
  return 1;
}
