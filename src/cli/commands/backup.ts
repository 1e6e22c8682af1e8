import { isAbsolute } from 'node:path';
import { EXIT, UsageError, type Command } from '../command.js';

interface BackupAnswer {
  data: { folder: string; documents: number; bytes: number; collections: Record<string, number> };
}

/** `autograph backup <folder>`: an online backup of the embedded store into a new folder on the service's machine. */
export const backupCommand: Command = {
  words: ['backup'],
  usage: 'backup <absolute folder>',
  summary: "writes a data folder on the service's machine that --data starts from, while it serves (embedded store)",
  async run({ client, args, stdout }) {
    if (args.length !== 1) throw new UsageError(`expected one folder, got ${args.length} arguments`);
    const folder = args[0]!;
    if (!isAbsolute(folder)) throw new UsageError(`the folder must be an absolute path on the service's machine, got ${JSON.stringify(folder)}`);
    const answer = await client.json<BackupAnswer>('POST', '/admin/backup', JSON.stringify({ folder }), { 'content-type': 'application/json' });
    const { documents, bytes } = answer.data;
    stdout.write(`backed up ${documents} documents (${bytes} bytes) to ${answer.data.folder}; start a service on it with --data ${answer.data.folder}\n`);
    return EXIT.ok;
  },
};
