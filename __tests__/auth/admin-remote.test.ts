/**
 * `/admin/*` without an admin token accepts loopback callers only, since the schema it takes carries the
 * auth configuration. A real non-loopback connection is made to this machine's own network address: the
 * service listens on it and the test connects to it, so the socket's remote address is that address,
 * not 127.0.0.1. On a machine with no such address that is impossible; the second test then still shows
 * the refusal through the real request handling, at the one seam left: the request's socket address.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { rm } from 'node:fs/promises';
import { createApp, type App } from '../../src/server/app.js';
import { startServer, type RunningServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Store } from '../../src/store/port.js';
import { gql, uploadSchema } from '../helpers/gql.js';
import { makeTempDir } from '../helpers/server.js';

const SCHEMA = 'type Note {\n  id: ID!\n  text: String\n}\n';

/** An IPv4 address of this machine that is not loopback, if it has one. */
function nonLoopbackAddress(): string | undefined {
  return Object.values(networkInterfaces()).flat()
    .find((info) => info !== undefined && info.family === 'IPv4' && !info.internal)?.address;
}

interface Service {
  app: App;
  store: Store;
  dataDir: string;
}

async function openService(adminToken?: string): Promise<Service> {
  const dataDir = await makeTempDir();
  const store = await openEmbeddedStore(dataDir);
  const app = await createApp({ store, logger: createLogger('silent'), adminToken });
  return { app, store, dataDir };
}

async function closeService(service: Service, closeApp: () => Promise<void>): Promise<void> {
  await closeApp();
  await service.store.close();
  await rm(service.dataDir, { recursive: true, force: true });
}

const address = nonLoopbackAddress();
const ADMIN_REFUSAL =
  'admin endpoints accept only loopback callers when no admin token is configured: ' +
  'set ADMIN_TOKEN (or --admin-token) and send "Authorization: Bearer <token>"';
const SKIP_REASON = 'this machine has no non-loopback IPv4 address to listen on';
if (!address) process.stderr.write(`admin-remote: the network-address suite is skipped: ${SKIP_REASON}\n`);

(address ? describe : describe.skip)(`a caller connecting from ${address ?? `a non-loopback address (skipped: ${SKIP_REASON})`}`, () => {
  let service: Service;
  let running: RunningServer;

  afterEach(async () => {
    await closeService(service, () => running.close());
  });

  async function listenOnNetworkAddress(adminToken?: string): Promise<string> {
    service = await openService(adminToken);
    running = await startServer({ app: service.app, port: 0, host: address! });
    return running.url;
  }

  test('without an admin token: /admin/* answers 403 and nothing is activated; /graphql stays reachable', async () => {
    const url = await listenOnNetworkAddress();
    expect(url).not.toMatch(/127\.0\.0\.1/);
    const upload = await uploadSchema(url, SCHEMA);
    expect(upload.status).toBe(403);
    expect(upload.body.errors).toEqual([{ message: ADMIN_REFUSAL, extensions: { code: 'FORBIDDEN' } }]);
    expect((await fetch(`${url}/admin/schema`)).status).toBe(403);
    expect(service.app.active).toBeUndefined();
    expect((await gql(url, '{ __typename }')).status).toBe(503); // no schema loaded, but not refused
  });

  test('with an admin token: the same caller is let in with it', async () => {
    const url = await listenOnNetworkAddress('remote-admin-token');
    expect((await uploadSchema(url, SCHEMA)).status).toBe(401);
    expect((await uploadSchema(url, SCHEMA, 'remote-admin-token')).status).toBe(200);
  });
});

describe('the refusal through the real request handling, with the request socket\'s address set', () => {
  let service: Service;
  let server: Server;

  afterEach(async () => {
    await closeService(service, async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.app.close();
    });
  });

  test('a request whose socket reports 203.0.113.7 gets 403 from /admin/schema', async () => {
    service = await openService();
    server = createServer((req, res) => {
      Object.defineProperty(req.socket, 'remoteAddress', { value: '203.0.113.7', configurable: true });
      service.app.handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const upload = await uploadSchema(url, SCHEMA);
    expect(upload.status).toBe(403);
    expect(upload.body.errors).toEqual([{ message: ADMIN_REFUSAL, extensions: { code: 'FORBIDDEN' } }]);
    expect(service.app.active).toBeUndefined();
  });
});
