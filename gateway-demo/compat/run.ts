import { composeServices } from '@apollo/composition';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'graphql';
import { buildSchemaModel } from '../../src/sdl/build.js';
import { createApp } from '../../src/server/app.js';
import { startServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { seedCompatibilityData } from './seed.js';

/**
 * Apollo's subgraph compatibility suite (`@apollo/federation-subgraph-compatibility-tests`) against Autograph,
 * offline: Autograph serves the suite's `products` subgraph (products-fed2.graphql or, with `--fed1`,
 * products-fed1.graphql, plus products-lambda.js and the suite's data set), the suite's own `users` and
 * `inventory` subgraphs run from its package, `@apollo/composition` composes the three and `@apollo/gateway`
 * serves the supergraph where the suite expects its router (http://localhost:4000/). No rover, router or
 * docker. Prints one line per test of the suite and exits 0 when every test the schema's version allows
 * passed (a Federation 1 schema: the Federation 1 tests but those FEDERATION_1_OUT_OF_REACH names).
 */

const SUITE = dirname(require.resolve('@apollo/federation-subgraph-compatibility-tests/package.json'));
const PORTS = { gateway: 4000, products: 4001, users: 4002, inventory: 4003 } as const;

interface Closable {
  close(): Promise<void>;
}

export interface SuiteRow {
  assertion: string;
  fedVersion: number;
  required: boolean;
  passed: boolean;
}

/** The compatibility files sit beside the sources; compiled code runs from dist/gateway-demo/compat. */
function compatFile(name: string): string {
  const besideSource = join(__dirname, name);
  return existsSync(besideSource) ? besideSource : join(__dirname, '..', '..', '..', 'gateway-demo', 'compat', name);
}

async function startProducts(variant: 1 | 2): Promise<{ url: string } & Closable> {
  const folder = await mkdtemp(join(tmpdir(), 'autograph-compat-'));
  const store = await openEmbeddedStore(folder);
  const schema = await readFile(compatFile(variant === 2 ? 'products-fed2.graphql' : 'products-fed1.graphql'), 'utf8');
  const lambda = await readFile(compatFile('products-lambda.js'), 'utf8');
  const app = await createApp({ store, logger: createLogger('warn'), initialSchema: schema, initialLambda: lambda });
  const { model, errors } = buildSchemaModel(schema);
  if (!model) throw new Error(`the products schema does not build: ${JSON.stringify(errors)}`);
  await seedCompatibilityData(store, model);
  const server = await startServer({ app, port: PORTS.products, host: '127.0.0.1' });
  return {
    url: `${server.url}/graphql`,
    async close() {
      await server.close();
      await store.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** One of the suite's own subgraphs (a bundled Apollo Server), as a child process; resolves once it listens. */
function startSuiteSubgraph(name: 'users' | 'inventory', port: number): Promise<{ url: string } & Closable> {
  const child: ChildProcess = fork(join(SUITE, 'dist', 'subgraphs', name, 'index.js'), [], {
    env: { ...process.env, [`${name.toUpperCase()}_PORT`]: String(port) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const close = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the suite's ${name} subgraph exited with code ${code}`)));
    child.on('message', (message) => {
      if (message === 'ready') resolve({ url: `http://127.0.0.1:${port}/`, close });
    });
  });
}

async function serviceSdl(url: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ _service { sdl } }' }) });
  const body = (await response.json()) as { data?: { _service: { sdl: string } }; errors?: unknown[] };
  if (!body.data) throw new Error(`${url} did not answer _service: ${JSON.stringify(body.errors)}`);
  return body.data._service.sdl;
}

async function startSupergraphGateway(subgraphs: Array<{ name: string; url: string }>): Promise<Closable> {
  const services = await Promise.all(subgraphs.map(async ({ name, url }) => ({ name, url, typeDefs: parse(await serviceSdl(url)) })));
  const composed = composeServices(services);
  if (composed.errors) throw new Error(`composition failed:\n${composed.errors.map((error) => `  ${error.message}`).join('\n')}`);
  const server = new ApolloServer({ gateway: new ApolloGateway({ supergraphSdl: composed.supergraphSdl }) });
  await startStandaloneServer(server, { listen: { port: PORTS.gateway } });
  return { close: () => server.stop() };
}

export async function runCompatibilitySuite(variant: 1 | 2): Promise<SuiteRow[]> {
  const started: Closable[] = [];
  try {
    // The suite's subgraphs first: their processes keep this one alive while Autograph's lambda host starts.
    const users = await startSuiteSubgraph('users', PORTS.users);
    started.push(users);
    const inventory = await startSuiteSubgraph('inventory', PORTS.inventory);
    started.push(inventory);
    const products = await startProducts(variant);
    started.push(products);
    started.push(await startSupergraphGateway([
      { name: 'users', url: users.url },
      { name: 'inventory', url: inventory.url },
      { name: 'products', url: products.url },
    ]));
    const { runJest, TESTS } = require(join(SUITE, 'dist', 'testRunner.js')) as typeof import('@apollo/federation-subgraph-compatibility-tests/dist/testRunner');
    const { assertionPassed, assertions, rawResults } = await runJest(products.url);
    if (rawResults.numRuntimeErrorTestSuites > 0) throw new Error(`${rawResults.numRuntimeErrorTestSuites} test files of the suite did not run`);
    // The suite counts a test as passed when none of its assertions failed; one that never ran is not.
    const ran = (assertion: string) => assertions.some(({ fullName }) => fullName === assertion || fullName.startsWith(`${assertion} `));
    return TESTS.map(({ assertion, fedVersion, required }) => ({ assertion, fedVersion, required, passed: ran(assertion) && assertionPassed(assertion) }));
  } finally {
    for (const service of started.reverse()) await service.close();
  }
}

/** The results as a Markdown table, one row per test of the suite. */
export function resultsTable(rows: readonly SuiteRow[], variant: 1 | 2): string {
  const lines = [`| test (products schema: Federation ${variant}) | federation | required | result |`, '|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${row.assertion} | ${row.fedVersion} | ${row.required ? 'yes' : 'no'} | ${row.passed ? 'pass' : 'FAIL'} |`);
  return lines.join('\n');
}

/** Federation 1 tests a Federation 1 products schema cannot pass, and why. */
export const FEDERATION_1_OUT_OF_REACH: Readonly<Record<string, string>> = {
  '@key multiple': 'Federation 1 here allows one key of one field per type',
  '@key composite': 'Federation 1 here allows one key of one field per type',
  'repeatable @key': 'Federation 1 here allows one key of one field per type',
  '@key single': "it expects User.name from products, which the suite's users subgraph owns without @shareable; only @override (Federation 2) can move it",
};

/** The tests a products schema of this version is expected to pass. */
export function expectedToPass(rows: readonly SuiteRow[], variant: 1 | 2): SuiteRow[] {
  return rows.filter((row) => row.fedVersion <= variant && !(variant === 1 && row.assertion in FEDERATION_1_OUT_OF_REACH));
}

if (require.main === module) {
  const variant = process.argv.includes('--fed1') ? 1 : 2;
  runCompatibilitySuite(variant)
    .then((rows) => {
      console.log(resultsTable(rows, variant));
      process.exit(expectedToPass(rows, variant).every((row) => row.passed) ? 0 : 1);
    })
    .catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(2);
    });
}
