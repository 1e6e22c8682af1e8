import { bufferInserts } from '../../../src/resolve/mutations/buffered-inserts.js';
import { writeInterfaceIdClaims } from '../../../src/resolve/mutations/interface-id-claims.js';
import { addObjects } from '../../../src/resolve/mutations/run.js';
import { SYSTEM_COLLECTIONS, type Collection, type OperationScope, type Store, type Transaction } from '../../../src/store/port.js';
import { withCollections } from '../../../src/store/with-collections.js';
import { modelOf, recording, useMutationStore } from './harness';

/** The store calls a mutation makes: inserts in one batch per collection, `@id` values read ahead, claims. */
const model = modelOf(`
type User {
  name: String! @id
  age: Int
}

type Task {
  title: String! @id
  owner: User
}

interface Member {
  refID: String! @id(interface: true)
}

type Staff implements Member { desk: Int }
type Guest implements Member { host: Staff }
`);

describe('the store calls of a mutation', () => {
  const db = useMutationStore(model);
  const CLAIMS = SYSTEM_COLLECTIONS.interfaceIdClaims;

  /** Runs `work` in a transaction with inserts buffered over a recording store, and returns the calls. */
  async function bufferedCalls(work: (buffered: ReturnType<typeof bufferInserts>, tx: Transaction, outside: Store) => Promise<void>): Promise<string[]> {
    const { store, calls } = recording(db.store);
    await db.store.transaction(async (tx) => work(bufferInserts(store, tx), tx, store));
    return calls;
  }

  describe('bufferInserts: inserts held back and written in one batch per collection', () => {
    test('held inserts are written at flush, one insertMany per collection in first-insert order, then nothing more', async () => {
      const calls = await bufferedCalls(async (buffered, tx) => {
        await buffered.collection('User').insertMany([{ _id: 'u1', name: 'a' }], { tx });
        await buffered.collection('Task').insertMany([{ _id: 't1', title: 't' }], { tx });
        await buffered.collection('User').insertMany([{ _id: 'u2', name: 'b' }, { _id: 'u3', name: 'c' }], { tx });
        await buffered.flush();
        await buffered.flush();
      });
      expect(calls).toEqual([
        'insertMany User [{"_id":"u1","name":"a"},{"_id":"u2","name":"b"},{"_id":"u3","name":"c"}]',
        'insertMany Task [{"_id":"t1","title":"t"}]',
      ]);
      expect(await db.contents('User')).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    });

    test.each([
      ['find', (c: ReturnType<Store['collection']>, tx: Transaction) => c.find({}, {}, { tx }), 'find User {}', [{ _id: 'u1', name: 'a' }]],
      ['count', (c: ReturnType<Store['collection']>, tx: Transaction) => c.count({}, { tx }), 'count User {}', 1],
      ['aggregate', (c: ReturnType<Store['collection']>, tx: Transaction) => c.aggregate([{ $count: 'n' }], { tx }), 'aggregate User [{"$count":"n"}]', [{ n: 1 }]],
      ['findPerKey', (c: ReturnType<Store['collection']>, tx: Transaction) => c.findPerKey('name', ['a'], {}, { limit: 5 }, { tx }), 'findPerKey User ["a"]', new Map([['a', [{ _id: 'u1', name: 'a' }]]])],
      ['updateMany', (c: ReturnType<Store['collection']>, tx: Transaction) => c.updateMany({ _id: 'u1' }, { $set: { age: 3 } }, { tx }), 'updateMany User [{"_id":"u1"},{"$set":{"age":3}}]', { matched: 1, modified: 1 }],
      ['deleteMany', (c: ReturnType<Store['collection']>, tx: Transaction) => c.deleteMany({ _id: 'u1' }, { tx }), 'deleteMany User {"_id":"u1"}', 1],
    ] as const)('%s writes the held inserts first and answers as the store does', async (_method, call, expectedCall, expected) => {
      let answer: unknown;
      const calls = await bufferedCalls(async (buffered, tx) => {
        const users = buffered.collection('User');
        await users.insertMany([{ _id: 'u1', name: 'a' }], { tx });
        answer = await call(users, tx);
      });
      expect(calls).toEqual(['insertMany User [{"_id":"u1","name":"a"}]', expectedCall]);
      expect(answer).toEqual(expected);
    });

    test('an insert outside the transaction writes the held ones first, then itself at once', async () => {
      // A store that only records inserts: the embedded store refuses a second transaction's handle here.
      const calls: string[] = [];
      const inserting = withCollections(db.store, (name) => ({
        name,
        insertMany: async (documents: unknown[], scope?: OperationScope) => void calls.push(`insertMany ${name} ${JSON.stringify(documents)} ${scope?.tx === held ? 'held' : 'other'}`),
      }) as unknown as Collection);
      const held = { id: 1 } as unknown as Transaction;
      const buffered = bufferInserts(inserting, held);
      await buffered.collection('Task').insertMany([{ _id: 't1', title: 't' }], { tx: held });
      await buffered.collection('User').insertMany([{ _id: 'u9', name: 'z' }], { tx: { id: 2 } as unknown as Transaction });
      await buffered.collection('User').insertMany([{ _id: 'u8', name: 'y' }]);
      await buffered.collection('User').insertMany([{ _id: 'u7', name: 'x' }], { tx: held });
      expect(calls).toEqual([
        'insertMany Task [{"_id":"t1","title":"t"}] held',
        'insertMany User [{"_id":"u9","name":"z"}] other',
        'insertMany User [{"_id":"u8","name":"y"}] other',
      ]);
      await buffered.flush();
      expect(calls.slice(3)).toEqual(['insertMany User [{"_id":"u7","name":"x"}] held']);
    });

    test('one handle per collection, under the collection\'s name; the rest of the store passes through', async () => {
      await bufferedCalls(async (buffered, _tx, outside) => {
        expect(buffered.collection('User')).toBe(buffered.collection('User'));
        expect(buffered.collection('User').name).toBe('User');
        expect(buffered.kind).toBe(outside.kind);
      });
    });
  });

  describe('writeInterfaceIdClaims', () => {
    test('no values: no call', async () => {
      expect(await bufferedCalls(async (_buffered, tx, store) => writeInterfaceIdClaims(store, tx, new Set()))).toEqual([]);
    });

    test('a claim document per value, written and deleted again in the transaction', async () => {
      const calls = await bufferedCalls(async (_buffered, tx, store) => writeInterfaceIdClaims(store, tx, new Set(['a', 'b'])));
      expect(calls).toEqual([
        `insertMany ${CLAIMS} [{"_id":"a"},{"_id":"b"}]`,
        `deleteMany ${CLAIMS} {"_id":{"$in":["a","b"]}}`,
      ]);
      expect(await db.store.collection(CLAIMS).find({})).toEqual([]);
    });
  });

  describe('an add\'s store calls', () => {
    test('the @id values of every input and nested Ref are read in one query per type and field; inserts in one batch per type', async () => {
      await addObjects(model, db.store, 'User', [{ name: 'ann' }], false);
      const { store, calls } = recording(db.store);
      const outcome = await addObjects(model, store, 'Task', [
        { title: 't1', owner: { name: 'ann' } },
        { title: 't2', owner: { name: 'bob', age: 3 } },
        { title: 't3', owner: { name: 'bob' } },
      ], false);
      expect(outcome.numUids).toBe(4);
      const [ann] = await db.store.collection('User').find({ name: 'ann' });
      const [bob] = await db.store.collection('User').find({ name: 'bob' });
      const ids = Object.fromEntries((await db.documents('Task')).map((task) => [task.title, task._id]));
      expect(calls).toEqual([
        'find Task {"title":{"$in":["t1","t2","t3"]}}',
        'find User {"name":{"$in":["ann","bob"]}}',
        `insertMany Task [{"_id":"${ids.t1}","title":"t1","owner":"${ann!._id}"},{"_id":"${ids.t2}","title":"t2","owner":"${bob!._id}"},{"_id":"${ids.t3}","title":"t3","owner":"${bob!._id}"}]`,
        `insertMany User [{"_id":"${bob!._id}","name":"bob","age":3}]`,
      ]);
    });

    test('@id(interface: true) values are read ahead per implementing type, and claimed', async () => {
      await addObjects(model, db.store, 'Staff', [{ refID: 's1' }], false);
      const { store, calls } = recording(db.store);
      await addObjects(model, store, 'Guest', [{ refID: 'g1', host: { refID: 's1' } }, { refID: 'g2', host: { refID: 's2' } }], false);
      const [s2] = await db.store.collection('Staff').find({ refID: 's2' });
      const ids = Object.fromEntries((await db.documents('Guest')).map((guest) => [guest.refID, guest._id]));
      const [s1] = await db.store.collection('Staff').find({ refID: 's1' });
      expect(calls).toEqual([
        'find Guest {"refID":{"$in":["g1","g2"]}}',
        'find Staff {"refID":{"$in":["s1","s2"]}}',
        'find Staff {"refID":{"$in":["g1","s1","g2","s2"]}}',
        'find Guest {"refID":{"$in":["g1","s1","g2","s2"]}}',
        `insertMany ${CLAIMS} [{"_id":"Member.refID:\\"g1\\""},{"_id":"Member.refID:\\"g2\\""},{"_id":"Member.refID:\\"s2\\""}]`,
        `deleteMany ${CLAIMS} {"_id":{"$in":["Member.refID:\\"g1\\"","Member.refID:\\"g2\\"","Member.refID:\\"s2\\""]}}`,
        `insertMany Guest [{"_id":"${ids.g1}","refID":"g1","host":"${s1!._id}"},{"_id":"${ids.g2}","refID":"g2","host":"${s2!._id}"}]`,
        `insertMany Staff [{"_id":"${s2!._id}","refID":"s2"}]`,
      ]);
    });
  });
});
