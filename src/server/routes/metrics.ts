import { sendMetrics, type ServiceMetrics } from '../../observe/index.js';
import { authorizeMetrics, callerOf } from '../admin-auth.js';
import { allowMethods } from '../http-io.js';
import type { Route } from '../router.js';

export interface MetricsDeps {
  metrics: ServiceMetrics;
  /** When set, a scrape needs `Authorization: Bearer <metricsToken>`; otherwise loopback callers only. */
  metricsToken: string | undefined;
  /** `--cors-origins`: with a token, the other origins whose pages may scrape. */
  corsOrigins?: '*' | readonly string[];
}

/** `GET /metrics`: the Prometheus exposition of the service's metrics. */
export function metricsRoute(deps: MetricsDeps): Route {
  return {
    paths: ['/metrics'],
    matches: (path) => path === '/metrics',
    async handle(req, res) {
      allowMethods(req.method ?? 'GET', ['GET']);
      authorizeMetrics(callerOf(req), { token: deps.metricsToken, corsOrigins: deps.corsOrigins });
      await sendMetrics(res, deps.metrics);
    },
  };
}
