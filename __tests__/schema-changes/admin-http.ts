/** Small clients for the schema-change admin endpoints, for the tests beside this file. */

export interface AdminAnswer<T = any> {
  status: number;
  body: T;
}

async function answer(response: Response): Promise<AdminAnswer> {
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** `POST /admin/schema` with the given query parameters (`dryRun`, `force`). */
export async function postSchema(baseUrl: string, schema: string, query = ''): Promise<AdminAnswer> {
  return answer(await fetch(`${baseUrl}/admin/schema${query}`, { method: 'POST', body: schema }));
}

export async function getHistory(baseUrl: string, query = ''): Promise<AdminAnswer> {
  return answer(await fetch(`${baseUrl}/admin/schema/history${query}`));
}

export async function rollback(baseUrl: string, revision: number, query = ''): Promise<AdminAnswer> {
  return answer(await fetch(`${baseUrl}/admin/schema/history/${revision}/activate${query}`, { method: 'POST' }));
}

export async function dropCollection(baseUrl: string, typeName: string): Promise<AdminAnswer> {
  return answer(await fetch(`${baseUrl}/admin/collections/${encodeURIComponent(typeName)}`, { method: 'DELETE' }));
}

export async function servedSchema(baseUrl: string): Promise<string> {
  return (await fetch(`${baseUrl}/admin/schema`)).text();
}
