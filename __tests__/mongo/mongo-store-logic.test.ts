/**
 * The adapter's own logic (sessions, compensation, retries, index sync) against a fake driver, since no
 * MongoDB runs here. The behaviour of MongoDB itself is covered by the contract suite (mongo-store.test.ts).
 */
import { MongoBulkWriteError, MongoNetworkError, MongoServerError, MongoServerSelectionError, type ClientSession, type Db } from 'mongodb';
import type { StoreConnection } from '../../src/store/mongo/connection.js';
import { MongoStore } from '../../src/store/mongo/mongo-store.js';
import { deploymentFromHello, type DeploymentInfo } from '../../src/store/mongo/topology.js';
import { DeadlineExceededError, DuplicateKeyError, StoreUnavailableError, type Transaction } from '../../src/store/port.js';

const STANDALONE = deploymentFromHello({ isWritablePrimary: true });
const REPLICA_SET = deploymentFromHello({ isWritablePrimary: true, setName: 'rs0' });

function fakeDriverCollection(name: string) {
  return {
    collectionName: name,
    db: { createCollection: jest.fn(async (_name: string): Promise<unknown> => ({})) },
    find: jest.fn((_filter: unknown, _options: unknown) => ({ toArray: async (): Promise<unknown[]> => [] })),
    countDocuments: jest.fn(async (_filter: unknown, _options: unknown) => 0),
    aggregate: jest.fn((_pipeline: unknown, _options: unknown) => ({ toArray: async (): Promise<unknown[]> => [] })),
    insertMany: jest.fn(async (_documents: unknown, _options: unknown): Promise<unknown> => ({})),
    updateMany: jest.fn(async (_filter: unknown, _update: unknown, _options: unknown) => ({ matchedCount: 0, modifiedCount: 0 })),
    deleteMany: jest.fn(async (_filter: unknown, _options: unknown) => ({ deletedCount: 0 })),
    listIndexes: jest.fn(() => ({ toArray: async (): Promise<unknown[]> => [] })),
    dropIndex: jest.fn(async (_name: string): Promise<unknown> => ({})),
    createIndexes: jest.fn(async (_specs: unknown[]): Promise<unknown> => []),
  };
}
type FakeDriverCollection = ReturnType<typeof fakeDriverCollection>;

/** The ClientSession calls of the Core transaction API; commits fail as `commitFailures` and `everyCommitFails` say. */
class FakeSession {
  active = false;
  ended = false;
  attempts = 0;
  commits = 0;
  aborts = 0;
  options: unknown;
  commitFailures: Error[] = [];
  /** Thrown by every commit once `commitFailures` is used up. */
  everyCommitFails: Error | undefined;
  inTransaction(): boolean {
    return this.active;
  }
  startTransaction(options: unknown): void {
    this.options = options;
    this.active = true;
    this.attempts += 1;
  }
  async commitTransaction(): Promise<void> {
    this.commits += 1;
    const failure = this.commitFailures.shift() ?? this.everyCommitFails;
    if (failure) throw failure;
    this.active = false;
  }
  async abortTransaction(): Promise<void> {
    this.aborts += 1;
    this.active = false;
  }
  async endSession(): Promise<void> {
    this.ended = true;
  }
}

class FakeConnection implements StoreConnection {
  readonly driverCollections = new Map<string, FakeDriverCollection>();
  readonly sessions: FakeSession[] = [];
  isReady = true;
  /** Set while no writable server is known: how long since it was lost. */
  withoutWritableServerMS: number | undefined;
  readonly client = {
    startSession: (): ClientSession => {
      const session = new FakeSession();
      this.sessions.push(session);
      return session as unknown as ClientSession;
    },
  };
  constructor(private readonly info: DeploymentInfo) {}
  driverCollection(name: string): FakeDriverCollection {
    let collection = this.driverCollections.get(name);
    if (!collection) {
      collection = fakeDriverCollection(name);
      this.driverCollections.set(name, collection);
    }
    return collection;
  }
  database(): Db {
    return { collection: (name: string) => this.driverCollection(name) } as unknown as Db;
  }
  deployment(): DeploymentInfo {
    return this.info;
  }
  ready(): boolean {
    return this.isReady;
  }
  msWithoutWritableServer(): number | undefined {
    return this.withoutWritableServerMS;
  }
  async close(): Promise<void> {}
}

