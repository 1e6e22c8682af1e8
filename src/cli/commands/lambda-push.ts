import { EXIT, type Command } from '../command.js';
import { parseArgs } from '../flag-args.js';
import { errorLines, readInputFile, upload } from '../upload.js';

/** `lambda push <file>`: loads a lambda script; exit 1 when the service refuses it. */
export const lambdaPush: Command = {
  words: ['lambda', 'push'],
  usage: 'lambda push <file>',
  summary: 'load a lambda script',
  async run(context) {
    const args = parseArgs(context.args, { positional: ['file'] });
    const text = await readInputFile(context.cwd, args.positional[0]!);
    const answer = await upload<{ message: string; resolvers: string[]; webhooks?: string[] }>(context.client, '/admin/lambda', text);
    if (!answer.data) {
      context.stderr.write(errorLines(answer.errors ?? []));
      return EXIT.refused;
    }
    const resolvers = answer.data.resolvers.length === 0 ? 'no resolvers' : `resolvers: ${answer.data.resolvers.join(', ')}`;
    const webhooks = answer.data.webhooks?.length ? `; webhooks: ${answer.data.webhooks.join(', ')}` : '';
    context.stdout.write(`${answer.data.message} (${resolvers}${webhooks})\n`);
    return EXIT.ok;
  },
};
