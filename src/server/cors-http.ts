import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerCors, type CorsOffer, type CorsPolicy } from './cors.js';
import { HttpError } from './http-io.js';

/**
 * Sets the CORS headers on `res` (so every answer carries them, errors included) and answers a preflight.
 * Returns true when the request was answered here. `endpoint` names what a refused preflight wanted to call.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, policy: CorsPolicy | undefined, offer: CorsOffer, endpoint: string): boolean {
  const answer = answerCors(policy, { method: req.method ?? 'GET', origin: req.headers.origin, requestMethod: req.headers['access-control-request-method'] }, offer);
  if (answer.kind === 'none') return false;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.kind === 'refused-preflight') {
    throw new HttpError(403, 'FORBIDDEN', `origin ${answer.origin} may not call ${endpoint}: it is not in the service's --cors-origins`);
  }
  if (answer.kind === 'preflight') {
    res.writeHead(204, { 'content-length': '0' });
    res.end();
    return true;
  }
  return false;
}
