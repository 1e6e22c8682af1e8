import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '../errors/codes.js';

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
 * The whole request body, refused with 413 once it passes `limit` bytes. Past the limit the rest is read
 * and discarded rather than the socket destroyed, so the client still receives the 413 answer.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new HttpError(413, 'PAYLOAD_TOO_LARGE', `request body is larger than the limit of ${limit} bytes (the service's --max-body-bytes)`);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) {
        return;
      }
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    let ended = false;
    req.on('end', () => {
      ended = true;
      if (!refused) {
        resolve(Buffer.concat(chunks));
      }
    });
    req.on('error', reject);
    // A client that goes away mid-body never sends 'end'; settle so the request's work is released.
    req.on('close', () => {
      if (!ended) {
        reject(new HttpError(400, 'BAD_REQUEST', 'the client closed the connection before the request body was complete'));
      }
    });
  });
}

/** Refuses `method` with 405 and an `Allow` header unless it is one of `allowed`. */
export function allowMethods(method: string, allowed: readonly string[]): void {
  if (!allowed.includes(method)) {
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', `method ${method} is not allowed here; use ${allowed.join(' or ')}`, {
      allow: allowed.join(', '),
    });
  }
}
