/**
 * HTTP clients for persisted query tests, for the harness and the real service alike: GraphQL over GET
 * (query-string parameters) and POST (JSON body) with `extensions`, answering status, headers and body.
 */
import { sha256Hex } from '../../src/persisted/index.js';

export interface HttpResult {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}

/** Apollo Client's GET: the content-type header it always sends gets past CSRF prevention. */
export const CLIENT_GET_HEADERS = { 'content-type': 'application/json' };

export interface GraphQLParams {
  query?: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

export async function getGraphQL(baseUrl: string, params: GraphQLParams, headers: Record<string, string> = CLIENT_GET_HEADERS): Promise<HttpResult> {
  const url = new URL('/graphql', baseUrl);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return toResult(await fetch(url, { headers }));
}

export async function postGraphQL(baseUrl: string, params: GraphQLParams): Promise<HttpResult> {
  const response = await fetch(new URL('/graphql', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return toResult(response);
}

async function toResult(response: Response): Promise<HttpResult> {
  const text = await response.text();
  let body: HttpResult['body'];
  try {
    body = JSON.parse(text) as HttpResult['body'];
  } catch {
    throw new Error(`expected a JSON response, got ${response.status}: ${text}`);
  }
  return { status: response.status, headers: response.headers, body };
}

/** `extensions` of an APQ request, as Apollo Client writes it. */
export function apq(sha256Hash: string, version: unknown = 1): Record<string, unknown> {
  return { persistedQuery: { version, sha256Hash } };
}

export interface AdminResult {
  status: number;
  body: unknown;
}

/** POSTs a persisted query manifest (an object, or raw text) to `/admin/persisted-queries`. */
export async function uploadManifest(baseUrl: string, manifest: unknown, adminToken?: string): Promise<AdminResult> {
  const response = await fetch(new URL('/admin/persisted-queries', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(adminToken === undefined ? {} : { authorization: `Bearer ${adminToken}` }) },
    body: typeof manifest === 'string' ? manifest : JSON.stringify(manifest),
  });
  return { status: response.status, body: await response.json() };
}

/** An Apollo persisted query manifest listing `operations`, each `{ id, name, type, body }`. */
export function manifestOf(operations: ReadonlyArray<{ name: string; type: 'query' | 'mutation'; body: string }>): unknown {
  return {
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: operations.map((operation) => ({ id: sha256Hex(operation.body), ...operation })),
  };
}
