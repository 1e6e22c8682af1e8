/**
 * One variant of the observability benchmark, in a process of its own (a registered OpenTelemetry SDK is
 * process-wide): Autograph over the bench data, with metrics on or off, and tracing exported over OTLP/HTTP
 * exactly as the CLI does it when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (`startOtlpTraceExport` reads the
 * same `OTEL_*` variables: endpoint, `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`).
 *
 * It prints one JSON line when it serves (its URL and the getTask request bodies), then answers the
 * parent's lines: `cpu` (after sending the spans still buffered, so a run pays for its own spans' export),
 * `profile-start` and `profile-stop` (CPU time by part of observability, see observability-profile.ts) and
 * `instruments` (observability's own CPU time on synthetic requests); it stops when its standard input
 * closes.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { createObservability } from '../src/observe/index.js';
import { isOtlpExportConfigured } from '../src/observe/otlp-config.js';
import { startOtlpTraceExport, type TraceExport } from '../src/observe/otlp-tracing.js';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Collection, Store } from '../src/store/port.js';
import { BENCH_SCHEMA, loadData } from './api-data.js';
import { ProfileSession } from './observability-profile.js';
import { SCENARIOS, type RequestBody } from './scenarios.js';

export interface VariantSettings {
  metrics: boolean;
  /** The request log at `info`, written synchronously to /dev/null (as the CLI writes to its stdout). */
  requestLog: boolean;
  tasks: number;
}

/** What a variant's process says once it serves. */
export interface VariantReady {
  url: string;
  bodies: RequestBody[];
}

/** Synthetic requests timed for the instruments' own cost. */
const INSTRUMENT_REQUESTS = 4_000;
/** Observed and bare blocks of synthetic requests, alternated so that a change in machine load hits both. */
const INSTRUMENT_PAIRS = 11;
/** Synthetic requests between two turns of the event loop: a server answers about this many per turn under load. */
const YIELD_EVERY = 10;

/** A store that answers at once, so that only the decorators around it are timed. */
function instantStore(): Store {
  const collection: Collection = {
    name: 'Task',
    find: async () => [],
    count: async () => 0,
    aggregate: async () => [],
    findPerKey: async () => new Map(),
    insertMany: async () => undefined,
    updateMany: async () => ({ matched: 0, modified: 0 }),
    deleteMany: async () => 0,
  };
  return {
    kind: 'embedded',
    collection: () => collection,
    transaction: (work) => work({ id: 1 }),
    syncIndexes: async () => ({ created: [], dropped: [] }),
    listIndexes: async () => [],
    dropCollection: async () => false,
    // Its writes change nothing, so its feed never reports a change.
    watchChanges: () => () => undefined,
    openSnapshot: async () => ({ consistency: 'point-in-time', collections: [], documents: async function* () {}, close: async () => undefined }),
    ready: () => true,
    close: async () => undefined,
  };
}

/**
 * CPU time, in µs per request, that observability itself adds to a getTask-like request (one request
 * span, two store calls, the request metrics, the log line check, the spans' export) in this process: the
 * same synthetic requests run through the request observer and the decorated store, minus running them
 * bare, once per pair of alternated blocks. A loop of one process's own work is timed, so other jobs on
 * the machine move it less than a load over HTTP.
 */
export async function instrumentMicros(metrics: boolean, traceExport: TraceExport | undefined): Promise<number[]> {
  const observability = createObservability({ logger: createLogger('silent'), metrics, activeSchemaText: () => BENCH_SCHEMA });
  const store = instantStore();
  // Like the load's requests: no traceparent, so each variant's own sampler decides.
  const headers = { 'content-type': 'application/json' };
  const oneRequest = async (observed: boolean): Promise<void> => {
    const req = Object.assign(new EventEmitter(), { method: 'POST', url: '/graphql', headers }) as unknown as IncomingMessage;
    const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true, setHeader: () => res }) as unknown as ServerResponse;
    let done!: Promise<void>;
    const handler = (request: IncomingMessage, response: ServerResponse) => {
      done = (async () => {
        const tasks = (observed ? observability.decorate({ store }, request).store : store).collection('Task');
        await tasks.find({ _id: 'a' });
        await tasks.find({ _id: { $in: ['b'] } });
        const observation = observability.requests.observationOf(request);
        if (observation) Object.assign(observation, { operationType: 'query', operationName: 'GetTask' });
        response.emit('close');
      })();
    };
    (observed ? observability.requests.wrap(handler) : handler)(req, res);
    await done;
  };
  const time = async (observed: boolean): Promise<number> => {
    const before = process.cpuUsage();
    for (let i = 0; i < INSTRUMENT_REQUESTS; i += 1) {
      await oneRequest(observed);
      // Lets the batch span processor's exports (HTTP requests) run, as a server's event loop would.
      if (i % YIELD_EVERY === 0) await new Promise(setImmediate);
    }
    await traceExport?.forceFlush().catch((error: unknown) => process.stderr.write(`span export failed: ${String(error)}\n`));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / INSTRUMENT_REQUESTS;
  };
  await time(true);
  await time(false);
  const differences: number[] = [];
  for (let pair = 0; pair < INSTRUMENT_PAIRS; pair += 1) {
    // Each pair in the other order from the last, so neither always runs first.
    let observed: number;
    let bare: number;
    if (pair % 2 === 0) {
      observed = await time(true);
      bare = await time(false);
    } else {
      bare = await time(false);
      observed = await time(true);
    }
    differences.push(observed - bare);
  }
  return differences;
}

export async function serveVariant(settings: VariantSettings): Promise<void> {
  const traceExport = isOtlpExportConfigured(process.env) ? startOtlpTraceExport(process.env) : undefined;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-observability-'));
  const store = await openEmbeddedStore(folder);
  const logger = settings.requestLog
    ? createLogger('info', pino.destination({ dest: fs.openSync(os.devNull, 'w'), sync: true }))
    : createLogger('silent');
  const app = await createApp({ store, logger, initialSchema: BENCH_SCHEMA, metrics: settings.metrics });
  const data = await loadData(store, settings.tasks);
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  const getTask = SCENARIOS.find((scenario) => scenario.name === 'getTask')!;
  const ready: VariantReady = { url: server.url, bodies: getTask.bodies(data) };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  const answer = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);
  // Lines are answered in order, one at a time.
  let queue = Promise.resolve();
  let profile: ProfileSession | undefined;
  createInterface({ input: process.stdin }).on('line', (line) => {
    queue = queue.then(async () => {
      if (line === 'cpu') {
        // A failed export (collector too slow, too many exports pending) shows as spans missing at the collector.
        await traceExport?.forceFlush().catch((error: unknown) => process.stderr.write(`span export failed: ${String(error)}\n`));
        const usage = process.cpuUsage();
        answer({ cpuMicros: usage.user + usage.system, userMicros: usage.user });
      } else if (line === 'profile-start') {
        profile = new ProfileSession();
        await profile.start();
        answer({ profiling: true });
      } else if (line === 'profile-stop' && profile) {
        answer({ shares: await profile.stop() });
        profile = undefined;
      } else if (line === 'instruments') {
        answer({ instrumentMicros: await instrumentMicros(settings.metrics, traceExport) });
      }
    });
  });
  process.stdin.on('end', () => {
    void (async () => {
      await queue;
      await server.close();
      await traceExport?.shutdown();
      await store.close();
      fs.rmSync(folder, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}
