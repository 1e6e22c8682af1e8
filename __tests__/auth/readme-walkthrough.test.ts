/**
 * The README's Authorization walkthrough, run verbatim with bash against the real service: its key pair
 * commands (openssl), the schema and the Authorization line it writes, the token its Node one-liner signs,
 * and the curl calls, whose answers must be the JSON the README shows. The quick start runs first, as a
 * reader would have done; only the address differs (`URL` points at a test server on a free port).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server.js';

interface Block {
  lang: string;
  body: string;
}

function sectionBlocks(heading: string): Block[] {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README: no "## ${heading}" section`);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((match) => ({ lang: match[1]!, body: match[2]! }));
}

const MARKER = '@@README-BLOCK-END@@';

/**
 * Runs the shell blocks in one bash session (variables carry over) and returns each block's output. It
 * runs asynchronously: the service under test answers from this same process.
 */
async function runShellBlocks(blocks: Block[], cwd: string, url: string): Promise<string[]> {
  const script = ['set -euo pipefail', ...blocks.map((block) => `${block.body}\nprintf '\\n${MARKER}\\n'`)].join('\n');
  const { stdout } = await promisify(execFile)('bash', ['-c', script], {
    cwd,
    env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: cwd, URL: url },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return stdout.split(`\n${MARKER}\n`).slice(0, blocks.length).map((text) => text.trim());
}

describe('README Authorization walkthrough', () => {
  let server: TestServer;
  let cwd: string;

  beforeAll(async () => {
    server = await startTestServer();
    cwd = await makeTempDir('readme-auth-');
    // The quick start's commands may name the default address; they are pointed at the test server.
    const quickStart = sectionBlocks('Quick start').filter((block) => block.lang === 'sh')
      .map((block) => ({ ...block, body: block.body.replaceAll('http://127.0.0.1:8080', '$URL') }));
    await runShellBlocks(quickStart, cwd, server.url);
  });

  afterAll(async () => {
    await server?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  test('every command runs as written and answers what the README shows', async () => {
    const blocks = sectionBlocks('Authorization');
    const shell = blocks.filter((block) => block.lang === 'sh');
    expect(shell.every((block) => !block.body.includes('8080') || block.body.startsWith('URL=${URL:-http://127.0.0.1:8080}\n'))).toBe(true);
    const outputs = await runShellBlocks(shell, cwd, server.url);

    const checked: string[] = [];
    blocks.forEach((block, index) => {
      if (block.lang !== 'sh') return;
      const shown = blocks[index + 1];
      const output = outputs[shell.indexOf(block)];
      if (shown?.lang === 'json') {
        expect({ command: block.body, answer: JSON.parse(output!) }).toEqual({ command: block.body, answer: JSON.parse(shown.body) });
        checked.push('json');
      } else if (shown?.lang === 'text') {
        // The shown Authorization line holds the README author's key; the reader's differs only there.
        const anyKey = (line: string) => line.replace(/MCowBQYDK2VwAyEA[A-Za-z0-9+/]{43}=/, '<Ed25519 public key>');
        expect(anyKey(output!)).toBe(anyKey(shown.body));
        expect(anyKey(output!)).not.toBe(output);
        checked.push('text');
      }
    });
    expect(checked).toEqual(['text', 'json', 'json', 'json', 'json']);
    const jwks = JSON.parse(readFileSync(join(cwd, 'jwks.json'), 'utf8'));
    expect(jwks).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: 'key-1', alg: 'EdDSA', use: 'sig' }] });
  });
  test.each([
    ['RS256', 'openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out private.pem', 'sign("sha256", ...)'],
    ['ES256', 'openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out private.pem', '{ key, dsaEncoding: "ieee-p1363" }'],
  ])('the %s variant it describes works the same', async (algo, keyCommand, signing) => {
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    expect(readme).toContain(`\`${keyCommand}\``);
    expect(readme).toContain(`\`${signing}\``);
    const signer = algo === 'RS256' ? 'sign("sha256", Buffer.from(input), key)' : 'sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" })';
    const blocks = sectionBlocks('Authorization');
    const shell = blocks.filter((block) => block.lang === 'sh').map((block) => ({
      ...block,
      body: block.body.replace('openssl genpkey -algorithm ed25519 -out private.pem', keyCommand).replaceAll('"EdDSA"', `"${algo}"`)
        .replace('sign(null, Buffer.from(input), key)', signer),
    }));
    const variantDir = await makeTempDir(`readme-auth-${algo}-`);
    try {
      const outputs = await runShellBlocks(shell, variantDir, server.url);
      const aliceQuery = blocks.findIndex((block) => block.lang === 'sh' && block.body.includes('X-Auth-Token: Bearer $TOKEN'));
      expect(JSON.parse(outputs[shell.findIndex((block) => block.body.includes('X-Auth-Token: Bearer $TOKEN'))]!)).toEqual(JSON.parse(blocks[aliceQuery + 1]!.body));
      expect(outputs.some((output) => output.includes(`"Algo":"${algo}"`))).toBe(true);
    } finally {
      await rm(variantDir, { recursive: true, force: true });
    }
  });
});
