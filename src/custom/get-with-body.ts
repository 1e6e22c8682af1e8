import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** Statuses whose response cannot carry a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` that `@custom(http:)` calls go through by default: the global `fetch`, except for a GET that
 * carries a body (see `getWithBody`). Decorators (observe/'s timed fetch) wrap it like any `fetch`.
 */
export const customHttpFetch: typeof fetch = (input, init) => {
  const method = (init?.method ?? 'GET').toUpperCase();
  if (method !== 'GET' || init?.body === undefined || init.body === null || typeof init.body !== 'string') return fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : input);
  return getWithBody(url, { headers: new Headers(init.headers), body: init.body, signal: init.signal ?? undefined });
};

/**
 * A GET request that carries a body, as Dgraph sends `@custom(http: { method: GET, body: ... })`. The
 * Fetch standard forbids a body on GET (Node's `fetch` throws), so this one request goes through
 * `node:http`/`node:https`; it answers a standard `Response` so the caller reads it like any other.
 * Redirects are not followed (as with `redirect: 'manual'`).
 */
function getWithBody(url: URL, init: { headers: Headers; body: string; signal: AbortSignal | undefined }): Promise<Response> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = Object.fromEntries(init.headers.entries());
  headers['content-length'] = String(Buffer.byteLength(init.body));
  return new Promise((resolve, reject) => {
    const outgoing = send(url, { method: 'GET', headers, signal: init.signal }, (incoming) => resolve(responseOf(incoming)));
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

function responseOf(incoming: IncomingMessage): Response {
  const status = incoming.statusCode ?? 502;
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  if (NULL_BODY_STATUSES.has(status)) {
    incoming.resume();
    return new Response(null, { status, statusText: incoming.statusMessage ?? '', headers });
  }
  const body = Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
  return new Response(body, { status, statusText: incoming.statusMessage ?? '', headers });
}
