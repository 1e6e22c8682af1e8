import http from 'node:http';
import type { StoreSnapshot } from '../../src/store/port';
import { gqlData } from '../helpers/gql';
import { overriding } from '../helpers/store-wrap';
import { startTestServer } from '../helpers/server';
import { exportText, importText, seed } from './fixture';

/** A failure after the export has begun cuts the stream short: the file lacks its end line, and an import refuses it whole. */

/** The status and what arrived of the body, and whether it ended normally (rather than being cut). */
function download(url: string): Promise<{ status: number | undefined; received: string; complete: boolean }> {
  return new Promise((resolve) => {
    let received = '';
    http.get(url, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (received += chunk));
      res.on('end', () => resolve({ status: res.statusCode, received, complete: true }));
      res.on('error', () => resolve({ status: res.statusCode, received, complete: false }));
      res.on('aborted', () => resolve({ status: res.statusCode, received, complete: false }));
    });
  });
}

/** `snapshot`, whose documents of `collection` fail after the first batch. */
function failingAfterFirstBatch(snapshot: StoreSnapshot, collection: string): StoreSnapshot {
  return {
    consistency: snapshot.consistency,
    collections: snapshot.collections,
    async *documents(name, batchSize) {
      let batches = 0;
      for await (const batch of snapshot.documents(name, name === collection ? 1 : batchSize)) {
        if (name === collection && batches++ === 1) throw new Error('the disk went away');
        yield batch;
      }
    },
    close: () => snapshot.close(),
  };
}

test('the stream breaks off without its end line, and importing what arrived stores nothing', async () => {
  const source = await startTestServer({
    wrapStore: (store) => overriding(store, { openSnapshot: async () => failingAfterFirstBatch(await store.openSnapshot(), 'Task') }),
  });
  const target = await startTestServer();
  try {
    await seed(source.url);
    const { status: exportStatus, received, complete } = await download(`${source.url}/admin/export`);
    expect({ exportStatus, complete }).toEqual({ exportStatus: 200, complete: false });
    expect(received).toContain('{"collection":"Person"}');
    expect(received).not.toContain('"end":"autograph-export"');
    const { status, body } = await importText(target.url, received);
    expect(status).toBe(400);
    expect(body.errors[0].extensions).toEqual({ code: 'BAD_IMPORT_FILE' });
    expect(body.errors[0].message).toMatch(/^line \d+: the file ends here without its end line/);
    expect(await target.store.collection('Person').count({})).toBe(0);
    // The service goes on serving, and an export without the failing store works.
    expect(await gqlData(source.url, '{ queryPerson { handle } }')).toEqual({ queryPerson: [{ handle: 'ada' }, { handle: 'bob' }] });
    expect((await exportText(target.url)).status).toBe(200);
  } finally {
    await target.close();
    await source.close();
  }
});
