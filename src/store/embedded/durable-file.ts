/** Small helpers for writes that must reach the disk before they count. */
import fs from 'node:fs';

/** Writes every byte of `data` at the file's current position (writeSync may write fewer). */
export function writeFully(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += fs.writeSync(fd, data, offset, data.length - offset);
}

/**
 * Writes all of `text` as UTF-8 at the file's current position and returns how many bytes that is. The
 * string goes to the file as it is, without a Buffer made of it first (a log record of an add of 100
 * objects is some 30 KB); only a short write, which regular files rarely make, encodes it to write the rest.
 */
export function writeTextFully(fd: number, text: string): number {
  const bytes = Buffer.byteLength(text, 'utf8');
  const written = fs.writeSync(fd, text, null, 'utf8');
  if (written < bytes) writeFully(fd, Buffer.from(text, 'utf8').subarray(written));
  return bytes;
}

/** Makes a rename or file creation inside `dir` durable. */
export function fsyncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
