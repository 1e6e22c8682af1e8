import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.js';

export interface StartServerOptions {
  app: App;
  port: number;
  host: string;
  /** How long `close()` lets in-flight requests finish before cutting their connections; default 10 s. */
  shutdownGraceMs?: number;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:8080` (IPv6 hosts in brackets). */
  url: string;
  /** The bound port (the free one picked when asked for port 0). */
  port: number;
  /** Stops accepting connections, lets in-flight requests finish, then closes the app. */
  close(): Promise<void>;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { app } = options;
  const inFlight = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
    if (closing) {
      res.setHeader('connection', 'close');
    }
    app.handler(req, res);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Attached once listening: the WebSocket server re-emits the HTTP server's errors (a port in use) as its own.
  const subscriptions = app.attachSubscriptions(server);
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;

  async function shutdown(): Promise<void> {
    await subscriptions.close();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections must not carry further requests once the answer in progress is sent.
    for (const res of inFlight) {
      if (!res.headersSent) {
        res.setHeader('connection', 'close');
      }
    }
    server.closeIdleConnections();
    const grace = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 10_000);
    grace.unref();
    await drained;
    clearTimeout(grace);
    await app.close();
  }

  return {
    url: `http://${host}:${port}`,
    port,
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}
