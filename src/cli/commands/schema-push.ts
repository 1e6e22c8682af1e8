import { EXIT, type Command, type CommandContext, type ExitCode } from '../command.js';
import { parseArgs } from '../flag-args.js';
import { reportText } from '../report-text.js';
import { errorLines, readInputFile, upload } from '../upload.js';
import type { SchemaChangeReport } from '../../schema-changes/report.js';

interface Activated {
  message: string;
  types: string[];
  revision?: number;
  report?: SchemaChangeReport;
}

interface DryRun {
  wouldActivate: boolean;
  report: SchemaChangeReport;
}

/** Query parameters of an upload: `?dryRun=true&force=true` as asked. */
export function uploadQuery(options: { dryRun: boolean; force: boolean }): string {
  const params = new URLSearchParams();
  if (options.dryRun) params.set('dryRun', 'true');
  if (options.force) params.set('force', 'true');
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

/**
 * Sends a schema upload (or rollback) to `path` and reports it: the change report, then the outcome.
 * Exit 0 when activated (or, for a dry run, when it would be), 1 when refused.
 */
export async function pushSchema(
  context: CommandContext,
  path: string,
  body: string | undefined,
  options: { dryRun: boolean; force: boolean },
): Promise<ExitCode> {
  const { stdout, stderr } = context;
  if (options.dryRun) {
    const answer = await upload<DryRun>(context.client, `${path}${uploadQuery(options)}`, body);
    if (!answer.data) {
      stderr.write(errorLines(answer.errors ?? []));
      return EXIT.refused;
    }
    stdout.write(reportText(answer.data.report));
    stdout.write(`dry run: nothing was activated; the upload would be ${answer.data.wouldActivate ? 'activated' : 'refused without --force'}\n`);
    return answer.data.wouldActivate ? EXIT.ok : EXIT.refused;
  }
  const answer = await upload<Activated>(context.client, `${path}${uploadQuery(options)}`, body);
  const report = answer.data?.report ?? (answer.extensions?.report as SchemaChangeReport | undefined);
  if (report) stdout.write(reportText(report));
  if (!answer.data) {
    stderr.write(errorLines(answer.errors ?? []));
    return EXIT.refused;
  }
  stdout.write(`${answer.data.message}${answer.data.revision === undefined ? '' : ` as revision ${answer.data.revision}`}\n`);
  return EXIT.ok;
}

export const schemaPush: Command = {
  words: ['schema', 'push'],
  usage: 'schema push <file> [--force] [--dry-run]',
  summary: 'activate a schema (--dry-run: only report what it would change)',
  async run(context) {
    const args = parseArgs(context.args, { positional: ['file'], switches: ['force', 'dry-run'] });
    const text = await readInputFile(context.cwd, args.positional[0]!);
    return pushSchema(context, '/admin/schema', text, { dryRun: args.flags.has('dry-run'), force: args.flags.has('force') });
  },
};
