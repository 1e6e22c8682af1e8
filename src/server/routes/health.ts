import type { Store } from '../../store/port.js';
import { allowMethods, sendJson } from '../http-io.js';
import type { Route } from '../router.js';

export interface HealthDeps {
  store: Store;
  /** Whether a schema is being served. */
  hasSchema(): boolean;
}

/**
 * `/health` is liveness: 200 while the process answers at all, whatever its state (restarting the
 * process would not load a schema or bring the store back). `/health/ready` is readiness, "can serve
 * GraphQL": 200 only once a schema is active and the store answers, 503 before, so a load balancer
 * sends no traffic to an instance whose `/graphql` would answer 503.
 */
export function healthRoute(deps: HealthDeps): Route {
  return {
    paths: ['/health', '/health/ready'],
    matches: (path) => path === '/health' || path === '/health/ready',
    async handle(req, res, path) {
      allowMethods(req.method ?? 'GET', ['GET']);
      const schema = deps.hasSchema();
      if (path === '/health') {
        sendJson(res, 200, { status: 'ok', schema, store: deps.store.kind });
        return;
      }
      const storeReady = deps.store.ready();
      const ready = schema && storeReady;
      sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', schema, storeReady, store: deps.store.kind });
    },
  };
}
