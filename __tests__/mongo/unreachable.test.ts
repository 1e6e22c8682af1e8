import pino from 'pino';
import { openMongoStore, type MongoStoreLogger } from '../../src/store/mongo/mongo-store.js';
import { StoreUnavailableError, type Store } from '../../src/store/port.js';
import { closedLoopbackPort } from '../helpers/wait.js';

class RecordingLogger implements MongoStoreLogger {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info: ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn: ${message}`);
  }
}

describe('openMongoStore while MongoDB is unreachable', () => {
  let store: Store;
  let logger: RecordingLogger;

  beforeAll(async () => {
    logger = new RecordingLogger();
    const port = await closedLoopbackPort();
    store = await openMongoStore(`mongodb://127.0.0.1:${port}/?directConnection=true`, {
      dbName: 'autograph_unreachable',
      logger,
      serverSelectionTimeoutMS: 300,
      reconnectDelayMS: 200,
    });
  });

  afterAll(async () => {
    await store.close();
  });

  it('opens anyway and reports not ready', () => {
    expect(store.kind).toBe('mongodb');
    expect(store.ready()).toBe(false);
  });

  it('logs why it cannot connect', () => {
    expect(logger.lines).toEqual([expect.stringMatching(/^warn: MongoDB not reachable: .*retrying every 200 ms$/)]);
  });

  it.each<[string, (store: Store) => Promise<unknown>]>([
    ['find', (s) => s.collection('Task').find({ done: true })],
    ['count', (s) => s.collection('Task').count({})],
    ['aggregate', (s) => s.collection('Task').aggregate([{ $match: {} }])],
    ['insertMany', (s) => s.collection('Task').insertMany([{ _id: 'a' }, { _id: 'b' }])],
    ['updateMany', (s) => s.collection('Task').updateMany({}, { $set: { done: true } })],
    ['deleteMany', (s) => s.collection('Task').deleteMany({})],
    ['transaction', (s) => s.transaction(async () => 'never runs')],
    ['listIndexes', (s) => s.listIndexes('Task')],
    ['syncIndexes', (s) => s.syncIndexes('Task', [{ name: 'ag_Task_done', keys: { done: 1 } }], 'ag_')],
  ])('%s rejects with StoreUnavailableError', async (_operation, call) => {
    const failure = call(store);
    await expect(failure).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(failure).rejects.toThrow(/^data store unavailable: MongoDB not reachable yet \(.+\); reconnecting$/);
  });

  it('does not run transaction work it cannot commit', async () => {
    const work = jest.fn(async () => 'done');
    await expect(store.transaction(work)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(work).not.toHaveBeenCalled();
  });
});

describe('closing a store that never connected', () => {
  it('resolves, and later operations say the store is closed', async () => {
    const port = await closedLoopbackPort();
    const store = await openMongoStore(`mongodb://127.0.0.1:${port}`, {
      serverSelectionTimeoutMS: 200,
      reconnectDelayMS: 100,
    });
    await store.close();
    await store.close();
    expect(store.ready()).toBe(false);
    await expect(store.collection('Task').find({})).rejects.toThrow('data store unavailable: the MongoDB store has been closed');
  });
});

describe('openMongoStore input checks', () => {
  it('rejects a connection string the driver cannot parse, without echoing it', async () => {
    const failure = openMongoStore('postgres://user:secret@db.example');
    await expect(failure).rejects.toThrow(/^invalid MongoDB connection string: /);
    await expect(failure).rejects.not.toThrow(/secret/);
  });

  it.each<[string, Parameters<typeof openMongoStore>[1], string]>([
    ['a zero timeout', { serverSelectionTimeoutMS: 0 }, 'openMongoStore: serverSelectionTimeoutMS must be a positive integer (milliseconds), got 0'],
    ['a fractional interval', { heartbeatFrequencyMS: 2.5 }, 'openMongoStore: heartbeatFrequencyMS must be a positive integer (milliseconds), got 2.5'],
    ['a database name with a dot', { dbName: 'app.v2' }, 'openMongoStore: invalid database name "app.v2"'],
    ['an empty database name', { dbName: '' }, 'openMongoStore: invalid database name ""'],
  ])('rejects %s', async (_case, options, message) => {
    await expect(openMongoStore('mongodb://127.0.0.1:9', options)).rejects.toThrow(message);
  });

  it('checks the database named in the connection string too', async () => {
    await expect(openMongoStore('mongodb://127.0.0.1:9/my$db')).rejects.toThrow('invalid database name "my$db"');
  });

  it('rejects invalid collection names with the rule they break', async () => {
    const port = await closedLoopbackPort();
    const store = await openMongoStore(`mongodb://127.0.0.1:${port}`, { serverSelectionTimeoutMS: 200 });
    try {
      expect(() => store.collection('a$b')).toThrow('invalid collection name "a$b"');
      expect(() => store.collection('')).toThrow('invalid collection name ""');
      expect(() => store.collection('system.users')).toThrow('not start with "system."');
    } finally {
      await store.close();
    }
  });

  it('accepts a pino logger', async () => {
    const logger: MongoStoreLogger = pino({ enabled: false });
    const port = await closedLoopbackPort();
    const store = await openMongoStore(`mongodb://127.0.0.1:${port}`, { logger, serverSelectionTimeoutMS: 200 });
    await store.close();
    expect(store.ready()).toBe(false);
  });
});
