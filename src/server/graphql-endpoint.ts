import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLResponse } from '@apollo/server';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readBody } from './http-io.js';

/** Node's headers flattened to one string per name (repeated headers joined with ", "). */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Runs one `GET|POST /graphql` request through Apollo Server. The body is read here (with a size limit)
 * and parsed as JSON when the content type says JSON; Apollo applies its own rules (CSRF prevention, the
 * shape of the request, GET only for queries) to what it receives.
 */
export async function handleGraphQLRequest<TContext extends BaseContext>(
  req: IncomingMessage,
  res: ServerResponse,
  server: ApolloServer<TContext>,
  context: () => Promise<TContext>,
  maxBodyBytes: number,
): Promise<void> {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(flattenHeaders(req.headers))) {
    if (value !== undefined) {
      headers.set(name, value);
    }
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const body = req.method === 'POST' ? parseBody(await readBody(req, maxBodyBytes), headers.get('content-type')) : undefined;

  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: url.search, body },
    context,
  });
  await writeResponse(res, response);
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
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

async function writeResponse(res: ServerResponse, response: HTTPGraphQLResponse): Promise<void> {
  for (const [name, value] of response.headers) {
    res.setHeader(name, value);
  }
  res.statusCode = response.status ?? 200;
  if (response.body.kind === 'complete') {
    res.end(response.body.string);
    return;
  }
  for await (const chunk of response.body.asyncIterator) {
    res.write(chunk);
  }
  res.end();
}
