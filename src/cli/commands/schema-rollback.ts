import { UsageError, type Command } from '../command.js';
import { parseArgs } from '../flag-args.js';
import { pushSchema } from './schema-push.js';

/** `schema rollback <revision>`: activates an earlier revision again, checked like an upload. */
export const schemaRollback: Command = {
  words: ['schema', 'rollback'],
  usage: 'schema rollback <revision> [--force] [--dry-run]',
  summary: 'activate an earlier schema revision again',
  async run(context) {
    const args = parseArgs(context.args, { positional: ['revision'], switches: ['force', 'dry-run'] });
    const revision = args.positional[0]!;
    if (!/^[1-9]\d*$/.test(revision)) throw new UsageError(`the revision must be a positive whole number (see schema history), not ${revision}`);
    return pushSchema(context, `/admin/schema/history/${revision}/activate`, undefined, { dryRun: args.flags.has('dry-run'), force: args.flags.has('force') });
  },
};
