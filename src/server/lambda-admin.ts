import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../errors/codes.js';
import { refusedUploadBody } from './activation-answer.js';
import { HttpError, readBody, sendJson } from './http-io.js';
import type { LambdaActivationResult } from './lambda-activation.js';

export interface LambdaAdminDeps {
  /** The script being served, if any. */
  currentScript: string | undefined;
  /** Checks, stores and swaps in an uploaded script (serialized with schema uploads). */
  activate(text: string): Promise<LambdaActivationResult>;
  maxBodyBytes: number;
}

/**
 * `/admin/lambda` (the caller is already authorized): GET answers the running script, POST replaces it
 * with the raw request body and answers the names it registers (`resolvers`, and `webhooks` from
 * `self.addWebHookResolvers`). A rejected upload answers like a schema upload: the HTTP status and
 * `{ errors: [{ message, locations?, extensions: { code } }] }`, with the previous script still serving.
 */
export async function handleLambdaAdmin(req: IncomingMessage, res: ServerResponse, deps: LambdaAdminDeps): Promise<void> {
  const method = req.method ?? 'GET';
  if (method === 'GET') {
    if (deps.currentScript === undefined) {
      throw new HttpError(404, 'LAMBDA_NOT_LOADED', 'no lambda script loaded: POST your script to /admin/lambda');
    }
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'content-length': Buffer.byteLength(deps.currentScript) });
    res.end(deps.currentScript);
    return;
  }
  if (method !== 'POST') {
    throw new HttpError(405, 'METHOD_NOT_ALLOWED', `method ${method} is not allowed here; use GET or POST`, { allow: 'GET, POST' });
  }
  const result = await deps.activate(decodeScript(await readBody(req, deps.maxBodyBytes)));
  if (result.ok) {
    sendJson(res, 200, { data: { message: 'lambda script loaded', resolvers: result.resolvers, webhooks: result.webhooks } });
  } else {
    sendJson(res, result.httpStatus, refusedUploadBody(result.httpStatus, result.errors, ErrorCode.BAD_LAMBDA_SCRIPT));
  }
}

function decodeScript(body: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', 'the lambda script is not valid UTF-8 text');
  }
}
