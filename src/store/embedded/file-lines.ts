/**
 * The lines of a file of any size, read in chunks. Reading a whole file as one string stops at V8's longest
 * string (about 512 MiB: `buffer.constants.MAX_STRING_LENGTH`), and holds the text, its lines and what is
 * made of them at once; this holds one chunk and one line. Lines are cut at the byte `\n`, which never
 * occurs inside a multi-byte UTF-8 character, so each line decodes whole.
 */
import fs from 'node:fs';

const NEWLINE = 0x0a;
const DEFAULT_CHUNK_BYTES = 8 << 20;

export interface FileLine {
  text: string;
  /** The byte offset in the file just past the line (past its `\n` when it has one). */
  end: number;
  /** Whether the line ends with `\n`: only the file's last line may not. */
  terminated: boolean;
}

/** Each line of `file` without its `\n`, and a last line without one if the file does not end with it. */
export function* fileLines(file: string, chunkBytes = DEFAULT_CHUNK_BYTES): Generator<string> {
  for (const line of positionedFileLines(file, chunkBytes)) yield line.text;
}

/** `fileLines` with where each line ends in the file and whether it ends with `\n`. */
export function* positionedFileLines(file: string, chunkBytes = DEFAULT_CHUNK_BYTES): Generator<FileLine> {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    /** Copies of the pieces of a line that the previous chunks did not finish (`buffer` is read into again). */
    const carried: Buffer[] = [];
    /** The file offset of `buffer[0]`. */
    let chunkStart = 0;
    for (let read = fs.readSync(fd, buffer, 0, chunkBytes, null); read > 0; read = fs.readSync(fd, buffer, 0, chunkBytes, null)) {
      const chunk = buffer.subarray(0, read);
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        const text = decodeLine(carried, chunk, start, end);
        carried.length = 0;
        start = end + 1;
        yield { text, end: chunkStart + start, terminated: true };
      }
      if (start < read) carried.push(Buffer.from(chunk.subarray(start)));
      chunkStart += read;
    }
    if (carried.length > 0) yield { text: Buffer.concat(carried).toString('utf8'), end: chunkStart, terminated: false };
  } finally {
    fs.closeSync(fd);
  }
}

/** The line made of the carried pieces and `chunk[start, end)`. */
function decodeLine(carried: Buffer[], chunk: Buffer, start: number, end: number): string {
  if (carried.length === 0) return chunk.toString('utf8', start, end);
  // Joined once per line, not once per chunk: a line longer than many chunks is copied once.
  return Buffer.concat([...carried, chunk.subarray(start, end)]).toString('utf8');
}
