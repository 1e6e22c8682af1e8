/**
 * MongoDB's message framing (the "wire protocol"): a 16-byte header, then OP_MSG (flags, a body document
 * and optional document sequences) for every command, or legacy OP_QUERY for the first `isMaster` of an
 * older handshake, answered with OP_REPLY.
 */
import { BSON } from 'mongodb';
import type { Document } from './values';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;
const HEADER_BYTES = 16;
const MORE_TO_COME = 0b10;
const CHECKSUM_PRESENT = 0b1;
const SECTION_BODY = 0;
const SECTION_DOCUMENT_SEQUENCE = 1;

export interface Request {
  requestId: number;
  opCode: typeof OP_MSG | typeof OP_QUERY;
  command: Document;
  /** OP_MSG with moreToCome: the client expects no reply. */
  expectsReply: boolean;
}

/** Splits complete messages off the front of `buffer`; returns them and the unconsumed rest. */
export function splitMessages(buffer: Buffer): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let offset = 0;
  while (buffer.length - offset >= 4) {
    const length = buffer.readInt32LE(offset);
    if (buffer.length - offset < length) break;
    messages.push(buffer.subarray(offset, offset + length));
    offset += length;
  }
  return { messages, rest: buffer.subarray(offset) };
}

export function parseRequest(message: Buffer): Request {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) return parseOpMsg(message, requestId);
  if (opCode === OP_QUERY) return parseOpQuery(message, requestId);
  throw new Error(`wire test server: unsupported opCode ${opCode} (only OP_MSG and the OP_QUERY handshake are implemented)`);
}

function parseOpMsg(message: Buffer, requestId: number): Request {
  const flags = message.readUInt32LE(HEADER_BYTES);
  const end = message.length - ((flags & CHECKSUM_PRESENT) !== 0 ? 4 : 0);
  let offset = HEADER_BYTES + 4;
  let command: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];
  while (offset < end) {
    const kind = message.readUInt8(offset);
    offset += 1;
    if (kind === SECTION_BODY) {
      const size = message.readInt32LE(offset);
      command = BSON.deserialize(message.subarray(offset, offset + size));
      offset += size;
    } else if (kind === SECTION_DOCUMENT_SEQUENCE) {
      const size = message.readInt32LE(offset);
      const sectionEnd = offset + size;
      const nameEnd = message.indexOf(0, offset + 4);
      const name = message.toString('utf8', offset + 4, nameEnd);
      const documents: Document[] = [];
      for (let at = nameEnd + 1; at < sectionEnd; ) {
        const documentSize = message.readInt32LE(at);
        documents.push(BSON.deserialize(message.subarray(at, at + documentSize)));
        at += documentSize;
      }
      sequences.push([name, documents]);
      offset = sectionEnd;
    } else {
      throw new Error(`wire test server: unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!command) throw new Error('wire test server: OP_MSG without a body section');
  for (const [name, documents] of sequences) command[name] = documents;
  return { requestId, opCode: OP_MSG, command, expectsReply: (flags & MORE_TO_COME) === 0 };
}

function parseOpQuery(message: Buffer, requestId: number): Request {
  // flags int32, full collection name (cstring), numberToSkip int32, numberToReturn int32, query document
  const nameEnd = message.indexOf(0, HEADER_BYTES + 4);
  const queryStart = nameEnd + 1 + 8;
  const query = BSON.deserialize(message.subarray(queryStart, queryStart + message.readInt32LE(queryStart)));
  // A wrapped query `{ $query: { isMaster: 1 }, $readPreference }` carries the command inside.
  const command = (query.$query as Document | undefined) ?? query;
  return { requestId, opCode: OP_QUERY, command, expectsReply: true };
}

export function encodeReply(request: Request, reply: Document): Buffer {
  const body = BSON.serialize(reply);
  if (request.opCode === OP_QUERY) {
    // responseFlags int32, cursorID int64, startingFrom int32, numberReturned int32
    const fields = Buffer.alloc(20);
    fields.writeInt32LE(1, 16);
    return Buffer.concat([header(HEADER_BYTES + fields.length + body.length, request.requestId, OP_REPLY), fields, body]);
  }
  const flagsAndKind = Buffer.alloc(5); // flagBits 0, then a body section (kind 0)
  return Buffer.concat([header(HEADER_BYTES + flagsAndKind.length + body.length, request.requestId, OP_MSG), flagsAndKind, body]);
}

let nextResponseId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const head = Buffer.alloc(HEADER_BYTES);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(opCode, 12);
  return head;
}
