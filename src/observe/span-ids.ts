import { randomFillSync } from 'node:crypto';

/** Random bytes drawn at once: 256 trace ids' worth, so the system's random source is read rarely. */
const POOL_BYTES = 4096;
const INVALID_TRACE_ID = '0'.repeat(32);
const INVALID_SPAN_ID = '0'.repeat(16);

/**
 * Random trace ids (32 hex digits) and span ids (16), cut from a string of hex digits made from a block of
 * cryptographically random bytes. A cut of such a string is a view of it in V8, not a copy, so an id costs
 * about one small allocation; the SDK's generator writes each id's bytes with `Math.random` and converts
 * them to hex one id at a time. An all-zero id, which W3C trace context calls invalid, is drawn again.
 */
export class SpanIds {
  private pool = '';
  private position = 0;

  traceId(): string {
    let id = this.take(32);
    while (id === INVALID_TRACE_ID) id = this.take(32);
    return id;
  }

  spanId(): string {
    let id = this.take(16);
    while (id === INVALID_SPAN_ID) id = this.take(16);
    return id;
  }

  private take(digits: number): string {
    if (this.position + digits > this.pool.length) {
      this.pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES)).toString('hex');
      this.position = 0;
    }
    const id = this.pool.substring(this.position, this.position + digits);
    this.position += digits;
    return id;
  }
}
