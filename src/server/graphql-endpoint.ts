import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLResponse } from '@apollo/server';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { acceptsGzip } from './content-coding.js';
import { graphqlRequestBody, graphqlSearch } from './graphql-request.js';
import { readBody } from './http-io.js';

/**
 * Node's headers flattened to one string per name (repeated headers joined with ", "), for the context,
 * and the same as Apollo's HeaderMap, made in one pass.
 */
function requestHeaders(headers: IncomingHttpHeaders): { flat: Record<string, string | undefined>; map: HeaderMap } {
  const flat: Record<string, string | undefined> = {};
  const map = new HeaderMap();
  for (const name in headers) {
    const value = headers[name];
    const text = Array.isArray(value) ? value.join(', ') : value;
    flat[name] = text;
    if (text !== undefined) map.set(name, text);
  }
  return { flat, map };
}

/** The query string of a request target with its `?` (`''` when none), as `new URL(target).search` gives it. */
export function searchOf(target: string | undefined): string {
  if (target === undefined || !target.includes('?')) return '';
  return new URL(target, 'http://localhost').search;
}

/**
 * Runs one `GET|POST /graphql` request through Apollo Server. The body is read here (with a size limit,
 * gzip-decoded when it came so) and read by its content type (graphql-request.ts); Apollo applies its own
 * rules (CSRF prevention, the shape of the request, GET only for queries) to what it receives. `context` gets the request's headers,
 * flattened to one string per name.
 */
export async function handleGraphQLRequest<TContext extends BaseContext>(
  req: IncomingMessage,
  res: ServerResponse,
  server: ApolloServer<TContext>,
  context: (headers: Record<string, string | undefined>) => () => Promise<TContext>,
  maxBodyBytes: number,
): Promise<void> {
  const { flat, map: headers } = requestHeaders(req.headers);
  const body = req.method === 'POST' ? graphqlRequestBody(await readBody(req, maxBodyBytes), headers.get('content-type')) : undefined;

  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: graphqlSearch(searchOf(req.url)), body },
    context: context(flat),
  });
  await writeResponse(res, response, acceptsGzip(flat['accept-encoding']));
}

/** Answers smaller than this go uncompressed even to a client that takes gzip: compressing would not pay. */
export const GZIP_MIN_BYTES = 1024;

const gzipAsync = promisify(gzip);

/**
 * Sends Apollo's answer; a complete body is sent at once (gzip-compressed when the client takes gzip and it
 * has at least GZIP_MIN_BYTES), a chunked one (incremental delivery) as it comes, uncompressed.
 */
async function writeResponse(res: ServerResponse, response: HTTPGraphQLResponse, gzipAccepted: boolean): Promise<void> {
  for (const [name, value] of response.headers) {
    res.setHeader(name, value);
  }
  res.statusCode = response.status ?? 200;
  if (response.body.kind !== 'complete') return writeChunks(res, response.body.asyncIterator);
  // The answer depends on Accept-Encoding, so a cache must key on it.
  appendVary(res, 'Accept-Encoding');
  const text = response.body.string;
  if (gzipAccepted && Buffer.byteLength(text) >= GZIP_MIN_BYTES) {
    const compressed = await gzipAsync(text);
    res.setHeader('content-encoding', 'gzip');
    res.setHeader('content-length', compressed.length);
    res.end(compressed);
    return;
  }
  res.end(text);
}

function appendVary(res: ServerResponse, name: string): void {
  const current = res.getHeader('vary');
  const listed = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (listed.split(',').some((entry) => entry.trim().toLowerCase() === name.toLowerCase())) return;
  res.setHeader('vary', listed === '' ? name : `${listed}, ${name}`);
}

async function writeChunks(res: ServerResponse, chunks: AsyncIterableIterator<string>): Promise<void> {
  for await (const chunk of chunks) {
    res.write(chunk);
  }
  res.end();
}
