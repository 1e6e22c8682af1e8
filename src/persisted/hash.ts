import { createHash } from 'node:crypto';

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** Lowercase hexadecimal SHA-256 of the UTF-8 bytes of `text` (what Apollo Client sends as `sha256Hash`). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Whether `value` looks like a SHA-256 hash: 64 hexadecimal digits, either case. */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && SHA256_HEX.test(value);
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
