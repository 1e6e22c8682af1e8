import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gqlData } from '../helpers/gql';
import { makeTempDir, startTestServer, TEST_BACKEND_KIND, type TestServer } from '../helpers/server';
import { EVERYTHING, seed } from './fixture';

/** Issue 18: the embedded store's online backup is a data folder a service starts from, consistent while writes go on. */

async function backup(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/admin/backup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe('the embedded store', () => {
  let dataDir: string;
  let backupsDir: string;
  let server: TestServer;

  beforeAll(async () => {
    dataDir = await makeTempDir();
    backupsDir = await makeTempDir('autograph-backups-');
    server = await startTestServer({ dataDir });
    await seed(server.url);
  });

  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(backupsDir, { recursive: true, force: true });
  });

  test('a backup taken while tasks are added holds the tasks added before it, none after, and a service starts from it', async () => {
    const folder = join(backupsDir, 'during-writes');
    let writing = true;
    let added = 0;
    const writer = (async () => {
      while (writing) {
        await gqlData(server.url, 'mutation($t: String!) { addTask(input: [{ title: $t }]) { numUids } }', { t: `w${String(added).padStart(5, '0')}` });
        added += 1;
      }
    })();
    while (added < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    const { status, body } = await backup(server.url, { folder });
    const addedWhenAnswered = added;
    await new Promise((resolve) => setTimeout(resolve, 50));
    writing = false;
    await writer;

    expect(status).toBe(200);
    const inBackup = body.data.collections.Task as number;
    expect(body.data).toEqual({
      folder,
      // The schema collection holds the active text and the text tokeniser's marker (text-token-sync.ts);
      // the folder is a copy of the store, so the schema history (one upload) comes along.
      collections: { Person: 2, Task: inBackup, _autograph_lambda: 1, _autograph_schema: 2, _autograph_schema_history: 1 },
      documents: 2 + inBackup + 4,
      bytes: expect.any(Number),
    });
    expect(await readdir(folder)).toEqual(['snapshot.jsonl']);

    const restored = await startTestServer({ dataDir: folder });
    try {
      const titles = (await gqlData(restored.url, '{ queryTask(filter: { not: { title: { in: ["large", "nulls"] } } }, order: { asc: title }) { title } }')).queryTask.map((task: { title: string }) => task.title);
      // The three seeded tasks and a prefix w00000…w0000k of the ones added meanwhile: no gap, nothing half written.
      const written = titles.filter((title: string) => /^w\d{5}$/.test(title));
      expect(written).toEqual(Array.from({ length: written.length }, (_, i) => `w${String(i).padStart(5, '0')}`));
      expect(written.length + 3).toBe(inBackup);
      expect(written.length).toBeGreaterThanOrEqual(5);
      expect(written.length).toBeLessThanOrEqual(addedWhenAnswered);
      const people = await gqlData(restored.url, '{ queryPerson(order: { asc: handle }) { handle name greeting } }');
      expect(people).toEqual({ queryPerson: (await gqlData(server.url, EVERYTHING)).queryPerson.map(({ handle, name, greeting }: any) => ({ handle, name, greeting })) });
    } finally {
      await restored.close();
    }
  });

  test.each<[string, (dir: string) => Promise<unknown>, string]>([
    [
      'a folder that is not empty',
      async (dir) => {
        await mkdir(join(dir, 'used'));
        await writeFile(join(dir, 'used', 'notes.txt'), 'x');
        return { folder: join(dir, 'used') };
      },
      'the backup folder {dir}/used is not empty (it holds 1 entries); name a new or empty folder',
    ],
    ['a relative folder', async () => ({ folder: 'backups/today' }), `the backup folder must be an absolute path on the service's machine, got "backups/today"`],
    ['no folder', async () => ({}), 'the backup request needs "folder", a non-empty string, got undefined'],
  ])('%s is refused with 400 BAD_USER_INPUT', async (_case, request, message) => {
    const { status, body } = await backup(server.url, await request(backupsDir));
    expect({ status, body }).toEqual({ status: 400, body: { errors: [{ message: message.replace('{dir}', backupsDir), extensions: { code: 'BAD_USER_INPUT' } }] } });
  });
});

if (TEST_BACKEND_KIND === 'mongodb') {
  test('on MongoDB a backup is refused with what to use instead', async () => {
    const server = await startTestServer();
    try {
      const { status, body } = await backup(server.url, { folder: '/tmp/never-written' });
      expect(status).toBe(400);
      expect(body.errors).toEqual([
        {
          message:
            'backup writes an embedded data folder and works on the embedded store only; this service runs on mongodb: back MongoDB up with mongodump (or your Atlas backups) and keep an export (GET /admin/export) beside it',
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ]);
    } finally {
      await server.close();
    }
  });
}
