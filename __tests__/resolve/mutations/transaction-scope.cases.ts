import { addObjects, deleteObjects, updateObjects } from '../../../src/resolve/mutations/run.js';
import type { Collection, OperationScope, Store, Transaction } from '../../../src/store/port.js';
import { withCollections } from '../../../src/store/with-collections.js';
import { authOf, modelOf, useMutationStore } from './harness';

/**
 * Every store call of a mutation belongs to its transaction: on MongoDB a read outside it would see other
 * writers' commits and miss the mutation's own writes, and a write outside it would survive a rollback.
 */
const model = modelOf(`
type User {
  id: ID!
  name: String! @id
  tasks: [Task] @hasInverse(field: owner)
  badge: Badge
  friends: [User] @hasInverse(field: friends)
  partner: User @hasInverse(field: partner)
}

type Task {
  id: ID!
  title: String! @id
  owner: User
}

type Badge {
  id: ID!
  code: String! @id
  holder: User @hasInverse(field: badge)
}

interface Member {
  refID: String! @id(interface: true)
}

type Staff implements Member { desk: Int }
type Guest implements Member { host: Staff }
`);

/** `store` with each collection call noted as `method collection`, followed by ` OUTSIDE` when its scope is not the running transaction. */
function scopeRecording(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  let running: Transaction | undefined;
  const wrap = (name: string): Collection => {
    const inner = store.collection(name);
    const note = (method: string, scope: OperationScope | undefined) => calls.push(`${method} ${name}${running !== undefined && scope?.tx === running ? '' : ' OUTSIDE'}`);
    return {
      name: inner.name,
      find: (filter, options, scope) => (note('find', scope), inner.find(filter, options, scope)),
      findPerKey: (field, keys, filter, page, scope) => (note('findPerKey', scope), inner.findPerKey(field, keys, filter, page, scope)),
      count: (filter, scope) => (note('count', scope), inner.count(filter, scope)),
      aggregate: (pipeline, scope) => (note('aggregate', scope), inner.aggregate(pipeline, scope)),
      insertMany: (documents, scope) => (note('insertMany', scope), inner.insertMany(documents, scope)),
      updateMany: (filter, update, scope) => (note('updateMany', scope), inner.updateMany(filter, update, scope)),
      deleteMany: (filter, scope) => (note('deleteMany', scope), inner.deleteMany(filter, scope)),
    };
  };
  const wrapped = withCollections(store, wrap);
  return {
    store: {
      ...wrapped,
      get kind() {
        return store.kind;
      },
      transaction: (work) => store.transaction(async (tx) => {
        running = tx;
        try {
          return await work(tx);
        } finally {
          running = undefined;
        }
      }),
    },
    calls,
  };
}

describe('every store call of a mutation is made in its transaction', () => {
  const db = useMutationStore(model);

  beforeEach(async () => {
    await addObjects(model, db.store, 'User', [{ name: 'alice', badge: { code: 'b1' }, partner: { name: 'bob' } }], false);
    await addObjects(model, db.store, 'Task', [{ title: 't1', owner: { name: 'alice' } }], false);
    await addObjects(model, db.store, 'Staff', [{ refID: 's1' }], false);
  });

  const outside = (calls: string[]) => calls.filter((call) => call.endsWith(' OUTSIDE'));

  test('an add: @id values read ahead, Refs, one-to-one and symmetric links, interface ids, upserts, @auth verdicts', async () => {
    const { store, calls } = scopeRecording(db.store);
    await addObjects(model, store, 'User', [
      { name: 'carol', tasks: [{ title: 't1' }, { title: 't2' }], badge: { code: 'b1' }, friends: [{ name: 'alice' }], partner: { name: 'bob' } },
      { name: 'alice', partner: { name: 'dan' } },
    ], true, authOf({ query: { Task: { title: { $in: ['t1', 't2'] } } }, update: { User: { name: { $ne: 'nobody' } }, Badge: { code: 'b1' } } }));
    await addObjects(model, store, 'Guest', [{ refID: 'g1', host: { refID: 's1' } }], false);
    expect(calls).toEqual(expect.arrayContaining(['find User', 'find Task', 'find Badge', 'find Staff', 'find Guest', 'insertMany User', 'updateMany User', 'updateMany Task', 'updateMany Badge']));
    expect(outside(calls)).toEqual([]);
  });

  test('an update and a delete: matches, links and unlinks, detaching the deleted', async () => {
    const { store, calls } = scopeRecording(db.store);
    await updateObjects(model, store, 'User', { filter: { name: { eq: 'alice' } }, set: { tasks: [{ title: 't3' }], friends: [{ name: 'bob' }] }, remove: { tasks: [{ title: 't1' }], partner: { name: 'bob' } } });
    await deleteObjects(model, store, 'User', { name: { eq: 'bob' } }, async () => {}, authOf({ delete: { User: { name: 'bob' } } }));
    expect(calls).toEqual(expect.arrayContaining(['find User', 'updateMany User', 'updateMany Task', 'deleteMany User', 'updateMany Badge']));
    expect(outside(calls)).toEqual([]);
  });
});
