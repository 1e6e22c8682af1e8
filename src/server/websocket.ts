import type { Server } from 'node:http';
import type { ServerOptions } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { SocketExtra } from '../live/index.js';

export interface WebSocketEndpoint {
  /** Closes every WebSocket connection (code 1001, going away) and stops accepting new ones. */
  close(): Promise<void>;
}

/**
 * Serves the `graphql-transport-ws` protocol on `server` at `path` (the port and path of HTTP GraphQL,
 * so Apollo Client's GraphQLWsLink needs only the URL with `ws://`). The protocol's hooks come from live/.
 */
export function attachWebSocket(server: Server, path: string, options: ServerOptions<Record<string, unknown>, SocketExtra>): WebSocketEndpoint {
  const sockets = new WebSocketServer({ server, path });
  const disposable = useServer(options, sockets);
  return {
    async close() {
      await disposable.dispose();
    },
  };
}
