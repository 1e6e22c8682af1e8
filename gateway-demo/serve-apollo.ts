import type { ApolloServer, BaseContext } from '@apollo/server';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyCors } from '../src/server/cors-http.js';
import { CORS_MAX_AGE_SECONDS, graphqlCorsOffer, type CorsPolicy } from '../src/server/cors.js';
import { handleGraphQLRequest } from '../src/server/graphql-endpoint.js';
import { DEFAULT_MAX_BODY_BYTES, HttpError, sendHttpError } from '../src/server/http-io.js';
import type { RunningService } from './owner.js';

/** Any origin, as Apollo's startStandaloneServer allows: the landing page's Sandbox calls from Apollo's origin. */
const ANY_ORIGIN: CorsPolicy = { origins: '*', maxAgeSeconds: CORS_MAX_AGE_SECONDS };

/**
 * Serves `server` on `http://host:port/` with node:http. Unlike Apollo's startStandaloneServer, whose
 * listen error escapes as an uncaught exception, a port that is taken rejects here (with Node's
 * EADDRINUSE error), after Apollo Server is stopped again.
 */
export async function serveApollo(server: ApolloServer<BaseContext>, port: number, host: string): Promise<RunningService> {
  await server.start();
  const http = createServer((req, res) => {
    // Any origin is allowed, so no preflight is refused (applyCors throws only for a refused one).
    if (applyCors(req, res, ANY_ORIGIN, graphqlCorsOffer(undefined), '/')) return;
    handleGraphQLRequest(req, res, server, () => async () => ({}), DEFAULT_MAX_BODY_BYTES).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      sendHttpError(res, error instanceof HttpError ? error : new HttpError(500, 'INTERNAL_SERVER_ERROR', 'internal server error'));
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  const bound = (http.address() as AddressInfo).port;
  return {
    url: `http://${host}:${bound}/`,
    async close() {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
      await server.stop();
    },
  };
}
