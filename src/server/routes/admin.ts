import { answerManifestUpload, type PersistedQueries } from '../../persisted/index.js';
import { authorizeAdmin, callerOf } from '../admin-auth.js';
import { applyCors } from '../cors-http.js';
import { refuseUnknownParameters } from './admin-parameters.js';
import { ADMIN_CORS_OFFER, type CorsPolicy } from '../cors.js';
import { allowMethods, HttpError, readBody, sendJson } from '../http-io.js';
import type { LambdaActivationResult } from '../lambda-activation.js';
import { handleLambdaAdmin } from '../lambda-admin.js';
import type { Route } from '../router.js';
import { DATA_PATHS, dataAdminHandler, isDataPath, type AdminDataDeps } from './admin-data.js';
import { handleCollectionsAdmin, isCollectionsAdminPath, type CollectionsAdminDeps } from './collections-admin.js';
import { handleSchemaAdmin, isSchemaAdminPath, type SchemaAdminDeps } from './schema-admin.js';

export interface AdminRouteDeps extends SchemaAdminDeps, CollectionsAdminDeps {
  /** When set, callers need `Authorization: Bearer <adminToken>`; otherwise loopback callers only. */
  adminToken?: string;
  /**
   * With an admin token: the browser origins allowed to call (preflights answered, answers readable), for an
   * admin console served elsewhere. Without one, no page but the service's own may call (admin-auth.ts).
   */
  cors?: CorsPolicy;
  /** The lambda script being served, if any. */
  currentLambda(): string | undefined;
  /** Checks, stores and swaps in an uploaded lambda script (serialized with other uploads). */
  activateLambda(text: string): Promise<LambdaActivationResult>;
  persistedQueries: PersistedQueries;
  /** Export, import and backup (admin-data.ts). */
  data: Omit<AdminDataDeps, 'maxBodyBytes' | 'activateSchema' | 'activateLambda'>;
}

const ADMIN_PATHS = ['/admin/schema', '/admin/lambda', '/admin/persisted-queries', ...DATA_PATHS];
/** Admin paths under those, named when a path under /admin/ is unknown. */
const ADMIN_SUBPATHS = ['/admin/schema/history', '/admin/collections/<Type>'];

/** `/admin/schema[/history]`, `/admin/collections`, `/admin/lambda`, `/admin/persisted-queries` and the data endpoints (admin-data.ts), each for an authorized caller only. */
export function adminRoute(deps: AdminRouteDeps): Route {
  const handleData = dataAdminHandler({ ...deps.data, maxBodyBytes: deps.maxBodyBytes, activateSchema: (text) => deps.activateSchema(text, { force: true }), activateLambda: deps.activateLambda });
  return {
    paths: ADMIN_PATHS,
    matches: (path) => path === '/admin' || path.startsWith('/admin/'),
    async handle(req, res, path) {
      const method = req.method ?? 'GET';
      const cors = deps.adminToken === undefined ? undefined : deps.cors;
      // Before the token check: a browser's preflight carries no Authorization.
      if (applyCors(req, res, cors, ADMIN_CORS_OFFER, 'the admin endpoints')) return;
      authorizeAdmin(callerOf(req), { token: deps.adminToken, corsOrigins: cors?.origins });
      refuseUnknownParameters(method, path, req.url ?? path);
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
      if (isSchemaAdminPath(path)) {
        await handleSchemaAdmin(req, res, path, deps);
        return;
      }
      if (isCollectionsAdminPath(path)) {
        await handleCollectionsAdmin(req, res, path, deps);
        return;
      }
      throw new HttpError(404, 'NOT_FOUND', `no route for ${method} ${path}: the admin endpoints are ${[...ADMIN_PATHS, ...ADMIN_SUBPATHS].join(', ')}`);
    },
  };
}
