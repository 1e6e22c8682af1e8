import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addObjects } from '../../src/resolve/mutations/run.js';
import { buildSchemaModel } from '../../src/sdl/build.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Store } from '../../src/store/port.js';

/** The outcome an add hands to its payload: each object once, however often the input names it. */
const { model } = buildSchemaModel(`
type Author {
  handle: String! @id
  name: String
}
`);

let folder: string;
let store: Store;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-outcome-'));
  store = await openEmbeddedStore(folder);
});

afterAll(async () => {
  await store.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('an object upserted twice in one add is listed once; only new objects count', async () => {
  const outcome = await addObjects(model!, store, 'Author', [{ handle: 'ann', name: 'First' }, { handle: 'ann', name: 'Second' }, { handle: 'bob' }], true);
  const stored = await store.collection('Author').find({}, { sort: { handle: 1 } });
  expect(stored.map(({ _id, ...fields }) => fields)).toEqual([{ handle: 'ann', name: 'Second' }, { handle: 'bob' }]);
  expect(outcome).toEqual({ ids: new Map([['Author', stored.map((document) => document._id)]]), numUids: 2 });
});
