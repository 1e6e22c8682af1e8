/**
 * Small HTTP clients for tests. `baseUrl` is a server's base URL, e.g. `TestServer.url`
 * (`http://127.0.0.1:PORT`), never the `/graphql` address itself.
 */

export interface GraphQLResponseBody<TData = Record<string, any>> {
  data?: TData | null;
  errors?: Array<{ message: string; locations?: Array<{ line: number; column: number }>; path?: Array<string | number>; extensions?: Record<string, any> }>;
  extensions?: Record<string, any>;
}

export interface HttpResult<TBody> {
  status: number;
  headers: Headers;
  body: TBody;
}

/** POSTs a GraphQL request to `${baseUrl}/graphql` and returns status, headers and the parsed JSON body. */
export async function gql<TData = Record<string, any>>(
  baseUrl: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<HttpResult<GraphQLResponseBody<TData>>> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLResponseBody<TData> };
}

/** Like `gql`, but returns only `data` and fails the test (throws) when the response has errors. */
export async function gqlData<TData = any>(baseUrl: string, query: string, variables?: Record<string, unknown>): Promise<TData> {
  const { status, body } = await gql<TData>(baseUrl, query, variables);
  if (body.errors) throw new Error(`GraphQL errors (HTTP ${status}): ${JSON.stringify(body.errors)}`);
  return body.data as TData;
}

/**
 * Sends a query as `GET /graphql?query=...` (with `variables`/`extensions` JSON-encoded when given). It
 * carries `apollo-require-preflight`, which Apollo's CSRF prevention asks of GET requests.
 */
export async function gqlGet<TData = Record<string, any>>(
  baseUrl: string,
  params: { query?: string; variables?: Record<string, unknown>; extensions?: Record<string, unknown>; operationName?: string },
  headers: Record<string, string> = {},
): Promise<HttpResult<GraphQLResponseBody<TData>>> {
  const search = new URLSearchParams();
  if (params.query !== undefined) search.set('query', params.query);
  if (params.operationName !== undefined) search.set('operationName', params.operationName);
  if (params.variables !== undefined) search.set('variables', JSON.stringify(params.variables));
  if (params.extensions !== undefined) search.set('extensions', JSON.stringify(params.extensions));
  const response = await fetch(`${baseUrl}/graphql?${search}`, { headers: { 'apollo-require-preflight': 'true', ...headers } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphQLResponseBody<TData> };
}

export interface SchemaUploadBody {
  data?: { message: string; types: string[] };
  errors?: Array<{ message: string; locations?: Array<{ line: number; column: number }>; extensions?: { code: string } }>;
}

/** POSTs schema text to `${baseUrl}/admin/schema` (with `Authorization: Bearer <adminToken>` when given). */
export async function uploadSchema(baseUrl: string, schema: string, adminToken?: string): Promise<HttpResult<SchemaUploadBody>> {
  const response = await fetch(`${baseUrl}/admin/schema`, {
    method: 'POST',
    headers: adminToken === undefined ? {} : { authorization: `Bearer ${adminToken}` },
    body: schema,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as SchemaUploadBody };
}

/** Like `uploadSchema`, but fails the test unless the schema was activated. */
export async function activateSchema(baseUrl: string, schema: string, adminToken?: string): Promise<string[]> {
  const result = await uploadSchema(baseUrl, schema, adminToken);
  if (result.status !== 200 || !result.body.data) {
    throw new Error(`schema upload failed with HTTP ${result.status}: ${JSON.stringify(result.body)}`);
  }
  return result.body.data.types;
}
