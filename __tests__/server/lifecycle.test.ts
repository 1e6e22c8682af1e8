import { GraphQLObjectType, GraphQLSchema, GraphQLString, type GraphQLSchema as Schema } from 'graphql';
import { rm } from 'node:fs/promises';
import { createApp, InitialSchemaError } from '../../src/server/app';
import { createLogger } from '../../src/server/logger';
import { openEmbeddedStore } from '../../src/store/embedded/index';
import { StoreUnavailableError, SYSTEM_COLLECTIONS, type Collection, type Store } from '../../src/store/port';
import { activateSchema, gql } from '../helpers/gql';
import { makeTempDir, startTestServer } from '../helpers/server';
import { BROKEN_SCHEMA, TASKS_SCHEMA, TASKS_SCHEMA_V2 } from './schemas';
import { overriding } from '../helpers/store-wrap';
import { until } from '../helpers/wait';

let dataDir: string;
beforeEach(async () => {
  dataDir = await makeTempDir();
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('restart on the same data folder', () => {
  it('serves the stored schema and data again', async () => {
    const first = await startTestServer({ dataDir });
    await activateSchema(first.url, TASKS_SCHEMA);
    await gql(first.url, 'mutation { addTask(input: [{ title: "Write docs", completed: false, user: { username: "ada" } }]) { numUids } }');
    await first.close();

    const second = await startTestServer({ dataDir });
    try {
      expect(second.app.active?.text).toBe(TASKS_SCHEMA);
      expect(await (await fetch(`${second.url}/admin/schema`)).text()).toBe(TASKS_SCHEMA);
      const read = await gql(second.url, '{ queryUser { username tasks { title completed } } }');
      expect(read.body).toEqual({ data: { queryUser: [{ username: 'ada', tasks: [{ title: 'Write docs', completed: false }] }] } });
    } finally {
      await second.close();
    }
  });

  it('serves the last successful upload, not a later rejected one', async () => {
    const first = await startTestServer({ dataDir });
    await activateSchema(first.url, TASKS_SCHEMA);
    await activateSchema(first.url, TASKS_SCHEMA_V2);
    await fetch(`${first.url}/admin/schema`, { method: 'POST', body: BROKEN_SCHEMA });
    await first.close();

    const second = await startTestServer({ dataDir });
    expect(second.app.active?.text).toBe(TASKS_SCHEMA_V2);
    await second.close();
  });

  it('lets a schema given at start (--schema) replace the stored one', async () => {
    const first = await startTestServer({ dataDir });
    await activateSchema(first.url, TASKS_SCHEMA);
    await first.close();

    const second = await startTestServer({ dataDir, initialSchema: TASKS_SCHEMA_V2 });
    expect(second.app.active?.text).toBe(TASKS_SCHEMA_V2);
    await second.close();
    const third = await startTestServer({ dataDir });
    expect(third.app.active?.text).toBe(TASKS_SCHEMA_V2);
    await third.close();
  });

  it('refuses to start with a schema given at start that has errors, naming line:column', async () => {
    const attempt = startTestServer({ dataDir, initialSchema: BROKEN_SCHEMA });
    await expect(attempt).rejects.toBeInstanceOf(InitialSchemaError);
    await expect(attempt).rejects.toThrow(/^the schema given at start is not valid:\n4:\d+ /m);
  });

  it('starts while the store is unreachable, and serves the stored schema once it can be read', async () => {
    const first = await startTestServer({ dataDir });
    await activateSchema(first.url, TASKS_SCHEMA);
    await first.close();

    const outage = await unreachableSchemaStore(dataDir);
    const server = await startTestServer({ dataDir, store: outage.store, storedSchemaRetryMs: 10 });
    try {
      expect(server.app.active).toBeUndefined();
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(503);
      expect((await gql(server.url, '{ queryUser { username } }')).status).toBe(503);

      outage.end();
      await until(() => server.app.active !== undefined);
      expect(server.app.active?.text).toBe(TASKS_SCHEMA);
      expect((await gql(server.url, '{ queryUser { username } }')).body).toEqual({ data: { queryUser: [] } });
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('keeps a schema uploaded during the outage over the stored one read afterwards', async () => {
    const first = await startTestServer({ dataDir });
    await activateSchema(first.url, TASKS_SCHEMA);
    await first.close();

    const outage = await unreachableSchemaStore(dataDir);
    const server = await startTestServer({ dataDir, store: outage.store, storedSchemaRetryMs: 10 });
    try {
      const readBackGate = outage.holdNextRead();
      outage.end();
      await until(() => readBackGate.waiting());
      await activateSchema(server.url, TASKS_SCHEMA_V2);
      readBackGate.release();
      await until(() => readBackGate.done());
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await server.close();
    }
    expect(server.app.active?.text).toBe(TASKS_SCHEMA_V2);
  });

  it('starts without a schema when the stored one no longer activates', async () => {
    const store = await openEmbeddedStore(dataDir);
    await store.collection(SYSTEM_COLLECTIONS.schema).insertMany([{ _id: 'active', text: BROKEN_SCHEMA, updatedAt: new Date().toISOString() }]);
    await store.close();

    const server = await startTestServer({ dataDir });
    try {
      expect(server.app.active).toBeUndefined();
      expect((await gql(server.url, '{ __typename }')).status).toBe(503);
      expect((await fetch(`${server.url}/admin/schema`, { method: 'POST', body: TASKS_SCHEMA })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('activation', () => {
  it('runs concurrent uploads one after the other; the last one submitted ends up active', async () => {
    const store = await openEmbeddedStore(dataDir);
    let running = 0;
    let maxRunning = 0;
    const observed = overriding(store, {
      async syncIndexes(...args) {
        running++;
        maxRunning = Math.max(maxRunning, running);
        try {
          await new Promise((resolve) => setImmediate(resolve));
          return await store.syncIndexes(...args);
        } finally {
          running--;
        }
      },
    });
    const app = await createApp({ store: observed, logger: createLogger('silent') });
    try {
      const results = await Promise.all([app.activateSchema(TASKS_SCHEMA), app.activateSchema(TASKS_SCHEMA_V2), app.activateSchema(TASKS_SCHEMA)]);
      expect(results.map((result) => result.ok)).toEqual([true, true, true]);
      expect(maxRunning).toBe(1);
      expect(app.active?.text).toBe(TASKS_SCHEMA);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('answers a schema whose API does not build with 400, keeping the previous one', async () => {
    let fail = false;
    const server = await startTestServer({
      dataDir,
      buildSchema: (model) => {
        if (fail) throw new Error('generated SDL is broken');
        return greetingSchema(`types: ${[...model.types.keys()].join(',')}`);
      },
    });
    try {
      await activateSchema(server.url, TASKS_SCHEMA);
      fail = true;
      const upload = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: TASKS_SCHEMA_V2 });
      expect(upload.status).toBe(400);
      expect(await upload.json()).toEqual({ errors: [{ message: 'the generated API does not build: generated SDL is broken', extensions: { code: 'BAD_SCHEMA' } }] });
      expect((await gql(server.url, '{ greeting }')).body).toEqual({ data: { greeting: 'types: Task,User' } });
    } finally {
      await server.close();
    }
  });
});

describe('serving', () => {
  it('swaps the schema under a request in flight: it finishes on the old schema, later requests use the new one', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    const server = await startTestServer({
      dataDir,
      buildSchema: (model) => {
        const version = model.types.has('Project') ? 'v2' : 'v1';
        return greetingSchema(async () => {
          if (version === 'v1') {
            started();
            await released;
          }
          return version;
        }, version === 'v1' ? 'onlyInV1' : 'onlyInV2');
      },
    });
    try {
      await activateSchema(server.url, TASKS_SCHEMA);
      const slow = gql(server.url, '{ greeting onlyInV1 }');
      await requestStarted;
      await activateSchema(server.url, TASKS_SCHEMA_V2);
      release();
      expect((await slow).body).toEqual({ data: { greeting: 'v1', onlyInV1: 'v1' } });

      expect((await gql(server.url, '{ greeting onlyInV2 }')).body).toEqual({ data: { greeting: 'v2', onlyInV2: 'v2' } });
      const stale = await gql(server.url, '{ greeting onlyInV1 }');
      expect(stale.status).toBe(400);
      expect(stale.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    } finally {
      await server.close();
    }
  });

  it('passes the request headers to the context factory and executes against the active schema', async () => {
    const server = await startTestServer({
      dataDir,
      buildSchema: () => greetingSchema('unused'),
      createContext: (services, request) => ({ greeting: `hello ${request.headers['x-name']} from ${services.store.kind}` }),
    });
    try {
      await activateSchema(server.url, TASKS_SCHEMA);
      const response = await gql(server.url, '{ greeting }', undefined, { 'x-name': 'ada' });
      expect(response.body).toEqual({ data: { greeting: 'hello ada from embedded' } });
    } finally {
      await server.close();
    }
  });

  it('finishes a request in flight when the server closes, then refuses connections', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    const server = await startTestServer({
      dataDir,
      buildSchema: () =>
        greetingSchema(async () => {
          started();
          await released;
          return 'finished';
        }),
    });
    await activateSchema(server.url, TASKS_SCHEMA);
    const inFlight = gql(server.url, '{ greeting }');
    await requestStarted;
    const closing = server.close();
    release();
    expect((await inFlight).body).toEqual({ data: { greeting: 'finished' } });
    await closing;
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('answers /health/ready with 503 while the store is not ready, even with a schema active', async () => {
    const store = await openEmbeddedStore(dataDir);
    let ready = true;
    const flaky = overriding(store, { ready: () => ready });
    const server = await startTestServer({ dataDir, store: flaky });
    try {
      await activateSchema(server.url, TASKS_SCHEMA);
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
      ready = false;
      const down = await fetch(`${server.url}/health/ready`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ status: 'unavailable', schema: true, storeReady: false, store: 'embedded' });
      ready = true;
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

/**
 * The embedded store on `dir`, made to fail reads of the stored schema with StoreUnavailableError (and
 * to report not ready) until `end()` is called, as MongoDB does while it is unreachable. `holdNextRead`
 * holds the answer of the next successful read of the stored schema (read already) until released.
 */
async function unreachableSchemaStore(dir: string): Promise<{ store: Store; end(): void; holdNextRead(): ReadGate }> {
  const store = await openEmbeddedStore(dir);
  let down = true;
  let gate: (ReadGate & { wait: Promise<void>; arrived(): void; finished(): void }) | undefined;
  const wrapped = overriding(store, {
    ready: () => !down,
    collection(name) {
      const collection = store.collection(name);
      if (name !== SYSTEM_COLLECTIONS.schema) return collection;
      return Object.assign(Object.create(collection) as Collection, {
        find: async (...args: Parameters<Collection['find']>) => {
          if (down) throw new StoreUnavailableError('connection refused');
          const held = gate;
          gate = undefined;
          if (!held) return collection.find(...args);
          const documents = await collection.find(...args);
          held.arrived();
          await held.wait;
          held.finished();
          return documents;
        },
      });
    },
  });
  return {
    store: wrapped,
    end: () => (down = false),
    holdNextRead() {
      let arrived = false;
      let finished = false;
      let release!: () => void;
      const wait = new Promise<void>((resolve) => (release = resolve));
      gate = { wait, release, arrived: () => (arrived = true), finished: () => (finished = true), waiting: () => arrived, done: () => finished };
      return gate;
    },
  };
}

/** Holds one read of the stored schema: `waiting()` once its answer is held, `done()` once released. */
interface ReadGate {
  waiting(): boolean;
  release(): void;
  done(): boolean;
}

/** Resolves once `condition()` holds, checking every few milliseconds (the test's time limit bounds it). */
/**
 * A schema with `greeting` (from the context when it has one, else from `greeting`) and, when named, a
 * second field `extraField` answering the same value.
 */
function greetingSchema(greeting: string | (() => Promise<string>), extraField?: string): Schema {
  const resolve = (_source: unknown, _args: unknown, context: { greeting?: string }) =>
    context.greeting ?? (typeof greeting === 'string' ? greeting : greeting());
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        greeting: { type: GraphQLString, resolve },
        ...(extraField ? { [extraField]: { type: GraphQLString, resolve } } : {}),
      },
    }),
  });
}
