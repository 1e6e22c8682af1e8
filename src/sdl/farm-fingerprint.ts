/**
 * FarmHash's Fingerprint64 (farmhashna's Hash64) for inputs of at most 64 bytes, with BigInt arithmetic
 * modulo 2^64. Dgraph keys a language-tagged value by the fingerprint of its tag and, asked for "any
 * language" (`@.`), returns the tagged value with the smallest one; this is how the service knows that
 * order. Longer inputs are refused: language tags are short (sdl/language-tags.ts bounds them).
 */

const MASK = (1n << 64n) - 1n;
const K0 = 0xc3a5c85c97cb3127n;
const K1 = 0xb492b66fbe98f273n;
const K2 = 0x9ae16a3b2f90404fn;

export const FINGERPRINT_MAX_BYTES = 64;

const add = (...values: bigint[]): bigint => values.reduce((sum, value) => (sum + value) & MASK, 0n);
const mul = (a: bigint, b: bigint): bigint => (a * b) & MASK;
const rotateRight = (value: bigint, shift: bigint): bigint => ((value >> shift) | (value << (64n - shift))) & MASK;
const shiftMix = (value: bigint): bigint => value ^ (value >> 47n);

function word64(bytes: Uint8Array, at: number): bigint {
  let value = 0n;
  for (let i = 7; i >= 0; i -= 1) value = (value << 8n) | BigInt(bytes[at + i]!);
  return value;
}

function word32(bytes: Uint8Array, at: number): bigint {
  let value = 0n;
  for (let i = 3; i >= 0; i -= 1) value = (value << 8n) | BigInt(bytes[at + i]!);
  return value;
}

function hashLen16(u: bigint, v: bigint, multiplier: bigint): bigint {
  let a = mul(u ^ v, multiplier);
  a ^= a >> 47n;
  let b = mul(v ^ a, multiplier);
  b ^= b >> 47n;
  return mul(b, multiplier);
}

function hashLen0to16(s: Uint8Array): bigint {
  const length = BigInt(s.length);
  if (s.length >= 8) {
    const multiplier = add(K2, length * 2n);
    const a = add(word64(s, 0), K2);
    const b = word64(s, s.length - 8);
    const c = add(mul(rotateRight(b, 37n), multiplier), a);
    const d = mul(add(rotateRight(a, 25n), b), multiplier);
    return hashLen16(c, d, multiplier);
  }
  if (s.length >= 4) {
    const multiplier = add(K2, length * 2n);
    return hashLen16(add(length, word32(s, 0) << 3n), word32(s, s.length - 4), multiplier);
  }
  if (s.length > 0) {
    const y = BigInt(s[0]!) + (BigInt(s[s.length >> 1]!) << 8n);
    const z = length + (BigInt(s[s.length - 1]!) << 2n);
    return mul(shiftMix(mul(y, K2) ^ mul(z, K0)), K2);
  }
  return K2;
}

function hashLen17to32(s: Uint8Array): bigint {
  const multiplier = add(K2, BigInt(s.length) * 2n);
  const a = mul(word64(s, 0), K1);
  const b = word64(s, 8);
  const c = mul(word64(s, s.length - 8), multiplier);
  const d = mul(word64(s, s.length - 16), K2);
  return hashLen16(add(rotateRight(add(a, b), 43n), rotateRight(c, 30n), d), add(a, rotateRight(add(b, K2), 18n), c), multiplier);
}

function hashLen33to64(s: Uint8Array): bigint {
  const multiplier = add(K2, BigInt(s.length) * 2n);
  const a = mul(word64(s, 0), K2);
  const b = word64(s, 8);
  const c = mul(word64(s, s.length - 8), multiplier);
  const d = mul(word64(s, s.length - 16), K2);
  const y = add(rotateRight(add(a, b), 43n), rotateRight(c, 30n), d);
  const z = hashLen16(y, add(a, rotateRight(add(b, K2), 18n), c), multiplier);
  const e = mul(word64(s, 16), multiplier);
  const f = word64(s, 24);
  const g = mul(add(y, word64(s, s.length - 32)), multiplier);
  const h = mul(add(z, word64(s, s.length - 24)), multiplier);
  return hashLen16(add(rotateRight(add(e, f), 43n), rotateRight(g, 30n), h), add(e, rotateRight(add(f, a), 18n), g), multiplier);
}

/** Fingerprint64 of the UTF-8 bytes of `text` (at most 64 of them), as an unsigned 64-bit BigInt. */
export function fingerprint64(text: string): bigint {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > FINGERPRINT_MAX_BYTES) throw new RangeError(`fingerprint64 takes at most ${FINGERPRINT_MAX_BYTES} bytes, got ${bytes.length}`);
  if (bytes.length <= 16) return hashLen0to16(bytes);
  if (bytes.length <= 32) return hashLen17to32(bytes);
  return hashLen33to64(bytes);
}
