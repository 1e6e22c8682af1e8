import { EXIT, type Command } from '../command.js';
import { parseArgs } from '../flag-args.js';
import { reportText } from '../report-text.js';
import { errorLines, readInputFile, upload } from '../upload.js';
import type { SchemaChangeReport } from '../../schema-changes/report.js';

/**
 * `schema diff <file>`: what uploading the file would change, for a CI check. Exit 1 when a change breaks
 * existing clients, when the upload would be refused for stored data, or when the schema is invalid.
 */
export const schemaDiff: Command = {
  words: ['schema', 'diff'],
  usage: 'schema diff <file>',
  summary: 'report what a schema would change; exit 1 on a breaking change',
  async run(context) {
    const args = parseArgs(context.args, { positional: ['file'] });
    const text = await readInputFile(context.cwd, args.positional[0]!);
    const answer = await upload<{ wouldActivate: boolean; report: SchemaChangeReport }>(context.client, '/admin/schema?dryRun=true', text);
    if (!answer.data) {
      context.stderr.write(errorLines(answer.errors ?? []));
      return EXIT.refused;
    }
    const { report, wouldActivate } = answer.data;
    context.stdout.write(reportText(report));
    const problems = [
      ...(report.breaksClients ? ['breaks existing clients'] : []),
      ...(wouldActivate ? [] : ['would be refused for the stored data unless pushed with --force']),
    ];
    if (problems.length > 0) {
      context.stderr.write(`the schema ${problems.join(' and ')}\n`);
      return EXIT.refused;
    }
    return EXIT.ok;
  },
};
