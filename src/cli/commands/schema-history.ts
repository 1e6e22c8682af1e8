import { EXIT, UsageError, type Command } from '../command.js';
import { parseArgs } from '../flag-args.js';
import type { SchemaRevision } from '../../schema-changes/history.js';

interface History {
  data: { active: number | null; revisions: SchemaRevision[] };
}

/** `schema history [--limit n]`: the activated revisions, newest first, the active one marked `*`. */
export const schemaHistory: Command = {
  words: ['schema', 'history'],
  usage: 'schema history [--limit <n>]',
  summary: 'list the activated schema revisions, newest first',
  async run(context) {
    const args = parseArgs(context.args, { positional: [], valued: ['limit'] });
    const limit = args.values.get('limit');
    if (limit !== undefined && !/^\d+$/.test(limit)) throw new UsageError(`--limit must be a whole number, not ${limit}`);
    const { data } = await context.client.json<History>('GET', `/admin/schema/history${limit === undefined ? '' : `?limit=${limit}`}`);
    if (data.revisions.length === 0) {
      context.stdout.write('no schema revisions yet\n');
      return EXIT.ok;
    }
    context.stdout.write('  revision  activated at              sha-256       notes\n');
    for (const entry of data.revisions) {
      context.stdout.write(`${historyLine(entry, entry.revision === data.active)}\n`);
    }
    return EXIT.ok;
  },
};

function historyLine(entry: SchemaRevision, active: boolean): string {
  const notes = [
    ...(entry.restoredFrom === undefined ? [] : [`rollback to ${entry.restoredFrom}`]),
    ...(entry.forced ? ['forced'] : []),
    ...(entry.lambda ? [`lambda ${entry.lambda.hash.slice(0, 12)}`] : []),
  ];
  return `${active ? '*' : ' '} ${String(entry.revision).padStart(8)}  ${entry.activatedAt.padEnd(24)}  ${entry.hash.slice(0, 12)}  ${notes.join(', ')}`.trimEnd();
}
