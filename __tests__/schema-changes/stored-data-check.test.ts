import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findStoredDataProblems } from '../../src/schema-changes/stored-data-check.js';
import type { StoredDataRisk } from '../../src/schema-changes/stored-data-risks.js';
import { countRoundTrips } from '../../src/store/counting.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import type { Store } from '../../src/store/port.js';

/**
 * findStoredDataProblems: which risks the store confirms, and how many existence queries it takes. A
 * collection that holds no object answers all its risks with one query; a risk without a filter (objects
 * kept) is answered by that same query.
 */

function risk(collection: string, field: string | undefined, filter: Record<string, unknown>): StoredDataRisk {
  return {
    kind: field === undefined ? 'OBJECTS_KEPT' : 'VALUES_MISSING',
    type: collection,
    ...(field === undefined ? {} : { field }),
    collection,
    filter,
    blocking: field !== undefined,
    message: field === undefined ? `${collection} objects kept` : `${collection}.${field} missing`,
  };
}

let store: Store;
let folder: string;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-stored-data-check-'));
  store = await openEmbeddedStore(folder);
  await store.collection('Task').insertMany([
    { _id: 't1', title: 'a' },
    { _id: 't2', title: 'b', owner: 'x' },
  ]);
});

afterAll(async () => {
  await store.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

const cases: Array<{ name: string; risks: StoredDataRisk[]; problems: Array<[string, string]>; finds: number }> = [
  { name: 'no risks', risks: [], problems: [], finds: 0 },
  {
    name: 'every field of an empty collection: one query',
    risks: [risk('Memo', 'body', { body: null }), risk('Memo', 'owner', { owner: null }), risk('Memo', 'kind', { kind: { $nin: ['A'] } })],
    problems: [],
    finds: 1,
  },
  {
    name: 'a collection with objects: one query to know it, one per risk',
    risks: [risk('Task', 'owner', { owner: null }), risk('Task', 'title', { title: null })],
    problems: [['Task.owner missing (one of them: "t1")', 'VALUES_MISSING']],
    finds: 3,
  },
  {
    name: 'objects kept: answered by the query that finds any object',
    risks: [risk('Task', undefined, {}), risk('Memo', undefined, {})],
    problems: [['Task objects kept (one of them: "t1")', 'OBJECTS_KEPT']],
    finds: 2,
  },
  {
    name: 'collections asked once each, in any order of risks',
    risks: [risk('Memo', 'body', { body: null }), risk('Task', 'owner', { owner: null }), risk('Memo', 'owner', { owner: null }), risk('Task', 'title', { title: null })],
    problems: [['Task.owner missing (one of them: "t1")', 'VALUES_MISSING']],
    finds: 4,
  },
];

test.each(cases)('$name', async ({ risks, problems, finds }) => {
  const { store: counted, counter } = countRoundTrips(store);
  const found = await findStoredDataProblems(counted, risks);
  expect(found.map((problem) => [problem.message, problem.kind])).toEqual(problems);
  expect(counter.byOperation).toEqual(finds === 0 ? {} : { find: finds });
});