function duplicateIdAt(index: number, id: string): MongoBulkWriteError {
  return new MongoBulkWriteError(
    {
      message: `E11000 duplicate key error collection: app.Task index: _id_ dup key: { _id: "${id}" }`,
      code: 11000,
      writeErrors: [{ index, err: { index, code: 11000, errmsg: 'E11000', keyValue: { _id: id } } } as never],
    },
    { insertedCount: index } as never,
  );
}

function transient(message: string): MongoServerError {
  return new MongoServerError({ message, code: 112, errorLabels: ['TransientTransactionError'] });
}

describe('MongoStore on a standalone server', () => {
  let connection: FakeConnection;
  let store: MongoStore;
  beforeEach(() => {
    connection = new FakeConnection(STANDALONE);
    store = new MongoStore(connection, 'app');
  });

  it('undoes the documents an ordered insert wrote before a duplicate key, then reports the duplicate', async () => {
    const driver = connection.driverCollection('Task');
    driver.insertMany.mockRejectedValueOnce(duplicateIdAt(2, 'a'));
    const failure = store.collection('Task').insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'a' }, { _id: 'c' }]);
    await expect(failure).rejects.toEqual(new DuplicateKeyError('Task', '_id', 'a'));
    expect(driver.insertMany).toHaveBeenCalledWith([{ _id: 'a' }, { _id: 'b' }, { _id: 'a' }, { _id: 'c' }], {
      ordered: true,
      session: undefined,
    });
    expect(driver.deleteMany).toHaveBeenCalledWith({ _id: { $in: ['a', 'b'] } }, { session: undefined });
  });

  it('deletes nothing when the first document is the duplicate', async () => {
    const driver = connection.driverCollection('Task');
    driver.insertMany.mockRejectedValueOnce(duplicateIdAt(0, 'a'));
    await expect(store.collection('Task').insertMany([{ _id: 'a' }, { _id: 'b' }])).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(driver.deleteMany).not.toHaveBeenCalled();
  });

  it('runs transaction work without a session and retires the handle afterwards', async () => {
    const driver = connection.driverCollection('Task');
    let handle: Transaction | undefined;
    const result = await store.transaction(async (tx) => {
      handle = tx;
      await store.collection('Task').updateMany({ done: false }, { $set: { done: true } }, { tx });
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(connection.sessions).toHaveLength(0);
    expect(driver.updateMany).toHaveBeenCalledWith({ done: false }, { $set: { done: true } }, { session: undefined });
    await expect(store.collection('Task').count({}, { tx: handle })).rejects.toThrow(`transaction ${handle?.id} is not running`);
  });

  it('leaves the writes of failed transaction work in place (no multi-document transactions)', async () => {
    const driver = connection.driverCollection('Task');
    await expect(
      store.transaction(async (tx) => {
        await store.collection('Task').deleteMany({ done: true }, { tx });
        throw new Error('resolver failed');
      }),
    ).rejects.toThrow('resolver failed');
    expect(driver.deleteMany).toHaveBeenCalledTimes(1);
  });
});

