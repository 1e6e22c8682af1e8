/**
 * What the change report costs an upload (issue 18): the pure diff of two schemas (user model, generated
 * API through graphql-js, indexes) next to building the executable schema, and the stored-data checks of a
 * dry run over a large collection on the embedded store, best case (the first object answers) and worst
 * case (no object matches, so the existence query reads them all).
 *
 *   npm run bench -- schema-changes        500 and 2,000 types; 100,000 stored objects
 *                                          (BENCH_SCHEMA_TYPES=500,2000 and BENCH_OBJECTS=1000000 for others)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildExecutableSchema } from '../src/resolve/schema.js';
import { diffApis } from '../src/schema-changes/api-diff.js';
import { diffIndexes } from '../src/schema-changes/index-diff.js';
import { diffModels } from '../src/schema-changes/model-diff.js';
import { buildSchemaModel } from '../src/sdl/build.js';
import type { SchemaLimits } from '../src/sdl/limits.js';
import type { SchemaModel } from '../src/sdl/model.js';
import { createApp } from '../src/server/app.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Store, StoredDocument } from '../src/store/port.js';

const UNLIMITED: SchemaLimits = { maxBytes: Infinity, maxTypes: Infinity, maxFields: Infinity, maxDepth: 32 };
const TYPE_COUNTS = (process.env.BENCH_SCHEMA_TYPES ?? '500,2000').split(',').map(Number);
const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 100_000);
const INSERT_BATCH = 10_000;

function schemaOf(types: number, extraField: string): string {
  return Array.from({ length: types }, (_, i) => `type T${i} {\n  id: ID!\n  name: String @search(by: [hash])\n  n: Int\n${extraField}}`).join('\n');
}

function modelOf(source: string): SchemaModel {
  const built = buildSchemaModel(source, UNLIMITED);
  if (!built.model) throw new Error(`the bench schema does not build: ${JSON.stringify(built.errors.slice(0, 3))}`);
  return built.model;
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

/** The diff between a schema and the same one with a field added to every type and `n` retyped. */
async function benchDiff(types: number): Promise<void> {
  const before = modelOf(schemaOf(types, ''));
  const after = modelOf(schemaOf(types, '  note: String\n').replace(/n: Int/g, 'n: Float'));
  const services = { store: {} as Store } as never;
  const start = performance.now();
  const [oldSchema, newSchema] = [await buildExecutableSchema(before, services), await buildExecutableSchema(after, services)];
  const buildMs = (performance.now() - start) / 2;
  const models = timed(() => diffModels(before, after));
  let longestStage = 0;
  let stageStart = performance.now();
  const pause = async () => {
    longestStage = Math.max(longestStage, performance.now() - stageStart);
    await new Promise((resolve) => setImmediate(resolve));
    stageStart = performance.now();
  };
  const apiStart = performance.now();
  const apis = { value: await diffApis(oldSchema, newSchema, pause), ms: performance.now() - apiStart };
  longestStage = Math.max(longestStage, performance.now() - stageStart);
  const indexes = timed(() => diffIndexes(before, after));
  console.log(
    `${String(types).padStart(5)} types: executable schema ${buildMs.toFixed(0).padStart(5)} ms | diff: models ${models.ms.toFixed(1).padStart(6)} ms, ` +
      `generated APIs ${apis.ms.toFixed(0).padStart(5)} ms, longest stage ${longestStage.toFixed(0).padStart(5)} ms ` +
      `(${apis.value.breaking.length} breaking, ${apis.value.dangerous.length} dangerous), ` +
      `indexes ${indexes.ms.toFixed(1).padStart(5)} ms`,
  );
}

const TASKS = `type Task {
  id: ID!
  label: String!
  done: Boolean
  status: Status
}
enum Status { OPEN CLOSED }
`;

async function fill(store: Store, objects: number): Promise<void> {
  const tasks = store.collection('Task');
  for (let first = 0; first < objects; first += INSERT_BATCH) {
    const batch: StoredDocument[] = [];
    for (let i = first; i < Math.min(objects, first + INSERT_BATCH); i++) {
      batch.push({ _id: `t${String(i).padStart(8, '0')}`, label: `task ${i}`, done: i % 2 === 0, status: 'OPEN' });
    }
    await tasks.insertMany(batch);
  }
}

/** Dry runs over `OBJECTS` stored tasks: each case's wall time, and how many stored-data problems it found. */
async function benchStoredChecks(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-schema-changes-bench-'));
  const store = await openEmbeddedStore(dataDir);
  const app = await createApp({ store, logger: createLogger('silent') });
  try {
    const activated = await app.activateSchema(TASKS);
    if (!activated.ok) throw new Error(JSON.stringify(activated.errors));
    const fillStart = performance.now();
    await fill(store, OBJECTS);
    console.log(`stored ${OBJECTS.toLocaleString('en')} Task objects in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);
    const cases: Array<[string, string]> = [
      ['no change', TASKS],
      ['rename label -> title (first object answers both queries)', TASKS.replace('label: String!', 'title: String!')],
      ['done made non-null (every object has it: a full read)', TASKS.replace('done: Boolean', 'done: Boolean!')],
      ['enum value CLOSED removed (no object holds it: a full read)', TASKS.replace('OPEN CLOSED', 'OPEN')],
    ];
    for (const [name, text] of cases) {
      const start = performance.now();
      const result = await app.dryRunSchema(text);
      const ms = performance.now() - start;
      const problems = result.ok ? result.report.storedData.length : `rejected: ${JSON.stringify(result.errors)}`;
      console.log(`dry run, ${name.padEnd(60)} ${ms.toFixed(0).padStart(6)} ms, stored-data problems: ${problems}`);
    }
  } finally {
    await app.close();
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log('=== change report: pure diff next to the schema build ===');
  for (const types of TYPE_COUNTS) await benchDiff(types);
  console.log(`\n=== stored-data checks of a dry run, embedded store ===`);
  await benchStoredChecks();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
