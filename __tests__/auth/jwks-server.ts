/** A JWK Set server on 127.0.0.1 for tests: what it answers is changed by the test, and it counts requests. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JwksServer {
  /** The base URL, e.g. `http://127.0.0.1:41234`; any path answers the same. */
  url: string;
  /** The `keys` it publishes (JWKs). */
  keys: Record<string, unknown>[];
  /** HTTP status to answer with (200: the set). */
  status: number;
  /** Response headers added to each answer. */
  headers: Record<string, string>;
  /** A body to send instead of the set. */
  body?: string;
  /** When set, requests are held without an answer. */
  hang: boolean;
  /** Requests served so far. */
  requests: number;
  close(): Promise<void>;
}

export async function startJwksServer(keys: Record<string, unknown>[] = []): Promise<JwksServer> {
  const held: Array<() => void> = [];
  let server: Server;
  const state: JwksServer = {
    url: '',
    keys,
    status: 200,
    headers: { 'cache-control': 'public, max-age=300' },
    hang: false,
    requests: 0,
    close: () => new Promise<void>((resolve) => {
      held.splice(0).forEach((release) => release());
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  server = createServer((_req, res) => {
    state.requests += 1;
    if (state.hang) {
      held.push(() => res.destroy());
      return;
    }
    const body = state.body ?? JSON.stringify({ keys: state.keys });
    res.writeHead(state.status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...state.headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
