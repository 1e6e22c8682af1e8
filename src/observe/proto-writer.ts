/**
 * Writes protobuf wire format straight into one growing Buffer, with the encodings protobufjs uses (shortest
 * varints, little-endian fixed-width numbers), so the bytes match what its generated encoders write. A
 * length-delimited field is written in place: its content goes right after a one-byte length, and is
 * moved along in the rare case the length needs more bytes.
 */

const TWO_TO_32 = 4294967296;
/** Strings up to this length are copied in JavaScript when they are ASCII (see `shortAscii`). */
const SHORT_STRING = 64;
/** The value of each hex digit's character code, -1 for any other character below 128. */
const HEX_VALUES = Int8Array.from({ length: 128 }, (_, code) => {
  const digit = '0123456789abcdef'.indexOf(String.fromCharCode(code).toLowerCase());
  return digit;
});
const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_DELIMITED = 2;
const WIRE_FIXED32 = 5;

export class ProtoWriter {
  private buffer: Buffer;
  private position = 0;

  constructor(initialBytes: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(64, initialBytes));
  }

  /** How many bytes are written so far. */
  get length(): number {
    return this.position;
  }

  /** The bytes written (a view of the writer's buffer, which is not reused). */
  finish(): Uint8Array {
    return this.buffer.subarray(0, this.position);
  }

  uint32Field(field: number, value: number): void {
    this.tag(field, WIRE_VARINT);
    this.varint32(value);
  }

  boolField(field: number, value: boolean): void {
    this.tag(field, WIRE_VARINT);
    this.varint32(value ? 1 : 0);
  }

  /** An `int64` from a JS number, converted as protobufjs's `LongBits.fromNumber` does (two's complement when negative). */
  int64Field(field: number, value: number): void {
    this.tag(field, WIRE_VARINT);
    const negative = value < 0;
    const magnitude = negative ? -value : value;
    let low = magnitude >>> 0;
    let high = ((magnitude - low) / TWO_TO_32) >>> 0;
    if (negative) {
      high = ~high >>> 0;
      low = ~low >>> 0;
      if (++low > 0xffffffff) {
        low = 0;
        if (++high > 0xffffffff) high = 0;
      }
    }
    this.varint64(low, high);
  }

  doubleField(field: number, value: number): void {
    this.tag(field, WIRE_FIXED64);
    this.reserve(8);
    this.position = this.buffer.writeDoubleLE(value, this.position);
  }

  fixed32Field(field: number, value: number): void {
    this.tag(field, WIRE_FIXED32);
    this.reserve(4);
    this.position = this.buffer.writeUInt32LE(value >>> 0, this.position);
  }

  fixed64Field(field: number, low: number, high: number): void {
    this.tag(field, WIRE_FIXED64);
    this.reserve(8);
    this.position = this.buffer.writeUInt32LE(low, this.position);
    this.position = this.buffer.writeUInt32LE(high, this.position);
  }

  stringField(field: number, value: string): void {
    const start = this.beginDelimited(field);
    this.reserve(value.length * 3);
    if (!this.shortAscii(value)) this.position += this.buffer.write(value, this.position, 'utf8');
    this.endDelimited(start);
  }

  /** A `bytes` field holding the bytes a hexadecimal string spells (trace and span ids). */
  hexBytesField(field: number, hex: string): void {
    const start = this.beginDelimited(field);
    this.reserve(hex.length >>> 1);
    if (!this.hexPairs(hex)) this.position += this.buffer.write(hex, this.position, 'hex');
    this.endDelimited(start);
  }

  bytesField(field: number, bytes: Uint8Array): void {
    this.tag(field, WIRE_DELIMITED);
    this.varint32(bytes.length);
    this.raw(bytes);
  }

  /** Bytes already encoded (a message written once and reused). */
  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.position);
    this.position += bytes.length;
  }

  /** Starts a length-delimited field; its content is what is written until `endDelimited(start)`. */
  beginDelimited(field: number): number {
    this.tag(field, WIRE_DELIMITED);
    this.reserve(1);
    this.position += 1;
    return this.position;
  }

  endDelimited(start: number): void {
    const length = this.position - start;
    if (length < 0x80) {
      this.buffer[start - 1] = length;
      return;
    }
    const extra = varintSize(length) - 1;
    this.reserve(extra);
    this.buffer.copyWithin(start + extra, start, this.position);
    const end = this.position + extra;
    this.position = start - 1;
    this.varint32(length);
    this.position = end;
  }

  /**
   * Writes a short ASCII string byte by byte, and answers whether it did: for the short names, keys and
   * values of spans this beats `Buffer.write`, whose call into C++ costs more than the copy.
   */
  private shortAscii(value: string): boolean {
    if (value.length > SHORT_STRING) return false;
    const buffer = this.buffer;
    let position = this.position;
    for (let i = 0; i < value.length; i += 1) {
      const code = value.charCodeAt(i);
      if (code >= 0x80) return false;
      buffer[position++] = code;
    }
    this.position = position;
    return true;
  }

  /** Writes the bytes of a lower- or upper-case hex string, and answers whether it was one. */
  private hexPairs(hex: string): boolean {
    if (hex.length % 2 !== 0) return false;
    const buffer = this.buffer;
    let position = this.position;
    for (let i = 0; i < hex.length; i += 2) {
      const high = HEX_VALUES[hex.charCodeAt(i)] ?? -1;
      const low = HEX_VALUES[hex.charCodeAt(i + 1)] ?? -1;
      if (high < 0 || low < 0) return false;
      buffer[position++] = (high << 4) | low;
    }
    this.position = position;
    return true;
  }

  private tag(field: number, wireType: number): void {
    this.varint32((field << 3) | wireType);
  }

  private varint32(value: number): void {
    this.reserve(5);
    let rest = value >>> 0;
    while (rest > 0x7f) {
      this.buffer[this.position++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.buffer[this.position++] = rest;
  }

  private varint64(low: number, high: number): void {
    this.reserve(10);
    while (high > 0) {
      this.buffer[this.position++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    while (low > 0x7f) {
      this.buffer[this.position++] = (low & 0x7f) | 0x80;
      low >>>= 7;
    }
    this.buffer[this.position++] = low;
  }

  private reserve(bytes: number): void {
    if (this.position + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.position + bytes));
    this.buffer.copy(larger, 0, 0, this.position);
    this.buffer = larger;
  }
}

function varintSize(value: number): number {
  let size = 1;
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) size += 1;
  return size;
}
