/**
 * A stand-in for `mongod` on loopback that speaks just enough of the wire protocol for the official
 * driver to connect and monitor it: the handshake (`ismaster` over OP_QUERY, then `hello` over OP_MSG),
 * and `find` answered with an empty batch. Every other command answers `{ ok: 1 }`, unless `replies`
 * gives the reply document for it (a server's documented answer, so the driver builds its own errors from
 * it). It holds no data; tests use it to make "MongoDB" appear and disappear on a port.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { BSON, Long } from 'mongodb';
import { standaloneHello } from '../helpers/wire-mongo/commands/handshake';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;
const HEADER_BYTES = 16;

export interface FakeMongod {
  readonly port: number;
  /** Names of the commands received so far, in order (`ismaster`, `hello`, `find`, ...). */
  readonly commands: string[];
  /** Stops listening and cuts every connection, as a crashed server would. */
  close(): Promise<void>;
}

/** Reply documents by command name (`insert`, `update`, ...), made from the command the driver sent. */
export type CommandReplies = Record<string, (command: Record<string, unknown>) => Record<string, unknown>>;

export async function startFakeMongod(port: number, replies: CommandReplies = {}): Promise<FakeMongod> {
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  let connectionId = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const id = ++connectionId;
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const reply = answer(message, id, commands, replies);
        if (reply) socket.write(reply);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port,
    commands,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The reply to one request message, or undefined for a request that expects none. */
function answer(message: Buffer, connectionId: number, commands: string[], replies: CommandReplies): Buffer | undefined {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_QUERY) {
    // flags int32, full collection name (cstring), numberToSkip int32, numberToReturn int32, query
    const nameEnd = message.indexOf(0, HEADER_BYTES + 4);
    const command = BSON.deserialize(message.subarray(nameEnd + 1 + 8));
    return opReply(requestId, reply(command, connectionId, commands, replies));
  }
  if (opCode === OP_MSG) {
    const flags = message.readUInt32LE(HEADER_BYTES);
    // The body is the section of kind 0; the driver puts it first.
    if (message.readUInt8(HEADER_BYTES + 4) !== 0) throw new Error('fake mongod: expected the OP_MSG body section first');
    const bodyStart = HEADER_BYTES + 5;
    const command = BSON.deserialize(message.subarray(bodyStart, bodyStart + message.readInt32LE(bodyStart)));
    const moreToCome = (flags & 0b10) !== 0;
    const response = reply(command, connectionId, commands, replies);
    return moreToCome ? undefined : opMsg(requestId, response);
  }
  throw new Error(`fake mongod: unsupported opCode ${opCode}`);
}

function reply(command: Record<string, unknown>, connectionId: number, commands: string[], replies: CommandReplies): Record<string, unknown> {
  const name = Object.keys(command)[0] ?? '';
  commands.push(name);
  const given = replies[name];
  if (given) return given(command);
  switch (name.toLowerCase()) {
    case 'hello':
    case 'ismaster':
      return standaloneHello(connectionId);
    case 'find':
      return { cursor: { id: Long.fromNumber(0), ns: `${String(command.$db)}.${String(command.find)}`, firstBatch: [] }, ok: 1 };
    default:
      return { ok: 1 };
  }
}

function header(length: number, responseTo: number, opCode: number): Buffer {
  const head = Buffer.alloc(HEADER_BYTES);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(0, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(opCode, 12);
  return head;
}

function opReply(responseTo: number, document: Record<string, unknown>): Buffer {
  const body = Buffer.from(BSON.serialize(document));
  // responseFlags int32, cursorID int64, startingFrom int32, numberReturned int32
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(HEADER_BYTES + fields.length + body.length, responseTo, OP_REPLY), fields, body]);
}

function opMsg(responseTo: number, document: Record<string, unknown>): Buffer {
  const body = Buffer.from(BSON.serialize(document));
  const flagsAndKind = Buffer.alloc(5); // flagBits 0, section kind 0
  return Buffer.concat([header(HEADER_BYTES + flagsAndKind.length + body.length, responseTo, OP_MSG), flagsAndKind, body]);
}
