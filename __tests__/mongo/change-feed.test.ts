/**
 * The MongoDB change feed's change-stream mode, against a fake connection (no replica set runs here; the
 * wire test server is a standalone, whose polling mode the store contract suite covers).
 */
import { EventEmitter } from 'node:events';
import type { Db } from 'mongodb';
import { MongoChangeFeed } from '../../src/store/mongo/change-feed.js';
import type { StoreConnection } from '../../src/store/mongo/connection.js';
import type { DeploymentInfo } from '../../src/store/mongo/topology.js';
import type { StoreChange } from '../../src/store/port.js';
import { until } from '../helpers/wait.js';

class FakeStream extends EventEmitter {
  closed = false;
  async close(): Promise<void> {
    this.closed = true;
  }
}

function replicaSet() {
  const streams: FakeStream[] = [];
  const pipelines: unknown[] = [];
  const database = {
    watch(pipeline: unknown) {
      pipelines.push(pipeline);
      const stream = new FakeStream();
      streams.push(stream);
      return stream;
    },
  } as unknown as Db;
  const deployment: DeploymentInfo = { kind: 'replicaSet', supportsTransactions: true, description: 'replica set rs0' };
  const connection = {
    database: () => database,
    deployment: () => deployment,
  } as unknown as StoreConnection;
  const logged: string[] = [];
  const logger = { info: (message: string) => logged.push(`info: ${message}`), warn: (message: string) => logged.push(`warn: ${message}`) };
  return { feed: new MongoChangeFeed(connection, 'db', 10, logger), streams, pipelines, logged };
}

describe('MongoChangeFeed on a replica set', () => {
  it('opens one change stream on the database for data changes, and names each event’s collection', async () => {
    const { feed, streams, pipelines, logged } = replicaSet();
    const heard: StoreChange[] = [];
    const stop = feed.watch((change) => heard.push(change));
    await until(() => streams.length === 1);
    expect(pipelines).toEqual([[{ $match: { operationType: { $in: ['insert', 'update', 'replace', 'delete', 'drop'] } } }]]);
    expect(logged).toEqual(['info: subscriptions hear of writes through a MongoDB change stream']);
    streams[0]!.emit('change', { operationType: 'insert', ns: { db: 'db', coll: 'Task' } });
    streams[0]!.emit('change', { operationType: 'delete', ns: { db: 'db', coll: 'User' } });
    // A collection dropped by another instance (DELETE /admin/collections/<Type>) empties its subscribers' results.
    streams[0]!.emit('change', { operationType: 'drop', ns: { db: 'db', coll: 'Note' } });
    expect(heard).toEqual([{ collections: ['Task'] }, { collections: ['User'] }, { collections: ['Note'] }]);
    // Its own writes arrive through the stream too: it does not tell them twice.
    await feed.wrote('Task', undefined);
    expect(heard).toHaveLength(3);
    stop();
    expect(streams[0]!.closed).toBe(true);
  });

  it('opens a new stream after the stream fails', async () => {
    const { feed, streams, logged } = replicaSet();
    const heard: StoreChange[] = [];
    feed.watch((change) => heard.push(change));
    await until(() => streams.length === 1);
    streams[0]!.emit('error', new Error('resume token expired'));
    await until(() => streams.length === 2);
    expect(streams[0]!.closed).toBe(true);
    expect(logged).toContain('warn: the MongoDB change stream failed: resume token expired; reopening');
    streams[1]!.emit('change', { operationType: 'update', ns: { db: 'db', coll: 'Task' } });
    expect(heard).toEqual([{ collections: ['Task'] }]);
    await feed.close();
  });
});
