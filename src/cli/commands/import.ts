import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { EXIT, UsageError, type Command } from '../command.js';

interface ImportAnswer {
  data: { documents: Record<string, number>; total: number; schemaActivated: boolean; lambdaActivated: boolean };
}

/** `autograph import <file>`: streams an export file into a service whose store holds no data. */
export const importCommand: Command = {
  words: ['import'],
  usage: 'import <file>',
  summary: 'loads an export file into a service with an empty store (all or nothing), then activates its schema',
  async run({ client, args, cwd, stdout }) {
    if (args.length !== 1) throw new UsageError(`expected one export file, got ${args.length} arguments`);
    const file = resolve(cwd, args[0]!);
    try {
      if (!(await stat(file)).isFile()) throw new UsageError(`${file} is not a file`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const body = Readable.toWeb(createReadStream(file)) as unknown as RequestInit['body'];
    const answer = await client.json<ImportAnswer>('POST', '/admin/import', body, { 'content-type': 'application/x-ndjson' });
    const { documents, total, schemaActivated, lambdaActivated } = answer.data;
    const perCollection = Object.entries(documents).map(([name, count]) => `${name} ${count}`).join(', ');
    stdout.write(
      `imported ${total} documents${perCollection ? ` (${perCollection})` : ''}; ` +
        `schema ${schemaActivated ? 'activated' : 'none in the file'}, lambda script ${lambdaActivated ? 'activated' : 'none in the file'}\n`,
    );
    return EXIT.ok;
  },
};
