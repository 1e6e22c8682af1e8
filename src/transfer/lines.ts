/**
 * A byte stream cut into numbered text lines, pulled one chunk at a time (so a reader that awaits its
 * work between lines applies backpressure to the stream). `\n` ends a line (a `\r` before it is dropped);
 * the last line may lack it. A line longer than `maxLineBytes` or not valid UTF-8 fails with LineError.
 */
export interface Line {
  /** 1 for the first line. */
  number: number;
  text: string;
}

export class LineError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'LineError';
  }
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export async function* splitLines(source: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<Line> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  const finish = (tail: Buffer): Line => {
    number += 1;
    let bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, bytes.length - 1);
    try {
      return { number, text: decoder.decode(bytes) };
    } catch {
      throw new LineError(number, 'is not valid UTF-8');
    }
  };
  for await (const chunk of source) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      if (pendingBytes + end - start > maxLineBytes) throw new LineError(number + 1, `is longer than ${maxLineBytes} bytes`);
      yield finish(buffer.subarray(start, end));
      start = end + 1;
    }
    if (start < buffer.length) {
      pendingBytes += buffer.length - start;
      if (pendingBytes > maxLineBytes) throw new LineError(number + 1, `is longer than ${maxLineBytes} bytes`);
      pending.push(buffer.subarray(start));
    }
  }
  if (pendingBytes > 0) yield finish(Buffer.alloc(0));
}
