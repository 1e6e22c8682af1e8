import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { HttpError, sendHttpError } from './http-io.js';

/** One HTTP route: the paths it serves, and its handler. A handler refuses a request by throwing an HttpError. */
export interface Route {
  /** The paths named in the 404 answer, e.g. `/admin/schema`. */
  readonly paths: readonly string[];
  /** Whether the route answers `path`; `req` lets one path go to several routes (a browser's `GET /graphql`). */
  matches(path: string, req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

/**
 * The node:http request listener over `routes` (first match wins). An HttpError a route throws answers
 * its status and code; anything else answers 500 with a fixed message and is logged. `noteError` hears the
 * code of every refused or failed request (for the request log and metrics).
 */
export function createRouter(
  routes: readonly Route[],
  logger: Logger,
  noteError: (req: IncomingMessage, code: string) => void = () => {},
): (req: IncomingMessage, res: ServerResponse) => void {
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathnameOf(req.url ?? '/');
    const matched = routes.find((candidate) => candidate.matches(path, req));
    if (!matched) throw notFound(req.method ?? 'GET', path, routes);
    await matched.handle(req, res, path);
  }

  return (req, res) => {
    route(req, res).catch((error: unknown) => {
      noteError(req, error instanceof HttpError ? error.code : 'INTERNAL_SERVER_ERROR');
      if (error instanceof HttpError) {
        if (error.status >= 500) {
          logger.error({ method: req.method, url: req.url, status: error.status, err: error }, 'request error');
        } else {
          logger.debug({ method: req.method, url: req.url, status: error.status, reason: error.message }, 'request refused');
        }
        if (!res.headersSent) {
          sendHttpError(res, error);
          return;
        }
      } else {
        logger.error({ method: req.method, url: req.url, err: error }, 'request error');
        if (!res.headersSent) {
          sendHttpError(res, new HttpError(500, 'INTERNAL_SERVER_ERROR', 'internal server error'));
          return;
        }
      }
      res.destroy();
    });
  };
}

/** A path that `new URL` gives back unchanged: no dot segments, percent escapes, backslashes, or a leading `//`. */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_\-/]*$/;

/** The request target's path as `new URL(target, base).pathname` gives it, without building a URL for a plain one. */
export function pathnameOf(target: string): string {
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  return PLAIN_PATH.test(path) ? path : new URL(target, 'http://localhost').pathname;
}

function notFound(method: string, path: string, routes: readonly Route[]): HttpError {
  const paths = routes.flatMap((route) => route.paths);
  const listed = paths.length > 1 ? `${paths.slice(0, -1).join(', ')} and ${paths[paths.length - 1]}` : paths.join('');
  return new HttpError(404, 'NOT_FOUND', `no route for ${method} ${path}: the service answers ${listed}`);
}
