import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLResponse } from '@apollo/server';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readBody } from './http-io.js';

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
 * Runs one `GET|POST /graphql` request through Apollo Server. The body is read here (with a size limit)
 * and parsed as JSON when the content type says JSON; Apollo applies its own rules (CSRF prevention, the
 * shape of the request, GET only for queries) to what it receives. `context` gets the request's headers,
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
  const body = req.method === 'POST' ? parseBody(await readBody(req, maxBodyBytes), headers.get('content-type')) : undefined;

  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: searchOf(req.url), body },
    context: context(flat),
  });
  const streaming = writeResponse(res, response);
  if (streaming) await streaming;
}

function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  const text = raw.toString('utf8');
  if (!isJsonMediaType(contentType)) {
    // Apollo answers a non-JSON POST itself (CSRF prevention, or "POST body missing, invalid Content-Type").
    return text;
  }
  if (text.trim() === '') {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(400, 'BAD_REQUEST', `the request body is not valid JSON: ${reason}`);
  }
}

function isJsonMediaType(contentType: string | undefined): boolean {
  // What clients nearly always send, answered without splitting the header.
  if (contentType === 'application/json') return true;
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** Sends Apollo's answer; a complete body is sent at once, a chunked one (incremental delivery) as it comes. */
function writeResponse(res: ServerResponse, response: HTTPGraphQLResponse): Promise<void> | undefined {
  for (const [name, value] of response.headers) {
    res.setHeader(name, value);
  }
  res.statusCode = response.status ?? 200;
  if (response.body.kind === 'complete') {
    res.end(response.body.string);
    return undefined;
  }
  return writeChunks(res, response.body.asyncIterator);
}

async function writeChunks(res: ServerResponse, chunks: AsyncIterableIterator<string>): Promise<void> {
  for await (const chunk of chunks) {
    res.write(chunk);
  }
  res.end();
}
