/** Small helpers for writes that must reach the disk before they count. */
import fs from 'node:fs';

/** Writes every byte of `data` at the file's current position (writeSync may write fewer). */
export function writeFully(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += fs.writeSync(fd, data, offset, data.length - offset);
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
