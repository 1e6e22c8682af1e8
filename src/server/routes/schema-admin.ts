import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../errors/codes.js';
import { listSchemaRevisions, readSchemaRevision, schemaTextHash } from '../../schema-changes/history.js';
import type { Store } from '../../store/port.js';
import { refusedUploadBody } from '../activation-answer.js';
import type { ActivationResult, ActiveSchema, DryRunResult } from '../activation.js';
import { allowMethods, HttpError, readBody, sendJson } from '../http-io.js';
import { answeringStoreOutage } from '../store-refusal.js';
import { refuseMangledSchemaBody } from './schema-body.js';

export interface SchemaAdminDeps {
  store: Store;
  maxBodyBytes: number;
  /** The schema being served, if any. */
  active(): ActiveSchema | undefined;
  /** Validates, stores and swaps in a schema (serialized with other uploads). */
  activateSchema(text: string, options: { force: boolean; restoredFrom?: number }): Promise<ActivationResult>;
  /** What an upload of `text` would change, with nothing activated. */
  dryRunSchema(text: string): Promise<DryRunResult>;
}

/** How many revisions `GET /admin/schema/history` lists without `?limit=`, and at most. */
const DEFAULT_HISTORY_LIMIT = 100;
const MAX_HISTORY_LIMIT = 1000;
const REVISION_PATH = /^\/admin\/schema\/history\/(\d+)(\/activate)?$/;

/** Whether `path` is one of the schema's admin paths. */
export function isSchemaAdminPath(path: string): boolean {
  return path === '/admin/schema' || path === '/admin/schema/history' || REVISION_PATH.test(path);
}

/**
 * The schema's admin endpoints (the caller is already authorized):
 * - `GET /admin/schema`: the served schema text; `POST /admin/schema[?dryRun=true][&force=true]`: an upload,
 *   answered with the change report (and nothing activated for a dry run);
 * - `GET /admin/schema/history[?limit=n]`: the activated revisions, newest first;
 * - `GET /admin/schema/history/<n>`: the text of revision n;
 * - `POST /admin/schema/history/<n>/activate[?dryRun=true][&force=true]`: a rollback, an upload of revision n's text.
 */
export async function handleSchemaAdmin(req: IncomingMessage, res: ServerResponse, path: string, deps: SchemaAdminDeps): Promise<void> {
  const method = req.method ?? 'GET';
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  if (path === '/admin/schema') {
    allowMethods(method, ['GET', 'POST']);
    if (method === 'GET') {
      sendText(res, servedSchema(deps).text);
      return;
    }
    const text = decodeSchemaText(await readBody(req, deps.maxBodyBytes));
    refuseMangledSchemaBody(req.headers['content-type'], text);
    await answerUpload(res, text, query, deps);
    return;
  }
  if (path === '/admin/schema/history') {
    allowMethods(method, ['GET']);
    const limit = historyLimit(query);
    const revisions = await answeringStoreOutage(() => listSchemaRevisions(deps.store, limit));
    const served = deps.active();
    const activeHash = served === undefined ? undefined : schemaTextHash(served.text);
    const active = revisions.find((entry) => entry.hash === activeHash)?.revision ?? null;
    sendJson(res, 200, { data: { active, revisions } });
    return;
  }
  const [, number, activate] = REVISION_PATH.exec(path)!;
  const revision = Number(number);
  allowMethods(method, [activate ? 'POST' : 'GET']);
  const stored = await answeringStoreOutage(() => readSchemaRevision(deps.store, revision));
  if (stored === undefined) {
    throw new HttpError(404, 'NOT_FOUND', `there is no schema revision ${revision}: GET /admin/schema/history lists them`);
  }
  if (!activate) {
    sendText(res, stored.text);
    return;
  }
  await answerUpload(res, stored.text, query, deps, revision);
}

async function answerUpload(res: ServerResponse, text: string, query: URLSearchParams, deps: SchemaAdminDeps, restoredFrom?: number): Promise<void> {
  const force = flag(query, 'force');
  if (flag(query, 'dryRun')) {
    const result = await deps.dryRunSchema(text);
    if (!result.ok) {
      sendJson(res, result.httpStatus, refusedUploadBody(result.httpStatus, result.errors, ErrorCode.BAD_SCHEMA));
      return;
    }
    const wouldActivate = force || !result.report.needsForce;
    sendJson(res, 200, { data: { message: 'dry run: nothing was activated', wouldActivate, report: result.report } });
    return;
  }
  const result = await deps.activateSchema(text, { force, ...(restoredFrom === undefined ? {} : { restoredFrom }) });
  if (result.ok) {
    const message = restoredFrom === undefined ? 'schema activated' : `schema revision ${restoredFrom} activated again`;
    sendJson(res, 200, { data: { message, types: result.types, revision: result.revision, report: result.report } });
    return;
  }
  const body = refusedUploadBody(result.httpStatus, result.errors, ErrorCode.BAD_SCHEMA);
  sendJson(res, result.httpStatus, result.report === undefined ? body : { ...body, extensions: { report: result.report } });
}

function servedSchema(deps: SchemaAdminDeps): ActiveSchema {
  const active = deps.active();
  if (!active) {
    throw new HttpError(404, 'SCHEMA_NOT_LOADED', 'no schema loaded: POST your schema to /admin/schema');
  }
  return active;
}

/** A boolean query parameter: absent or `false` is false, `true` (or the bare name) is true. */
function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null || value === 'false') return false;
  if (value === 'true' || value === '') return true;
  throw new HttpError(400, 'BAD_REQUEST', `the query parameter ${name} must be true or false, not ${JSON.stringify(value)}`);
}

function historyLimit(query: URLSearchParams): number {
  const value = query.get('limit');
  if (value === null) return DEFAULT_HISTORY_LIMIT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_HISTORY_LIMIT) {
    throw new HttpError(400, 'BAD_REQUEST', `the query parameter limit must be a whole number from 1 to ${MAX_HISTORY_LIMIT}, not ${JSON.stringify(value)}`);
  }
  return limit;
}

function sendText(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function decodeSchemaText(body: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', 'the schema is not valid UTF-8 text');
  }
}
