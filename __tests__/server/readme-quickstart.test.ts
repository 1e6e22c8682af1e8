import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The README's "Quick start", run as written: the schema its heredoc writes, the JSON bodies its curl
 * commands send, and the JSON answers it shows, in order. Only the address differs (a free port).
 */
function quickStart(): { schema: string; requests: string[]; answers: unknown[] } {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const start = readme.indexOf('## Quick start');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const schema = /cat > schema\.graphql <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(section)?.[1];
  const requests = [...section.matchAll(/--data-binary @- <<'EOF'\n([\s\S]*?)\nEOF\n/g)].map((match) => match[1]!);
  const answers = [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1]!) as unknown);
  if (schema === undefined) throw new Error('README quick start: no schema heredoc found');
  return { schema: `${schema}\n`, requests, answers };
}

describe('README quick start', () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.close();
  });

  it('gives the answers it shows', async () => {
    const { schema, requests, answers } = quickStart();
    expect(requests).toHaveLength(2);
    expect(answers).toHaveLength(3);
    server = await startTestServer();

    const upload = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: schema });
    expect(upload.status).toBe(200);
    expect(await upload.json()).toEqual(answers[0]);

    for (const [index, body] of requests.entries()) {
      const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(answers[index + 1]);
    }
  });
});
