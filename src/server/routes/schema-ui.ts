import { authorizeAdmin, callerOf } from '../admin-auth.js';
import { PAGE_HEADERS, type UiFiles } from '../ui-files.js';
import type { Route } from '../router.js';

export const SCHEMA_PAGE_PATH = '/admin/ui';

export interface SchemaUiRouteDeps {
  files: UiFiles;
  /** The admin token, when one is configured. */
  adminToken?: string;
}

/**
 * `GET /admin/ui`: the schema page (ui/schema.html and ui/schema.js): the active schema, the history, a dry
 * run of a pasted schema, a rollback, all through the admin endpoints. Without an admin token the page is
 * served under their rules (loopback callers, the service's own pages); with one it holds no data of its
 * own and is served to anyone: it asks for the token and sends it with each call as `Authorization: Bearer`.
 */
export function schemaUiRoute(deps: SchemaUiRouteDeps): Route {
  return {
    paths: [SCHEMA_PAGE_PATH],
    matches: (path) => path === SCHEMA_PAGE_PATH || path === `${SCHEMA_PAGE_PATH}/`,
    async handle(req, res) {
      if (deps.adminToken === undefined) authorizeAdmin(callerOf(req), { token: undefined });
      const page = deps.files.get('schema.html');
      if (!page) throw new Error('the schema page (ui/schema.html) was not loaded');
      await deps.files.send(req, res, 'schema.html', page, PAGE_HEADERS);
    },
  };
}
