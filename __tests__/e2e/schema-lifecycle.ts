/**
 * Schema lifecycle steps shared by the core end-to-end files (one per test schema):
 *
 *   const errors = await expectRefusedUpload(server.url, brokenSchema);   // 400, every error located
 */
import { uploadSchema } from '../helpers/gql';

export interface LocatedError {
  message: string;
  line: number;
  column: number;
}

/**
 * Uploads a schema that must be refused: asserts HTTP 400, no `data`, and a line:column on every error, and
 * returns the errors (in the order the service gave them) for the caller to check exactly.
 */
export async function expectRefusedUpload(baseUrl: string, schema: string): Promise<LocatedError[]> {
  const { status, body } = await uploadSchema(baseUrl, schema);
  expect(status).toBe(400);
  expect(body.data).toBeUndefined();
  const errors = body.errors ?? [];
  expect(errors.length).toBeGreaterThan(0);
  return errors.map((error) => {
    expect(error.extensions).toEqual({ code: 'BAD_SCHEMA' });
    const location = error.locations?.[0];
    if (!location) throw new Error(`schema error without a location: ${error.message}`);
    return { message: error.message, line: location.line, column: location.column };
  });
}

/** The schema text `GET /admin/schema` reports as active. */
export async function activeSchemaText(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/admin/schema`);
  expect(response.status).toBe(200);
  return response.text();
}
