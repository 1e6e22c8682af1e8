import { HttpError } from './http-io.js';

/**
 * The GraphQL request as Apollo Server reads it, from what a client sent: the body of a POST by its media
 * type, and the query string of a GET. Requests written for Dgraph are read as Dgraph reads them
 * (graphql/admin/http.go in dgraph-io/dgraph): `application/graphql` carries the query text as the whole
 * body, and an empty `operationName` means none.
 */

/** A POST body by its `Content-Type`: JSON parsed, `application/graphql` as `{ query }`; any other type is refused. */
export function graphqlRequestBody(raw: Buffer, contentType: string | undefined): unknown {
  // What clients nearly always send, answered without splitting the header.
  if (contentType === 'application/json') return jsonBody(raw);
  const [essence, ...params] = (contentType ?? '').split(';');
  const mediaType = essence!.trim().toLowerCase();
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return jsonBody(raw);
  if (mediaType === 'application/graphql') return { query: graphqlText(raw, params) };
  // Apollo would answer "POST body missing, invalid Content-Type, or JSON object has no keys." for all of
  // these alike; Dgraph refuses them too ("Unrecognised Content-Type").
  throw new HttpError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `a POST to the GraphQL endpoint takes Content-Type application/json (a JSON request object) or application/graphql (the query text), ` +
      (mediaType === '' ? 'and this one has no Content-Type' : `not ${mediaType}`),
  );
}

function jsonBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(400, 'BAD_REQUEST', `the request body is not valid JSON: ${reason}`);
  }
  // Dgraph's clients send `"operationName": ""` when the request names no operation (a Go string's zero value).
  if (typeof body === 'object' && body !== null && (body as { operationName?: unknown }).operationName === '') {
    (body as { operationName?: unknown }).operationName = null;
  }
  return body;
}

/**
 * The body of an `application/graphql` POST: the query text, UTF-8 (its only charset; Dgraph reads the bytes
 * as UTF-8 whatever the header says). Such a request has no variables, operation name or extensions.
 */
function graphqlText(raw: Buffer, params: string[]): string {
  for (const param of params) {
    const [name, value] = param.split('=');
    if (name!.trim().toLowerCase() !== 'charset') continue;
    const charset = (value ?? '').trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `an application/graphql body must be UTF-8 text; the request says charset=${value?.trim() ?? ''}`);
    }
  }
  try {
    return UTF8.decode(raw);
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', 'the application/graphql request body is not valid UTF-8 text');
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The query string Apollo reads a GET request from, without an empty `operationName` (Dgraph's reading of
 * `operationName=`: no operation name). Anything else is passed on as it came.
 */
export function graphqlSearch(search: string): string {
  if (!search.includes('operationName')) return search;
  const params = new URLSearchParams(search);
  const names = params.getAll('operationName');
  if (names.length !== 1 || names[0] !== '') return search;
  params.delete('operationName');
  const rest = params.toString();
  return rest === '' ? '' : `?${rest}`;
}
