import { JwtError } from './errors.js';

/** The JOSE header fields this service reads. */
export interface JoseHeader {
  alg?: unknown;
  kid?: unknown;
  crit?: unknown;
}

/** A compact JWS split into its parts; nothing in it is trusted yet. */
export interface CompactJws {
  header: JoseHeader;
  payload: unknown;
  /** `base64url(header) "." base64url(payload)`: the bytes the signature covers. */
  signingInput: Buffer;
  signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function jsonPart(part: string): unknown {
  if (!BASE64URL.test(part)) throw new JwtError('jwt malformed');
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError('jwt malformed');
  }
}

/** Splits `header.payload.signature`; a token that is not three base64url parts of JSON is malformed. */
export function decodeCompactJws(token: string): CompactJws {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('jwt malformed');
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = jsonPart(headerPart);
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new JwtError('jwt malformed');
  const payload = jsonPart(payloadPart);
  if (!BASE64URL.test(signaturePart)) throw new JwtError('jwt malformed');
  return {
    header: header as JoseHeader,
    payload,
    signingInput: Buffer.from(`${headerPart}.${payloadPart}`, 'ascii'),
    signature: Buffer.from(signaturePart, 'base64url'),
  };
}
