/**
 * The lines of a file of any size, read in chunks. Reading a whole file as one string stops at V8's longest
 * string (about 512 MiB: `buffer.constants.MAX_STRING_LENGTH`), and holds the text, its lines and what is
 * made of them at once; this holds one chunk and one line. Lines are cut at the byte `\n`, which never
 * occurs inside a multi-byte UTF-8 character, so each line decodes whole.
 */
import fs from 'node:fs';

const NEWLINE = 0x0a;
const DEFAULT_CHUNK_BYTES = 8 << 20;

/** Each line of `file` without its `\n`, and a last line without one if the file does not end with it. */
export function* fileLines(file: string, chunkBytes = DEFAULT_CHUNK_BYTES): Generator<string> {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    /** The start of a line that the previous chunks did not finish. */
    let carried: Buffer | undefined;
    for (let read = fs.readSync(fd, buffer, 0, chunkBytes, null); read > 0; read = fs.readSync(fd, buffer, 0, chunkBytes, null)) {
      const chunk = carried === undefined ? buffer.subarray(0, read) : Buffer.concat([carried, buffer.subarray(0, read)]);
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        yield chunk.toString('utf8', start, end);
        start = end + 1;
      }
      // A copy: `buffer` is read into again.
      carried = start < chunk.length ? Buffer.from(chunk.subarray(start)) : undefined;
    }
    if (carried !== undefined) yield carried.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}
