/**
 * Admin endpoints refuse query parameters they do not read (the issue "In the browser and on the command
 * line", #35): a misspelt `?dryrun=true` was ignored and the schema activated.
 */
import { knownAdminParameters } from '../../src/server/routes/admin-parameters';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASKS_SCHEMA } from './schemas';

describe('knownAdminParameters', () => {
  it.each<[string, string, string[]]>([
    ['POST', '/admin/schema', ['dryRun', 'force']],
    ['GET', '/admin/schema', []],
    ['POST', '/admin/schema/history/3/activate', ['dryRun', 'force']],
    ['GET', '/admin/schema/history', ['limit']],
    ['GET', '/admin/schema/history/3', []],
    ['POST', '/admin/lambda', []],
    ['DELETE', '/admin/collections/Task', []],
    ['GET', '/admin/export', []],
    ['POST', '/admin/import', []],
  ])('%s %s reads %j', (method, path, expected) => {
    expect(knownAdminParameters(method, path)).toEqual(expected);
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function send(method: string, target: string, body?: string) {
    const response = await fetch(`${server.url}${target}`, { method, body });
    return { status: response.status, body: (await response.json()) as { errors?: Array<{ message: string; extensions: { code: string } }> } };
  }

  it.each(['dryrun=true', 'dry_run=true', 'DryRun=true', 'dryRun=true&forse=true'])('refuses POST /admin/schema?%s with 400 and activates nothing', async (query) => {
    const answer = await send('POST', `/admin/schema?${query}`, TASKS_SCHEMA);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
    expect(answer.body.errors?.[0]?.message).toMatch(/^unknown query parameter "[A-Za-z_]+": POST \/admin\/schema takes only dryRun, force$/);
    expect(server.app.active).toBeUndefined();
  });

  it('names every unknown parameter once', async () => {
    const answer = await send('POST', '/admin/schema?dryrun=1&dryrun=2&verbose', TASKS_SCHEMA);
    expect(answer.body.errors?.[0]?.message).toBe('unknown query parameters "dryrun", "verbose": POST /admin/schema takes only dryRun, force');
  });

  it('refuses parameters on endpoints that read none, and a misspelt limit', async () => {
    expect((await send('GET', '/admin/schema/history?limt=2')).body.errors?.[0]?.message).toBe(
      'unknown query parameter "limt": GET /admin/schema/history takes only limit',
    );
    const drop = await send('DELETE', '/admin/collections/Task?force=true');
    expect(drop.status).toBe(400);
    expect(drop.body.errors?.[0]?.message).toBe('unknown query parameter "force": DELETE /admin/collections/Task takes no query parameters');
  });

  it('still takes the parameters it knows', async () => {
    const dryRun = await send('POST', '/admin/schema?dryRun=true', TASKS_SCHEMA);
    expect(dryRun.status).toBe(200);
    expect(server.app.active).toBeUndefined();
    expect((await send('POST', '/admin/schema?force=false', TASKS_SCHEMA)).status).toBe(200);
    expect(server.app.active).toBeDefined();
    expect((await send('GET', '/admin/schema/history?limit=1')).status).toBe(200);
  });
});
