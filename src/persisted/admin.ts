import { STORE_UNAVAILABLE_CODE, StoreUnavailableError } from '../store/port.js';
import { ManifestError } from './manifest.js';
import type { ManifestResult } from './plugin.js';

export interface AdminAnswer {
  status: number;
  /** JSON body, shaped like the service's other admin answers: `{ data }` or `{ errors }`. */
  body: unknown;
}

/**
 * The whole of `POST /admin/persisted-queries` after routing and admin authorisation: `body` is the raw
 * request body, an Apollo persisted query manifest in JSON. 200 with counts when every operation was
 * stored (or already was), 400 listing each problem when the manifest is refused (nothing stored), 503
 * when the store is unavailable. Other errors propagate, for the server's 500 handling.
 */
export async function answerManifestUpload(
  registerManifest: (manifest: unknown) => Promise<ManifestResult>,
  body: string | Buffer,
): Promise<AdminAnswer> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(body.toString()) as unknown;
  } catch (error) {
    return badManifest([`the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`]);
  }
  try {
    const result = await registerManifest(manifest);
    return { status: 200, body: { data: { message: 'persisted query manifest registered', ...result } } };
  } catch (error) {
    if (error instanceof ManifestError) {
      return badManifest(error.problems);
    }
    if (error instanceof StoreUnavailableError) {
      return { status: 503, body: { errors: [{ message: error.message, extensions: { code: STORE_UNAVAILABLE_CODE } }] } };
    }
    throw error;
  }
}

function badManifest(problems: string[]): AdminAnswer {
  return {
    status: 400,
    body: { errors: problems.map((message) => ({ message: `persisted query manifest refused: ${message}`, extensions: { code: 'BAD_MANIFEST' } })) },
  };
}
