import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorFromAnswer } from '../admin-client.js';
import { EXPORT_FORMAT } from '../../transfer/format.js';
import { EXIT, UsageError, type Command } from '../command.js';

/**
 * `autograph export [<file>]`: the service's data, schema and lambda script as an export file (to stdout
 * without a file). A stream cut short (it lacks the end line) exits 3 and leaves no file behind.
 */
export const exportCommand: Command = {
  words: ['export'],
  usage: 'export [<file>]',
  summary: 'writes every collection, the schema and the lambda script as NDJSON (stdout without a file)',
  async run({ client, args, cwd, stdout, stderr }) {
    if (args.length > 1) throw new UsageError(`expected at most one file, got ${args.length} arguments`);
    const response = await client.request('GET', '/admin/export');
    if (!response.ok || response.body === null) throw errorFromAnswer(response.status, await response.text());
    const target = args[0] === undefined || args[0] === '-' ? undefined : resolve(cwd, args[0]);
    const temporary = target === undefined ? undefined : `${target}.partial`;
    const tail = new TailWatch();
    try {
      const sink = temporary === undefined ? stdout : createWriteStream(temporary);
      await pipeline(Readable.fromWeb(response.body as never), tail.passThrough(), sink as Writable, { end: temporary !== undefined });
    } catch (error) {
      if (temporary !== undefined) await rm(temporary, { force: true });
      stderr.write(`autograph export: the export stream broke off: ${(error as Error).message}\n`);
      return EXIT.unavailable;
    }
    if (!tail.endsWithEndLine()) {
      if (temporary !== undefined) await rm(temporary, { force: true });
      stderr.write('autograph export: the service cut the export short (it lacks its end line); see the service log\n');
      return EXIT.unavailable;
    }
    if (target !== undefined && temporary !== undefined) {
      await rename(temporary, target);
      stderr.write(`exported to ${target}\n`);
    }
    return EXIT.ok;
  },
};

/** Keeps the last line of what passes through, to check that the stream ended with its end line. */
class TailWatch {
  private lastLine = '';
  private partial = '';

  passThrough(): (source: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array> {
    const watch = this;
    const decoder = new TextDecoder();
    return async function* (source) {
      for await (const chunk of source) {
        const lines = (watch.partial + decoder.decode(chunk, { stream: true })).split('\n');
        watch.partial = lines.pop()!;
        if (lines.length > 0) watch.lastLine = lines[lines.length - 1]!;
        yield chunk;
      }
    };
  }

  /** Whether the last line is the export's end line (format.ts). */
  endsWithEndLine(): boolean {
    const last = this.partial.trim() === '' ? this.lastLine : this.partial;
    try {
      return (JSON.parse(last) as { end?: unknown }).end === EXPORT_FORMAT;
    } catch {
      return false;
    }
  }
}