describe('MongoStore deadlines', () => {
  let connection: FakeConnection;
  let store: MongoStore;
  const NOW = 5_000_000;
  beforeEach(() => {
    connection = new FakeConnection(STANDALONE);
    store = new MongoStore(connection, 'app');
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => jest.restoreAllMocks());

  it('gives every operation the time left until its deadline as maxTimeMS', async () => {
    const driver = connection.driverCollection('Task');
    const scope = { deadline: NOW + 1500 };
    const tasks = store.collection('Task');
    await tasks.find({ done: true }, { limit: 2 }, scope);
    await tasks.count({ done: true }, scope);
    await tasks.aggregate([{ $match: { done: true } }], scope);
    await tasks.insertMany([{ _id: 't1' }], scope);
    await tasks.updateMany({ done: true }, { $set: { done: false } }, scope);
    await tasks.deleteMany({ done: true }, scope);
    expect(driver.find).toHaveBeenCalledWith({ done: true }, { session: undefined, maxTimeMS: 1500, limit: 2 });
    expect(driver.countDocuments).toHaveBeenCalledWith({ done: true }, { session: undefined, maxTimeMS: 1500 });
    expect(driver.aggregate).toHaveBeenCalledWith([{ $match: { done: true } }], { session: undefined, maxTimeMS: 1500 });
    expect(driver.insertMany).toHaveBeenCalledWith([{ _id: 't1' }], { ordered: true, session: undefined, maxTimeMS: 1500 });
    expect(driver.updateMany).toHaveBeenCalledWith({ done: true }, { $set: { done: false } }, { session: undefined, maxTimeMS: 1500 });
    expect(driver.deleteMany).toHaveBeenCalledWith({ done: true }, { session: undefined, maxTimeMS: 1500 });
  });

  it('rounds a fraction of a millisecond left up, never to 0 (which MongoDB reads as no limit)', async () => {
    const driver = connection.driverCollection('Task');
    await store.collection('Task').find({}, {}, { deadline: NOW + 0.25 });
    expect(driver.find).toHaveBeenCalledWith({}, { session: undefined, maxTimeMS: 1 });
  });

  it('does not call the server once the deadline has passed', async () => {
    const driver = connection.driverCollection('Task');
    await expect(store.collection('Task').find({}, {}, { deadline: NOW })).rejects.toEqual(new DeadlineExceededError('find on Task'));
    await expect(store.collection('Task').count({}, { deadline: NOW - 5 })).rejects.toEqual(new DeadlineExceededError('count on Task'));
    expect(driver.find).not.toHaveBeenCalled();
    expect(driver.countDocuments).not.toHaveBeenCalled();
  });

  it('reports an operation the server stopped at maxTimeMS as DeadlineExceededError', async () => {
    const driver = connection.driverCollection('Task');
    driver.aggregate.mockReturnValueOnce({
      toArray: async () => {
        throw new MongoServerError({ message: 'operation exceeded time limit', code: 50, codeName: 'MaxTimeMSExpired' });
      },
    });
    await expect(store.collection('Task').aggregate([], { deadline: NOW + 100 })).rejects.toEqual(new DeadlineExceededError('an operation on Task'));
  });
});

describe('MongoStore on a replica set', () => {
  let connection: FakeConnection;
  let store: MongoStore;
  beforeEach(() => {
    connection = new FakeConnection(REPLICA_SET);
    store = new MongoStore(connection, 'app');
  });

  it('runs transaction work in one driver transaction and passes its session to every operation', async () => {
    const task = connection.driverCollection('Task');
    const user = connection.driverCollection('User');
    await store.transaction(async (tx) => {
      await store.collection('Task').insertMany([{ _id: 't1', user: 'u1' }], { tx });
      await store.collection('User').find({ _id: 'u1' }, {}, { tx });
    });
    const [session] = connection.sessions;
    expect(connection.sessions).toHaveLength(1);
    expect(task.insertMany.mock.calls[0][1]).toEqual({ ordered: true, session });
    expect(user.find.mock.calls[0][1]).toEqual({ session });
    expect(session.options).toEqual({ readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
    expect(session.ended).toBe(true);
  });

  it('gives a multi-document insert without a caller transaction a transaction of its own', async () => {
    const task = connection.driverCollection('Task');
    await store.collection('Task').insertMany([{ _id: 'a' }, { _id: 'b' }]);
    expect(connection.sessions).toHaveLength(1);
    expect(task.insertMany.mock.calls[0][1]).toEqual({ ordered: true, session: connection.sessions[0] });
  });

  it('does not compensate inside a transaction: the aborted transaction already undid the insert', async () => {
    const task = connection.driverCollection('Task');
    task.insertMany.mockRejectedValueOnce(duplicateIdAt(1, 'a'));
    await expect(store.collection('Task').insertMany([{ _id: 'a' }, { _id: 'a' }])).rejects.toEqual(
      new DuplicateKeyError('Task', '_id', 'a'),
    );
    expect(task.deleteMany).not.toHaveBeenCalled();
  });

  it('lets the driver retry after a transient error, and returns the work result', async () => {
    const task = connection.driverCollection('Task');
    task.updateMany.mockRejectedValueOnce(transient('WriteConflict'));
    const result = await store.transaction(async (tx) => {
      const { matched } = await store.collection('Task').updateMany({}, { $set: { done: true } }, { tx });
      return matched;
    });
    expect(result).toBe(0);
    expect(connection.sessions[0].attempts).toBe(2);
  });

  it('keeps a transient network error untranslated inside the transaction, so the driver can retry it', async () => {
    const blip = new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed');
    blip.addErrorLabel('TransientTransactionError');
    connection.driverCollection('Task').deleteMany.mockRejectedValueOnce(blip);
    const deleted = await store.transaction((tx) => store.collection('Task').deleteMany({ done: true }, { tx }));
    expect(deleted).toBe(0);
    expect(connection.sessions[0].attempts).toBe(2);
  });

  it('abandons a transaction after its retry window instead of retrying for two minutes', async () => {
    const impatient = new MongoStore(connection, 'app', { transactionRetryWindowMS: 20, electionRetryWindowMS: 20 });
    connection.driverCollection('Task').updateMany.mockRejectedValue(transient('WriteConflict'));
    const work = jest.fn((tx: Transaction) => impatient.collection('Task').updateMany({}, { $set: { done: true } }, { tx }));
    await expect(impatient.transaction(work)).rejects.toThrow(
      /^transaction abandoned after \d+ attempts in \d+ ms, the last failing with: WriteConflict$/,
    );
    expect(work.mock.calls.length).toBeGreaterThan(1);
  });

  it('keeps retrying through an election (no writable server for a while), and commits once a primary is back', async () => {
    let failures = 3;
    connection.driverCollection('Task').updateMany.mockImplementation(async () => {
      if (failures-- > 0) {
        connection.isReady = false;
        throw transient('PrimarySteppedDown');
      }
      connection.isReady = true;
      return { matchedCount: 1, modifiedCount: 1 };
    });
    const result = await store.transaction((tx) => store.collection('Task').updateMany({}, { $set: { done: true } }, { tx }));
    expect(result).toEqual({ matched: 1, modified: 1 });
    expect(connection.sessions[0].attempts).toBe(4);
    expect(connection.sessions[0].aborts).toBe(3);
    expect(connection.sessions[0].commits).toBe(1);
  });

  it('retries a commit whose result is unknown, without running the work again', async () => {
    const work = jest.fn(async (tx: Transaction) => store.collection('Task').updateMany({}, { $set: { done: true } }, { tx }));
    const unknown = new MongoNetworkError('connection closed during commit');
    unknown.addErrorLabel('UnknownTransactionCommitResult');
    const original = connection.client.startSession;
    connection.client.startSession = () => {
      const session = original();
      (session as unknown as FakeSession).commitFailures.push(unknown, unknown);
      return session;
    };
    await store.transaction(work);
    expect(work).toHaveBeenCalledTimes(1);
    expect(connection.sessions[0].commits).toBe(3);
  });

  it('gives up on an unconfirmed commit at the end of its window: StoreUnavailableError saying the writes may be in place', async () => {
    const impatient = new MongoStore(connection, 'app', { transactionRetryWindowMS: 20, electionRetryWindowMS: 20 });
    const unknown = new MongoNetworkError('connection closed during commit');
    unknown.addErrorLabel('UnknownTransactionCommitResult');
    const original = connection.client.startSession;
    connection.client.startSession = () => {
      const session = original();
      (session as unknown as FakeSession).everyCommitFails = unknown;
      return session;
    };
    const failure = impatient.transaction((tx) => impatient.collection('Task').count({}, { tx }));
    await expect(failure).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(failure).rejects.toThrow(
      'data store unavailable: the commit of a transaction was not confirmed within 20 ms (connection closed during commit); its writes may or may not be in place',
    );
  });
});

describe('MongoStore operations during an election', () => {
  let connection: FakeConnection;
  let store: MongoStore;
  beforeEach(() => {
    connection = new FakeConnection(REPLICA_SET);
    store = new MongoStore(connection, 'app', { transactionRetryWindowMS: 15_000, electionRetryWindowMS: 12_000 });
  });

  const noPrimary = () => new MongoServerSelectionError('Server selection timed out after 2000 ms', { type: 'ReplicaSetNoPrimary' } as never);

  it.each<[string, () => Error]>([
    ['no server could be selected', noPrimary],
    ['the server answered NotWritablePrimary', () => new MongoServerError({ message: 'not primary', code: 10107 })],
  ])('an operation that did not run (%s) is tried again while the primary was lost recently', async (_case, error) => {
    connection.withoutWritableServerMS = 3_000;
    const driver = connection.driverCollection('Task');
    driver.updateMany.mockRejectedValueOnce(error()).mockResolvedValueOnce({ matchedCount: 2, modifiedCount: 2 });
    expect(await store.collection('Task').updateMany({}, { $set: { done: true } })).toEqual({ matched: 2, modified: 2 });
    expect(driver.updateMany).toHaveBeenCalledTimes(2);
  });

  it('past the election window the same error fails at once as StoreUnavailableError', async () => {
    connection.withoutWritableServerMS = 12_000;
    const driver = connection.driverCollection('Task');
    driver.updateMany.mockRejectedValueOnce(noPrimary());
    await expect(store.collection('Task').updateMany({}, { $set: { done: true } })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(driver.updateMany).toHaveBeenCalledTimes(1);
  });

  it('a network error in the middle of a write is not tried again (it may have been applied)', async () => {
    connection.withoutWritableServerMS = 1_000;
    const driver = connection.driverCollection('Task');
    driver.updateMany.mockRejectedValueOnce(new MongoNetworkError('connection reset'));
    await expect(store.collection('Task').updateMany({}, { $inc: { n: 1 } })).rejects.toThrow('data store unavailable: connection reset');
    expect(driver.updateMany).toHaveBeenCalledTimes(1);
  });
});

describe('MongoStore reads', () => {
  const connection = new FakeConnection(STANDALONE);
  const store = new MongoStore(connection, 'app');
  const driver = connection.driverCollection('Task');

  it('passes a descending sort (nulls last already), skip, limit and projection through to find', async () => {
    driver.find.mockReturnValueOnce({ toArray: async () => [{ _id: 'a', title: 'x' }] });
    const found = await store
      .collection('Task')
      .find({ done: true }, { sort: { title: -1, _id: -1 }, skip: 5, limit: 10, projection: { title: 1 } });
    expect(found).toEqual([{ _id: 'a', title: 'x' }]);
    expect(driver.find).toHaveBeenLastCalledWith(
      { done: true },
      { session: undefined, sort: { title: -1, _id: -1 }, skip: 5, limit: 10, projection: { title: 1 } },
    );
  });

  it('runs a find with an ascending sort as two finds: the documents with a value, then, to fill the page, those without', async () => {
    driver.find
      .mockReturnValueOnce({ toArray: async () => [{ _id: 'a', title: 'x' }] })
      .mockReturnValueOnce({ toArray: async () => [{ _id: 'c' }, { _id: 'b', title: null }] });
    const found = await store
      .collection('Task')
      .find({ done: true }, { sort: { title: 1, _id: -1 }, skip: 5, limit: 10, projection: { title: 1 } });
    expect(found).toEqual([{ _id: 'a', title: 'x' }, { _id: 'c' }, { _id: 'b', title: null }]);
    expect(driver.find.mock.calls.slice(-2)).toEqual([
      [{ $and: [{ done: true }, { title: { $ne: null } }] }, { session: undefined, sort: { title: 1, _id: -1 }, skip: 5, limit: 10, projection: { title: 1 } }],
      [{ $and: [{ done: true }, { title: null }] }, { session: undefined, sort: { _id: -1 }, limit: 9, projection: { title: 1 } }],
    ]);
  });

  it('runs a find with two ascending fields as an aggregation that puts nulls last', async () => {
    driver.aggregate.mockReturnValueOnce({ toArray: async () => [{ _id: 'a', title: 'x' }] });
    const found = await store
      .collection('Task')
      .find({ done: true }, { sort: { title: 1, rank: 1 }, skip: 5, limit: 10 });
    expect(found).toEqual([{ _id: 'a', title: 'x' }]);
    expect(driver.aggregate).toHaveBeenLastCalledWith(
      [
        { $match: { done: true } },
        {
          $addFields: {
            __null_title: { $cond: [{ $eq: [{ $ifNull: ['$title', null] }, null] }, 1, 0] },
            __null_rank: { $cond: [{ $eq: [{ $ifNull: ['$rank', null] }, null] }, 1, 0] },
          },
        },
        { $sort: { __null_title: 1, title: 1, __null_rank: 1, rank: 1 } },
        { $skip: 5 },
        { $limit: 10 },
        { $unset: ['__null_title', '__null_rank'] },
      ],
      { session: undefined },
    );
  });

  it('passes limit 0 on: no limit, as in MongoDB and the embedded store', async () => {
    await store.collection('Task').find({}, { limit: 0 });
    expect(driver.find).toHaveBeenLastCalledWith({}, { session: undefined, limit: 0 });
  });

  it('rejects a negative or fractional window', async () => {
    await expect(store.collection('Task').find({}, { skip: -1 })).rejects.toThrow(
      'find on Task: skip must be a non-negative integer, got -1',
    );
    await expect(store.collection('Task').find({}, { limit: 1.5 })).rejects.toThrow(
      'find on Task: limit must be a non-negative integer, got 1.5',
    );
  });

  it('refuses documents whose _id is not a string, naming the collection', async () => {
    driver.find.mockReturnValueOnce({ toArray: async () => [{ _id: 42 }] });
    await expect(store.collection('Task').find({})).rejects.toThrow(
      'collection Task holds a document whose _id is not a string (42)',
    );
  });
});

describe('MongoStore index sync', () => {
  let connection: FakeConnection;
  let store: MongoStore;
  let driver: FakeDriverCollection;
  beforeEach(() => {
    connection = new FakeConnection(REPLICA_SET);
    store = new MongoStore(connection, 'app');
    driver = connection.driverCollection('User');
    driver.listIndexes.mockReturnValue({
      toArray: async () => [
        { v: 2, name: '_id_', key: { _id: 1 } },
        { v: 2, name: 'ag_id_username', key: { username: 1 }, unique: true, sparse: true },
        { v: 2, name: 'ag_search_name', key: { name: 1 } },
        { v: 2, name: 'reporting_by_age', key: { age: -1 } },
      ],
    });
  });

  it('drops obsolete indexes of ours and creates missing ones, never touching foreign indexes', async () => {
    const sync = await store.syncIndexes(
      'User',
      [
        { name: 'ag_id_username', keys: { username: 1 }, unique: true, sparse: true },
        { name: 'ag_rel_tasks', keys: { tasks: 1 } },
      ],
      'ag_',
    );
    expect(sync).toEqual({ created: ['ag_rel_tasks'], dropped: ['ag_search_name'] });
    expect(driver.dropIndex.mock.calls).toEqual([['ag_search_name']]);
    expect(driver.createIndexes).toHaveBeenCalledWith([{ name: 'ag_rel_tasks', key: { tasks: 1 } }]);
  });

  it('builds new indexes before dropping any, and rebuilds a changed one after dropping it', async () => {
    const order: string[] = [];
    driver.createIndexes.mockImplementation(async (specs: unknown[]) => {
      order.push(`create ${(specs as Array<{ name: string }>).map((spec) => spec.name).join(',')}`);
      return [];
    });
    driver.dropIndex.mockImplementation(async (name: string) => {
      order.push(`drop ${name}`);
      return {};
    });
    const sync = await store.syncIndexes(
      'User',
      [
        { name: 'ag_id_username', keys: { username: 1 }, unique: true }, // no longer sparse
        { name: 'ag_rel_tasks', keys: { tasks: 1 } },
      ],
      'ag_',
    );
    expect(order).toEqual(['create ag_rel_tasks', 'drop ag_id_username', 'drop ag_search_name', 'create ag_id_username']);
    expect(sync).toEqual({ created: ['ag_id_username', 'ag_rel_tasks'], dropped: ['ag_id_username', 'ag_search_name'] });
  });

  it('moves an @id field from the unique sparse index to the partial one without a moment without a unique index', async () => {
    const order: string[] = [];
    driver.createIndexes.mockImplementation(async (specs: unknown[]) => {
      order.push(`create ${JSON.stringify(specs)}`);
      return [];
    });
    driver.dropIndex.mockImplementation(async (name: string) => {
      order.push(`drop ${name}`);
      return {};
    });
    const partial = { name: 'ag_unique_username', keys: { username: 1 as const }, unique: true, partialFilterExpression: { username: { $type: 'string' } } };
    await store.syncIndexes('User', [partial, { name: 'ag_search_name', keys: { name: 1 } }], 'ag_');
    expect(order).toEqual([
      'create [{"name":"ag_unique_username","key":{"username":1},"unique":true,"partialFilterExpression":{"username":{"$type":"string"}}}]',
      'drop ag_id_username',
    ]);
  });

  it('creates the collection explicitly before its indexes (MongoDB says when it exists already)', async () => {
    driver.db.createCollection.mockRejectedValueOnce(new MongoServerError({ message: 'Collection app.User already exists.', code: 48 }));
    await store.syncIndexes('User', [], 'ag_');
    const fresh = connection.driverCollection('Fresh');
    await store.syncIndexes('Fresh', [{ name: 'ag_search_name', keys: { name: 1 } }], 'ag_');
    expect(driver.db.createCollection).toHaveBeenCalledWith('User');
    expect(fresh.db.createCollection).toHaveBeenCalledWith('Fresh');
    expect(fresh.db.createCollection.mock.invocationCallOrder[0]).toBeLessThan(fresh.createIndexes.mock.invocationCallOrder[0]!);
  });

  it('refuses an index that is both sparse and partial, naming it', async () => {
    await expect(
      store.syncIndexes('User', [{ name: 'ag_x', keys: { x: 1 }, unique: true, sparse: true, partialFilterExpression: { x: { $type: 'string' } } }], 'ag_'),
    ).rejects.toThrow('syncIndexes(User): index "ag_x" cannot be both sparse and partial (MongoDB refuses the mix)');
  });

  it('keeps the old indexes when existing data breaks a new unique index', async () => {
    driver.createIndexes.mockRejectedValueOnce(
      new MongoServerError({ message: 'E11000 duplicate key error', code: 11000, keyValue: { email: null } }),
    );
    await expect(
      store.syncIndexes('User', [{ name: 'ag_id_email', keys: { email: 1 }, unique: true }], 'ag_'),
    ).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(driver.dropIndex).not.toHaveBeenCalled();
  });

  it('sends unique and sparse with the index', async () => {
    await store.syncIndexes('Team', [{ name: 'ag_id_code', keys: { code: 1 }, unique: true, sparse: true }], 'ag_');
    expect(connection.driverCollection('Team').createIndexes).toHaveBeenCalledWith([
      { name: 'ag_id_code', key: { code: 1 }, unique: true, sparse: true },
    ]);
  });

  it('tolerates an index that another instance dropped first', async () => {
    driver.dropIndex.mockRejectedValueOnce(new MongoServerError({ message: 'index not found with name [ag_search_name]', code: 27 }));
    await expect(store.syncIndexes('User', [], 'ag_')).resolves.toEqual({
      created: [],
      dropped: ['ag_id_username', 'ag_search_name'],
    });
  });

  it('names the indexes when MongoDB refuses to create them', async () => {
    driver.createIndexes.mockRejectedValueOnce(
      new MongoServerError({ message: 'Index already exists with a different name: reporting_by_age', code: 85 }),
    );
    await expect(store.syncIndexes('User', [{ name: 'ag_search_age', keys: { age: -1 } }], 'ag_')).rejects.toThrow(
      'creating indexes ag_search_age on User failed: Index already exists with a different name: reporting_by_age',
    );
  });

  it('reports existing documents that break a new unique index as DuplicateKeyError', async () => {
    driver.createIndexes.mockRejectedValueOnce(
      new MongoServerError({ message: 'E11000 duplicate key error', code: 11000, keyValue: { email: 'a@example.com' } }),
    );
    await expect(
      store.syncIndexes('User', [{ name: 'ag_id_email', keys: { email: 1 }, unique: true, sparse: true }], 'ag_'),
    ).rejects.toEqual(new DuplicateKeyError('User', 'email', 'a@example.com'));
  });

  it('validates the specs before dropping anything', async () => {
    await expect(store.syncIndexes('User', [{ name: 'email_1', keys: { email: 1 } }], 'ag_')).rejects.toThrow(
      'index "email_1" does not start with the prefix "ag_"',
    );
    expect(driver.listIndexes).not.toHaveBeenCalled();
    expect(driver.dropIndex).not.toHaveBeenCalled();
  });

  it('lists the indexes the port can express, without _id_', async () => {
    await expect(store.listIndexes('User')).resolves.toEqual([
      { name: 'ag_id_username', keys: { username: 1 }, unique: true, sparse: true },
      { name: 'ag_search_name', keys: { name: 1 } },
      { name: 'reporting_by_age', keys: { age: -1 } },
    ]);
  });

  it('lists no indexes for a collection that does not exist yet', async () => {
    connection.driverCollection('Nothing').listIndexes.mockReturnValue({
      toArray: async () => {
        throw new MongoServerError({ message: 'ns does not exist: app.Nothing', code: 26 });
      },
    });
    await expect(store.listIndexes('Nothing')).resolves.toEqual([]);
  });
});
