/**
 * How long building a schema's API holds the event loop, stage by stage, for schemas of many small types
 * (the figures behind sdl/limits.ts's defaults). Each stage is synchronous, so its duration is the time
 * every other client waits. Also runs `regexp` matching with the RE2 engine against the backtracking one.
 *
 *   npm run bench -- schema-build                  1,000 and 5,000 types (BENCH_SCHEMA_TYPES=1000,5000,10000 for more;
 *                                                  BENCH_FEDERATION=1 or 2 for entity types, see schemaOf)
 *
 * Then, over HTTP, a client asks GET /health every 5 ms while a schema at the default type limit (500) is
 * uploaded. The client runs in this process, so a stall that falls while it sleeps is not seen: the
 * longest wait it saw is a lower bound of the longest stall.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateApi } from '../src/api/generate.js';
import { linearRegexp, parseRegexp } from '../src/query/regexp.js';
import { buildExecutableSchema } from '../src/resolve/schema.js';
import { buildSchemaModel } from '../src/sdl/build.js';
import type { SchemaLimits } from '../src/sdl/limits.js';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import type { Store } from '../src/store/port.js';

const UNLIMITED: SchemaLimits = { maxBytes: Infinity, maxTypes: Infinity, maxFields: Infinity, maxDepth: 32 };
const TYPE_COUNTS = (process.env.BENCH_SCHEMA_TYPES ?? '1000,5000').split(',').map(Number);

/**
 * `BENCH_FEDERATION=1`: every type an entity (`@key(fields: "id")`); `=2`: a Federation 2 schema whose
 * types have two keys, one composite, and a `@shareable` field. Unset: no federation directives.
 */
const FEDERATION = process.env.BENCH_FEDERATION;
const FEDERATION_2_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])\n';

/** Small types as a user writes them: an ID, a searchable string, a number. */
function schemaOf(types: number): string {
  const keys = FEDERATION === '1' ? ' @key(fields: "id")' : FEDERATION === '2' ? ' @key(fields: "id") @key(fields: "name n")' : '';
  const shareable = FEDERATION === '2' ? ' @shareable' : '';
  const body = Array.from({ length: types }, (_, i) => `type T${i}${keys} {\n  id: ID!\n  name: String @search(by: [hash])\n  n: Int${shareable}\n}`).join('\n');
  return FEDERATION === '2' ? FEDERATION_2_LINK + body : body;
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

/** Like `timed`, for a build that pauses between its stages (nothing else runs here meanwhile). */
async function timedAsync<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

async function benchSchema(types: number): Promise<void> {
  const source = schemaOf(types);
  const model = timed(() => buildSchemaModel(source, UNLIMITED));
  if (!model.value.model) throw new Error(`the bench schema does not build: ${JSON.stringify(model.value.errors.slice(0, 3))}`);
  const api = timed(() => generateApi(model.value.model!));
  // The resolvers are only attached, never called: no store is needed.
  const executable = await timedAsync(() => buildExecutableSchema(model.value.model!, { store: {} as Store } as never));
  const total = model.ms + api.ms + executable.ms;
  console.log(
    `${String(types).padStart(6)} types  ${String(Buffer.byteLength(source)).padStart(8)} B  ` +
      `parse+model ${model.ms.toFixed(0).padStart(6)} ms  generate ${api.ms.toFixed(0).padStart(6)} ms  ` +
      `executable schema ${executable.ms.toFixed(0).padStart(6)} ms  total ${total.toFixed(0).padStart(6)} ms  ` +
      `(generated SDL ${(api.value.sdl.length / 1e6).toFixed(1)} MB)`,
  );
}

function benchRegexp(): void {
  const spec = parseRegexp('bench regexp', '/(a+)+$/');
  const matcher = linearRegexp(spec);
  for (const length of [20, 24, 1000, 100_000]) {
    const text = 'a'.repeat(length) + '!';
    const re2 = timed(() => matcher.test(text));
    // The backtracking engine doubles its time per character: run it only where it still ends.
    const backtracking = length <= 24 ? timed(() => new RegExp(spec.pattern).test(text)) : undefined;
    console.log(
      `/(a+)+$/ against ${String(length + 1).padStart(6)} chars: RE2 ${re2.ms.toFixed(2).padStart(8)} ms` +
        (backtracking ? `   JavaScript RegExp ${backtracking.ms.toFixed(2).padStart(8)} ms` : ''),
    );
  }
}

/** Uploads a schema of `types` types while polling /health; prints the upload time and the longest /health answer. */
async function benchUploadWhileServing(types: number): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-schema-bench-'));
  const store = await openEmbeddedStore(dataDir);
  const app = await createApp({ store, logger: createLogger('silent') });
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  try {
    await fetch(`${server.url}/admin/schema`, { method: 'POST', body: 'type Warmup { id: ID! name: String }' });
    let polling = true;
    let longest = 0;
    let answered = 0;
    const poller = (async () => {
      while (polling) {
        const start = performance.now();
        await (await fetch(`${server.url}/health`)).text();
        longest = Math.max(longest, performance.now() - start);
        answered++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const start = performance.now();
    const response = await fetch(`${server.url}/admin/schema`, { method: 'POST', body: schemaOf(types) });
    const uploadMs = performance.now() - start;
    polling = false;
    await poller;
    console.log(
      `upload of ${types} types over HTTP: HTTP ${response.status} after ${uploadMs.toFixed(0)} ms; ` +
        `${answered} /health answers meanwhile, the longest took ${longest.toFixed(0)} ms`,
    );
  } finally {
    await server.close();
    await app.close();
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log('=== schema build: time each stage holds the event loop ===');
  for (const types of TYPE_COUNTS) await benchSchema(types);
  console.log('\n=== regexp: linear time ===');
  benchRegexp();
  console.log('\n=== schema upload while a client polls /health ===');
  await benchUploadWhileServing(500);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
