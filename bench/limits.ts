/**
 * What refusing a hostile operation costs the service, against an ordinary query: the real service
 * (createApp with default limits, over the embedded store in a temporary folder) on the federation demo's
 * schema, each request sent by the load generator in a process of its own. Prints requests/s, p50 and p99
 * per case and the service's RSS at the end; no assertions. Every hostile case must answer 400.
 * Run after `npm run build`: node dist/bench/limits.js   (BENCH_SECONDS=10, BENCH_CONNECTIONS=10)
 */
import type autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/server/app.js';
import { startServer } from '../src/server/listen.js';
import { createLogger } from '../src/server/logger.js';
import { openEmbeddedStore } from '../src/store/embedded/index.js';
import { generateLoad } from './load-generator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const SCHEMA = `type Mission @key(fields: "id") {
  id: ID!
  crew: [Astronaut]
  designation: String! @search(by: [hash])
}

type Astronaut @key(fields: "id") @extends {
  id: ID! @external
  missions: [Mission] @hasInverse(field: crew)
}
`;

interface Case {
  name: string;
  /** The HTTP status every answer must have. */
  status: number;
  /** The JSON request body, written out (JSON.stringify overflows on the deepest variable). */
  body: string;
}

function hostileCases(): Case[] {
  let crewMissions = 'designation';
  for (let i = 0; i < 20; i++) crewMissions = `crew { missions { ${crewMissions} } }`;
  const notChain = `${'{ not: '.repeat(999)}{ designation: "x" }${' }'.repeat(999)}`;
  const deepVariable = `${'{"not":'.repeat(100_000)}{"designation":"x"}${'}'.repeat(100_000)}`;
  const query = (text: string) => JSON.stringify({ query: text });
  return [
    { name: 'ordinary query', status: 200, body: query('{ queryMission(first: 10) { designation crew { id } } }') },
    { name: 'crew/missions x20 (cost)', status: 400, body: query(`{ queryMission { ${crewMissions} } }`) },
    { name: 'not x1000 literal (nesting)', status: 400, body: query(`{ queryMission(filter: ${notChain}) { designation } }`) },
    {
      name: 'not x100000 variable (input depth)',
      status: 400,
      body: `{"query":"query($f: MissionFilter) { queryMission(filter: $f) { designation } }","variables":{"f":${deepVariable}}}`,
    },
    { name: '20000 tokens (tokens)', status: 400, body: query(`{ ${'__typename '.repeat(20_000)}}`) },
  ];
}

async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, text: await response.text() };
}

async function main(): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-limits-'));
  const store = await openEmbeddedStore(folder);
  const app = await createApp({ store, logger: createLogger('silent'), initialSchema: SCHEMA });
  const server = await startServer({ app, port: 0, host: '127.0.0.1' });
  try {
    await post(server.url, JSON.stringify({ query: 'mutation { addAstronaut(input: [{ id: "a1" }]) { numUids } }' }));
    await post(server.url, JSON.stringify({ query: 'mutation { addMission(input: [{ designation: "Gemini 8", crew: [{ id: "a1" }] }, { designation: "Apollo 11", crew: [{ id: "a1" }] }]) { numUids } }' }));
    console.log(`${CONNECTIONS} connections, ${SECONDS} s per case; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at the start`);
    for (const benchCase of hostileCases()) {
      const { body } = benchCase;
      const check = await post(server.url, body);
      if (check.status !== benchCase.status) throw new Error(`${benchCase.name}: expected HTTP ${benchCase.status}, got ${check.status}: ${check.text.slice(0, 300)}`);
      const options: autocannon.Options = { url: `${server.url}/graphql`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: CONNECTIONS, duration: SECONDS };
      const result = await generateLoad(options);
      const rps = result.requests / result.seconds;
      console.log(
        `  ${benchCase.name.padEnd(36)} ${String(Buffer.byteLength(body)).padStart(8)} bytes  ${rps.toFixed(0).padStart(6)} req/s   p50 ${String(result.p50).padStart(4)} ms   p99 ${String(result.p99).padStart(4)} ms   HTTP ${benchCase.status}`,
      );
    }
    console.log(`service RSS at the end: ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
  } finally {
    await server.close();
    await store.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
