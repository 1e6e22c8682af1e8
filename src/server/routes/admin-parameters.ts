import { HttpError } from '../http-io.js';

/** `POST /admin/schema/history/<n>/activate`: a rollback, answered like an upload. */
const ACTIVATE_PATH = /^\/admin\/schema\/history\/\d+\/activate$/;

/** The query parameters an admin request may carry: those its endpoint reads, and no other. */
export function knownAdminParameters(method: string, path: string): readonly string[] {
  if ((path === '/admin/schema' && method === 'POST') || ACTIVATE_PATH.test(path)) return ['dryRun', 'force'];
  if (path === '/admin/schema/history') return ['limit'];
  return [];
}

/**
 * Refuses with 400 a request whose query string names a parameter its endpoint does not read: a misspelt
 * `?dryrun=true` must not be ignored and the schema activated. The message names the ones it knows.
 */
export function refuseUnknownParameters(method: string, path: string, target: string): void {
  const known = knownAdminParameters(method, path);
  const given = [...new URL(target, 'http://localhost').searchParams.keys()];
  const unknown = [...new Set(given.filter((name) => !known.includes(name)))];
  if (unknown.length === 0) return;
  const listed = unknown.map((name) => JSON.stringify(name)).join(', ');
  const expected = known.length === 0 ? `${method} ${path} takes no query parameters` : `${method} ${path} takes only ${known.join(', ')}`;
  throw new HttpError(400, 'BAD_REQUEST', `unknown query parameter${unknown.length > 1 ? 's' : ''} ${listed}: ${expected}`);
}
