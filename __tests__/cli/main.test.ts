import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { EXIT, UsageError, type Command } from '../../src/cli/command';
import { runCli } from '../../src/cli/main';

function io(env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const read = (stream: PassThrough) => () => String(stream.read() ?? '');
  return { io: { env, cwd: '/', stdout, stderr }, out: read(stdout), err: read(stderr) };
}

const seen: { url: string; args: readonly string[] }[] = [];
const probe: Command = {
  words: ['probe', 'run'],
  usage: 'probe run <name>',
  summary: 'records how it was called',
  async run(context) {
    if (context.args.length === 0) throw new UsageError('a name is needed');
    seen.push({ url: context.client.baseUrl, args: context.args });
    if (context.args[0] === 'call') {
      await context.client.json('GET', '/admin/nothing');
    }
    return EXIT.ok;
  },
};

describe('autograph CLI dispatcher', () => {
  beforeEach(() => {
    seen.length = 0;
  });

  it('selects a command by its words and passes the rest, with --url taken from anywhere', async () => {
    const { io: streams } = io({ AUTOGRAPH_URL: 'http://127.0.0.1:9' });
    await expect(runCli(['probe', '--url', 'http://127.0.0.1:7', 'run', 'a', 'b'], streams, [probe])).resolves.toBe(EXIT.ok);
    expect(seen).toEqual([{ url: 'http://127.0.0.1:7', args: ['a', 'b'] }]);
    await runCli(['probe', 'run', 'x'], streams, [probe]);
    expect(seen[1]).toEqual({ url: 'http://127.0.0.1:9', args: ['x'] });
  });

  it('answers 2 with the usage for a bad command line and an unknown command', async () => {
    const bad = io();
    await expect(runCli(['probe', 'run'], bad.io, [probe])).resolves.toBe(EXIT.usage);
    expect(bad.err()).toBe('autograph probe run: a name is needed\nusage: autograph probe run <name>\n');
    const unknown = io();
    await expect(runCli(['nope'], unknown.io, [probe])).resolves.toBe(EXIT.usage);
    expect(unknown.err()).toContain('unknown command "nope"');
    const none = io();
    await expect(runCli([], none.io, [probe])).resolves.toBe(EXIT.usage);
    expect(none.out()).toContain('probe run <name>');
  });

  it('answers 3 when the service cannot be reached', async () => {
    const streams = io();
    // port 9 (discard) has no listener on the loopback interface here
    await expect(runCli(['--url', 'http://127.0.0.1:9', 'probe', 'run', 'call'], streams.io, [probe])).resolves.toBe(EXIT.unavailable);
    expect(streams.err()).toMatch(/^autograph: cannot reach the service at http:\/\/127\.0\.0\.1:9/);
  });
});

describe('the autograph command as a process', () => {
  const ROOT = join(__dirname, '../..');

  it('ends quietly with 0 when its reader closes the pipe early (`autograph ... | head`)', async () => {
    // `true` reads nothing and exits at once, so the help text is written to a closed pipe (EPIPE).
    const command = `node -r ${ROOT}/__tests__/helpers/register-ts.cjs ${ROOT}/src/cli/main.ts --help | true; echo "exit \${PIPESTATUS[0]}" >&2`;
    const { stderr } = await new Promise<{ stderr: string }>((resolve, reject) => {
      execFile('bash', ['-c', command], { cwd: ROOT }, (error, _stdout, stderr) => (error ? reject(error) : resolve({ stderr })));
    });
    expect(stderr).toBe('exit 0\n');
  });
});
