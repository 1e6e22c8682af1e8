import { ErrorCode } from '../../errors/codes.js';
import { answerManifestUpload, type PersistedQueries } from '../../persisted/index.js';
import { refusedUploadBody } from '../activation-answer.js';
import type { ActivationResult, ActiveSchema } from '../activation.js';
import { authorizeAdmin } from '../admin-auth.js';
import { allowMethods, HttpError, readBody, sendJson } from '../http-io.js';
import type { LambdaActivationResult } from '../lambda-activation.js';
import { handleLambdaAdmin } from '../lambda-admin.js';
import type { Route } from '../router.js';
import { DATA_PATHS, dataAdminHandler, isDataPath, type AdminDataDeps } from './admin-data.js';

export interface AdminRouteDeps {
  /** When set, callers need `Authorization: Bearer <adminToken>`; otherwise loopback callers only. */
  adminToken?: string;
  maxBodyBytes: number;
  /** The schema being served, if any. */
  active(): ActiveSchema | undefined;
  /** Validates, stores and swaps in an uploaded schema (serialized with other uploads). */
  activateSchema(text: string): Promise<ActivationResult>;
  /** The lambda script being served, if any. */
  currentLambda(): string | undefined;
  /** Checks, stores and swaps in an uploaded lambda script (serialized with other uploads). */
  activateLambda(text: string): Promise<LambdaActivationResult>;
  persistedQueries: PersistedQueries;
  /** Export, import and backup (admin-data.ts). */
  data: Omit<AdminDataDeps, 'maxBodyBytes' | 'activateSchema' | 'activateLambda'>;
}

const ADMIN_PATHS = ['/admin/schema', '/admin/lambda', '/admin/persisted-queries', ...DATA_PATHS];

/** `/admin/schema`, `/admin/lambda`, `/admin/persisted-queries` and the data endpoints (admin-data.ts), each for an authorized caller only. */
export function adminRoute(deps: AdminRouteDeps): Route {
  const handleData = dataAdminHandler({ ...deps.data, maxBodyBytes: deps.maxBodyBytes, activateSchema: deps.activateSchema, activateLambda: deps.activateLambda });
  return {
    paths: ADMIN_PATHS,
    matches: (path) => path === '/admin' || path.startsWith('/admin/'),
    async handle(req, res, path) {
      const method = req.method ?? 'GET';
      authorizeAdmin({ remoteAddress: req.socket.remoteAddress, authorization: req.headers.authorization }, deps.adminToken);
      if (isDataPath(path)) {
        await handleData(req, res, path);
        return;
      }
      if (path === '/admin/lambda') {
        await handleLambdaAdmin(req, res, { currentScript: deps.currentLambda(), activate: deps.activateLambda, maxBodyBytes: deps.maxBodyBytes });
        return;
      }
      if (path === '/admin/persisted-queries') {
        allowMethods(method, ['POST']);
        const answer = await answerManifestUpload(deps.persistedQueries.registerManifest, await readBody(req, deps.maxBodyBytes));
        sendJson(res, answer.status, answer.body);
        return;
      }
      if (path !== '/admin/schema') {
        throw new HttpError(404, 'NOT_FOUND', `no route for ${method} ${path}: the admin endpoints are ${ADMIN_PATHS.join(', ')}`);
      }
      allowMethods(method, ['GET', 'POST']);
      if (method === 'GET') {
        const active = deps.active();
        if (!active) {
          throw new HttpError(404, 'SCHEMA_NOT_LOADED', 'no schema loaded: POST your schema to /admin/schema');
        }
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(active.text) });
        res.end(active.text);
        return;
      }
      const result = await deps.activateSchema(decodeSchemaText(await readBody(req, deps.maxBodyBytes)));
      if (result.ok) {
        sendJson(res, 200, { data: { message: 'schema activated', types: result.types } });
      } else {
        sendJson(res, result.httpStatus, refusedUploadBody(result.httpStatus, result.errors, ErrorCode.BAD_SCHEMA));
      }
    },
  };
}

function decodeSchemaText(body: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', 'the schema is not valid UTF-8 text');
  }
}
