import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorFromAnswer } from '../admin-client.js';
import { EXIT, UsageError, type Command } from '../command.js';

const END_LINE_PREFIX = '{"end":"autograph-export"';

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
    if (!tail.endsWith(END_LINE_PREFIX)) {
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
  private tail = '';

  passThrough(): (source: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array> {
    const watch = this;
    const decoder = new TextDecoder();
    return async function* (source) {
      for await (const chunk of source) {
        watch.tail = (watch.tail + decoder.decode(chunk, { stream: true })).slice(-4096);
        yield chunk;
      }
    };
  }

  endsWith(linePrefix: string): boolean {
    const lines = this.tail.trimEnd().split('\n');
    return lines[lines.length - 1]!.startsWith(linePrefix);
  }
}
