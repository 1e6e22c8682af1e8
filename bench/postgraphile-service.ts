/**
 * PostGraphile as the bench runs it: bench/postgraphile/server.js in a Node process of its own (PostGraphile
 * 4 needs graphql 15, in that folder's own node_modules), with NODE_ENV=production as PostGraphile's
 * deployment advice has it, connected to the bench's PostgreSQL cluster. It writes the schema it serves to
 * bench/postgraphile/schema.graphql, which __tests__/bench/postgraphile-requests.test.ts checks the
 * translated requests against (git shows when it changes).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** How long PostGraphile may take to introspect the database and listen. */
const START_LIMIT_MS = 60_000;
/** How long it may take to close after SIGTERM before it is killed. */
const STOP_LIMIT_MS = 10_000;

export interface PostGraphileService {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/**
 * The folder of PostGraphile's package.json and server.js: bench/postgraphile in the source tree, found
 * from this file whether it runs compiled (dist/bench) or as TypeScript (bench).
 */
export function postgraphileFolder(): string {
  const candidates = [path.join(__dirname, 'postgraphile'), path.resolve(__dirname, '..', '..', 'bench', 'postgraphile')];
  const folder = candidates.find((candidate) => fs.existsSync(path.join(candidate, 'server.js')));
  if (!folder) throw new Error(`bench/postgraphile/server.js not found (looked in ${candidates.join(', ')})`);
  if (!fs.existsSync(path.join(folder, 'node_modules', 'postgraphile'))) {
    throw new Error(`PostGraphile is not installed: run \`npm --prefix ${path.relative(process.cwd(), folder) || '.'} ci\` first`);
  }
  return folder;
}

/** Starts server.js with a pool of `poolSize` connections to the database `databaseEnv` (libpq variables) names. */
export async function startPostGraphile(databaseEnv: Record<string, string>, poolSize: number): Promise<PostGraphileService> {
  const folder = postgraphileFolder();
  const child = spawn(process.execPath, [path.join(folder, 'server.js')], {
    cwd: folder,
    env: {
      ...process.env,
      ...databaseEnv,
      POSTGRAPHILE_POOL_SIZE: String(poolSize),
      POSTGRAPHILE_EXPORT_SCHEMA: path.join(folder, 'schema.graphql'),
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PostGraphile did not listen within ${START_LIMIT_MS} ms`)), START_LIMIT_MS);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`PostGraphile exited (code ${code}) before it listened`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { url: string }).url);
      } catch {
        reject(new Error(`PostGraphile printed "${line.slice(0, 200)}" instead of its address`));
      }
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    url,
    pid: child.pid!,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
      await exited;
      clearTimeout(killer);
    },
  };
}
