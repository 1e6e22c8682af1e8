import { signingKeysOf } from './jwk.js';
import { declaredLifetimeSeconds } from './freshness.js';
import type { VerificationKey } from '../jwt/verify.js';

export interface FetchLimits {
  /** Whole request, body included. */
  timeoutMs: number;
  /** Largest body read; a larger one is refused without being read further. */
  maxBytes: number;
}

export interface FetchedKeySet {
  keys: Map<string, VerificationKey>;
  /** What the response's cache headers asked for, before bounds apply. */
  declaredLifetimeSeconds: number | undefined;
}

/** A key set URL could not be read; `message` says why (HTTP status, timeout, size, not a JWK Set). */
export class KeySetFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeySetFetchError';
  }
}

async function boundedBody(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw new KeySetFetchError(`the response is ${declared} bytes, more than the ${maxBytes} allowed`);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new KeySetFetchError(`the response is more than the ${maxBytes} bytes allowed`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** Fetch's own errors as a short reason (read by shape: they may come from another realm than this code's). */
function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof KeySetFetchError) return error.message;
  const { name, message, cause } = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; message?: unknown; cause?: { code?: unknown } };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof message === 'string' ? message : String(error);
}

/** GETs a JWK Set within the limits and reads its signing keys. Throws `KeySetFetchError` saying why not. */
export async function fetchKeySet(url: string, limits: FetchLimits, nowMs = Date.now()): Promise<FetchedKeySet> {
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(limits.timeoutMs) });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new KeySetFetchError(`it answered HTTP ${response.status}`);
    }
    const body = await boundedBody(response, limits.maxBytes);
    let document: unknown;
    try {
      document = JSON.parse(body.toString('utf8'));
    } catch {
      throw new KeySetFetchError('the response is not JSON');
    }
    let keys: Map<string, VerificationKey>;
    try {
      keys = signingKeysOf(document);
    } catch (error) {
      throw new KeySetFetchError(error instanceof Error ? error.message : String(error));
    }
    return { keys, declaredLifetimeSeconds: declaredLifetimeSeconds(response.headers, nowMs) };
  } catch (error) {
    throw new KeySetFetchError(reasonOf(error, limits.timeoutMs));
  }
}
