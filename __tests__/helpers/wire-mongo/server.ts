/**
 * A MongoDB wire-protocol server on 127.0.0.1 for tests: it answers like a standalone mongod 7.0 (no
 * replica set, so no transactions) and keeps its data in memory, evaluated by mingo. See README
 * ("MongoDB over the wire in tests") for what it cannot show.
 *
 *   const server = await startWireMongo();
 *   const client = new MongoClient(server.uri);
 *   ...
 *   await server.close();
 */
import { createServer, type Socket } from 'node:net';
import { Catalog } from './catalog';
import { CursorRegistry } from './cursors';
import { dispatch } from './dispatch';
import { encodeReply, parseRequest, splitMessages } from './wire-protocol';
import type { Document } from './values';

export interface WireMongo {
  /** A connection string for the driver, e.g. `mongodb://127.0.0.1:40123/?directConnection=true`. */
  readonly uri: string;
  readonly port: number;
  /** Commands received that this server does not implement, in order. */
  readonly unknownCommands: string[];
  /** Cursors still open (not exhausted, not killed). */
  openCursors(): number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

export interface WireMongoOptions {
  /** Where unknown commands are reported (default: stderr). */
  log?: (line: string) => void;
}

export async function startWireMongo(options: WireMongoOptions = {}): Promise<WireMongo> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const unknownCommands: string[] = [];
  const state = {
    catalog: new Catalog(),
    cursors: new CursorRegistry(),
    onUnknownCommand(name: string, command: Document) {
      unknownCommands.push(name);
      log(`wire test server: unknown command '${name}' (fields: ${Object.keys(command).join(', ')}); answered CommandNotFound`);
    },
  };
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    const connectionId = ++connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const { messages, rest } = splitMessages(Buffer.concat([pending, chunk]));
      pending = Buffer.from(rest);
      for (const message of messages) {
        let request;
        try {
          request = parseRequest(message);
        } catch (error) {
          log(String((error as Error).message));
          socket.destroy();
          return;
        }
        const reply = dispatch(state, request.command, connectionId);
        if (request.expectsReply) socket.write(encodeReply(request, reply));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('wire test server: no TCP address');
  return {
    uri: `mongodb://127.0.0.1:${address.port}/?directConnection=true`,
    port: address.port,
    unknownCommands,
    openCursors: () => state.cursors.openCount,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
