import type { ApolloServer, BaseContext } from '@apollo/server';
import type { IncomingMessage } from 'node:http';
import type { Store } from '../../store/port.js';
import type { ActiveSchema } from '../activation.js';
import { applyCors } from '../cors-http.js';
import { graphqlCorsOffer, type CorsPolicy } from '../cors.js';
import { handleGraphQLRequest } from '../graphql-endpoint.js';
import { allowMethods, sendJson } from '../http-io.js';
import type { Route } from '../router.js';
import { STORE_UNAVAILABLE_CODE } from '../store-unavailable.js';

export interface GraphQLRouteDeps {
  apollo: ApolloServer<BaseContext>;
  store: Store;
  /** The schema being served, if any. */
  active(): ActiveSchema | undefined;
  /** Whether no schema could be read yet because the store does not answer. */
  waitingForStore(): boolean;
  /** The request's context factory, as Apollo Server calls it; `headers` are the request's, one string per name. */
  context(req: IncomingMessage, headers: Record<string, string | undefined>): () => Promise<BaseContext>;
  maxBodyBytes: number;
  /** Browser origins allowed to call; no CORS headers at all when undefined. */
  cors?: CorsPolicy;
}

/** `GET|POST /graphql` through Apollo Server, with CORS (preflights answered here) when configured. */
export function graphqlRoute(deps: GraphQLRouteDeps): Route {
  return {
    paths: ['/graphql'],
    matches: (path) => path === '/graphql',
    async handle(req, res) {
      const method = req.method ?? 'GET';
      if (applyCors(req, res, deps.cors, graphqlCorsOffer(deps.active()?.model.authorization?.header), '/graphql')) return;
      allowMethods(method, ['GET', 'POST']);
      const active = deps.active();
      if (!active && (deps.waitingForStore() || !deps.store.ready())) {
        // No schema because none could be read yet: saying "upload one" would send the operator the wrong way.
        sendJson(res, 503, {
          errors: [
            {
              message: `data store unavailable: the ${deps.store.kind} store does not answer, so no schema is loaded yet; the service retries by itself`,
              extensions: { code: STORE_UNAVAILABLE_CODE },
            },
          ],
        });
        return;
      }
      if (!active) {
        // 503, not 200: the endpoint cannot serve anything until an administrator uploads a schema, a
        // condition of the service rather than of the request; proxies and health checks read it as
        // "not available yet", and the body still is a GraphQL response that clients can show.
        sendJson(res, 503, {
          errors: [{ message: 'no schema loaded: POST your schema to /admin/schema', extensions: { code: 'SCHEMA_NOT_LOADED' } }],
        });
        return;
      }
      await handleGraphQLRequest(req, res, deps.apollo, (headers) => deps.context(req, headers), deps.maxBodyBytes);
    },
  };
}
