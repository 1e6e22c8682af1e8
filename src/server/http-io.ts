import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGunzip } from 'node:zlib';
import type { ErrorCode } from '../errors/codes.js';
import { requestCoding } from './content-coding.js';

/** The largest request body accepted when `--max-body-bytes` is not given: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A request the server refuses with `status`; the body is `{ errors: [{ message, extensions: { code } }] }`.
 * `code` must be one of errors/codes.ts, where it is marked client or server.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendHttpError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, { errors: [{ message: error.message, extensions: { code: error.code } }] }, error.headers);
}

/**
 * The whole request body, decoded when it came with `Content-Encoding: gzip`, refused with 413 once it
 * passes `limit` bytes: the bytes on the wire and the decoded bytes alike. A gzip body is inflated as it
 * arrives and inflating stops at the limit, so a small body that would inflate to gigabytes (a zip bomb)
 * costs at most `limit` bytes of memory. A body that is not valid gzip is a 400, another coding a 415.
 * After a refusal the rest is read and discarded rather than the socket destroyed, so the client still
 * receives the answer.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const coding = requestCoding(req.headers['content-encoding']);
    if (coding.kind === 'unsupported') {
      req.resume();
      reject(unsupportedCoding(coding.header));
      return;
    }
    const tooLarge = (decoded: boolean) =>
      new HttpError(413, 'PAYLOAD_TOO_LARGE', `request body is larger than the limit of ${limit} bytes (the service's --max-body-bytes)${decoded ? ' once decompressed' : ''}`);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(tooLarge(false));
      return;
    }
    const gunzip = coding.kind === 'gzip' ? createGunzip() : undefined;
    const chunks: Buffer[] = [];
    let settled = false;
    const refuse = (error: HttpError) => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      gunzip?.destroy();
      reject(error);
    };
    let size = 0;
    const take = (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) refuse(tooLarge(gunzip !== undefined));
      else chunks.push(chunk);
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks));
    };
    let wireSize = 0;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (gunzip === undefined) {
        take(chunk);
        return;
      }
      wireSize += chunk.length;
      if (wireSize > limit) refuse(tooLarge(false));
      else gunzip.write(chunk);
    });
    if (gunzip !== undefined) {
      gunzip.on('data', take);
      gunzip.on('end', finish);
      gunzip.on('error', (error) =>
        refuse(new HttpError(400, 'BAD_REQUEST', `the request body is not valid gzip (it came with Content-Encoding: gzip): ${error.message}`)),
      );
    }
    let ended = false;
    req.on('end', () => {
      ended = true;
      if (gunzip === undefined) finish();
      else if (!settled) gunzip.end();
    });
    req.on('error', (error) => {
      if (settled) return;
      settled = true;
      gunzip?.destroy();
      reject(error);
    });
    // A client that goes away mid-body never sends 'end'; settle so the request's work is released.
    req.on('close', () => {
      if (!ended) refuse(new HttpError(400, 'BAD_REQUEST', 'the client closed the connection before the request body was complete'));
    });
  });
}

/**
 * The request body as a stream of its decoded bytes, for a body read as it arrives (an import file, whose
 * size has no limit): gzip inflated as the consumer asks for more, so memory stays bounded however much
 * it inflates to. Another Content-Encoding is refused with 415 before anything is read; a body that is not
 * valid gzip fails the iteration with a 400.
 */
export function decodedBody(req: IncomingMessage): AsyncIterable<Uint8Array> {
  const coding = requestCoding(req.headers['content-encoding']);
  if (coding.kind === 'unsupported') {
    req.resume();
    throw unsupportedCoding(coding.header);
  }
  if (coding.kind === 'identity') return req;
  return inflated(req);
}

async function* inflated(req: IncomingMessage): AsyncGenerator<Uint8Array> {
  const gunzip = createGunzip();
  // A request error (the client going away) ends the inflated stream with that error.
  req.on('error', (error) => gunzip.destroy(error));
  req.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).code!.startsWith('Z_')) {
      throw new HttpError(400, 'BAD_REQUEST', `the request body is not valid gzip (it came with Content-Encoding: gzip): ${(error as Error).message}`);
    }
    throw error;
  } finally {
    req.unpipe(gunzip);
    gunzip.destroy();
  }
}

function unsupportedCoding(header: string): HttpError {
  return new HttpError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Encoding ${JSON.stringify(header)} is not supported: send the request body as it is, or compressed with Content-Encoding: gzip`,
    { 'accept-encoding': 'gzip, identity' },
  );
}

/** Refuses `method` with 405 and an `Allow` header unless it is one of `allowed`. */
export function allowMethods(method: string, allowed: readonly string[]): void {
  if (!allowed.includes(method)) {
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', `method ${method} is not allowed here; use ${allowed.join(' or ')}`, {
      allow: allowed.join(', '),
    });
  }
}
