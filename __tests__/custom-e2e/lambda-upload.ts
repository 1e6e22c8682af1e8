/** HTTP helpers for the lambda admin endpoint (the schema ones are in ../helpers/gql). */

export interface LambdaUploadBody {
  data?: { message: string; resolvers: string[] };
  errors?: Array<{ message: string; locations?: Array<{ line: number; column: number }>; extensions?: { code: string } }>;
}

/** POSTs a lambda script to `${baseUrl}/admin/lambda` (with `Authorization: Bearer <adminToken>` when given). */
export async function uploadLambda(baseUrl: string, script: string, adminToken?: string): Promise<{ status: number; body: LambdaUploadBody }> {
  const response = await fetch(`${baseUrl}/admin/lambda`, {
    method: 'POST',
    headers: adminToken === undefined ? {} : { authorization: `Bearer ${adminToken}` },
    body: script,
  });
  return { status: response.status, body: (await response.json()) as LambdaUploadBody };
}

/** Like `uploadLambda`, but fails the test unless the script was loaded; answers the registered names. */
export async function loadLambda(baseUrl: string, script: string, adminToken?: string): Promise<string[]> {
  const result = await uploadLambda(baseUrl, script, adminToken);
  if (result.status !== 200 || !result.body.data) {
    throw new Error(`lambda upload failed with HTTP ${result.status}: ${JSON.stringify(result.body)}`);
  }
  return result.body.data.resolvers;
}
