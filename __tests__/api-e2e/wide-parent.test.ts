import type { Filter, Store, StoredDocument } from '../../src/store/port';
import { ID_BATCH_SIZE } from '../../src/store/id-batches';
import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { overriding } from '../helpers/store-wrap';

/**
 * One parent holding more child ids than a store command may carry (issue 19): its children are read in
 * batches of ID_BATCH_SIZE ids, and the page over HTTP is that of the whole list.
 */

const SCHEMA = `
type Project {
  name: String! @id
  tasks: [Task]
}

type Task {
  id: ID!
  title: String!
  rank: Int @search
}
`;

let server: TestServer;
/** The length of the `_id` `$in` list of each find on Task. */
const taskIdLists: number[] = [];

function recordingTaskReads(store: Store): Store {
  return overriding(store, {
    collection(name) {
      const collection = store.collection(name);
      if (name !== 'Task') return collection;
      return {
        name,
        find: (filter: Filter, options, scope) => {
          for (const part of [filter, ...((filter.$and as Filter[] | undefined) ?? [])]) {
            const list = (part._id as { $in?: unknown[] } | undefined)?.$in;
            if (list) taskIdLists.push(list.length);
          }
          return collection.find(filter, options, scope);
        },
        count: (filter, scope) => collection.count(filter, scope),
        aggregate: (pipeline, scope) => collection.aggregate(pipeline, scope),
        findPerKey: (field, keys, filter, page, scope) => collection.findPerKey(field, keys, filter, page, scope),
        insertMany: (documents, scope) => collection.insertMany(documents, scope),
        updateMany: (filter, update, scope) => collection.updateMany(filter, update, scope),
        deleteMany: (filter, scope) => collection.deleteMany(filter, scope),
      };
    },
  });
}

const taskIds = Array.from({ length: ID_BATCH_SIZE + 1 }, (_, i) => `task${String(i).padStart(6, '0')}`);

beforeAll(async () => {
  // The wire test server scans without indexes: a 10,000-id read takes it seconds, not milliseconds.
  server = await startTestServer({ wrapStore: recordingTaskReads, requestTimeoutMs: 120_000 });
  await activateSchema(server.url, SCHEMA);
  // Written directly: a mutation input this large would take far longer than the read under test.
  await server.store.collection('Task').insertMany(taskIds.map((id, i): StoredDocument => ({ _id: id, title: `t${i}`, rank: i % 1000 })));
  await server.store.collection('Project').insertMany([
    { _id: 'wide', name: 'wide', tasks: taskIds },
    { _id: 'narrow', name: 'narrow', tasks: [taskIds[0]!, taskIds[ID_BATCH_SIZE]!] },
  ]);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

test('a parent holding more than ID_BATCH_SIZE child ids: read per batch of ids, paged over the whole list', async () => {
  taskIdLists.length = 0;
  const { status, body } = await gql(server.url, `{
    queryProject(order: { asc: name }) { name tasks(order: { desc: rank }, first: 3) { title rank } }
  }`);
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  // Highest ranks first (999), then by id: tasks 999, 1999 and 2999 of the wide list.
  expect(body.data?.queryProject).toEqual([
    { name: 'narrow', tasks: [{ title: 't0', rank: 0 }, { title: `t${ID_BATCH_SIZE}`, rank: 0 }] },
    { name: 'wide', tasks: [{ title: 't999', rank: 999 }, { title: 't1999', rank: 999 }, { title: 't2999', rank: 999 }] },
  ]);
  // The narrow project's ids, then the wide one's in a batch and a rest: no read carries more than a batch.
  expect(taskIdLists).toEqual([2, ID_BATCH_SIZE, 1]);
}, 120_000);
