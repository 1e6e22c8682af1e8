/**
 * A PostgreSQL cluster of its own for one bench run: `initdb` in a temporary folder, the server started
 * with `pg_ctl` on a free port on 127.0.0.1 with its unix socket in that folder, and, at the end, stopped
 * and the folder removed. Settings are PostgreSQL's defaults (durable commits: fsync and synchronous_commit
 * on) except where it listens, UTC as its time zone, and a C locale, so that text sorts by code point as
 * Autograph's ids do.
 *
 * PostgreSQL refuses to run as root. Run as root (as on the project's machines), the cluster's programs
 * run as the unprivileged user BENCH_POSTGRES_USER (default `postgres`, which Debian's postgresql package
 * creates; otherwise create one with `useradd --system --no-create-home postgres`); the clients (psql,
 * PostGraphile) stay in the bench's user and connect as the database role `postgres` over the socket,
 * which the cluster trusts. BENCH_POSTGRES_BIN names the folder of initdb, pg_ctl and psql.
 */
import { spawn, spawnSync, execFileSync, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

const BIN = process.env.BENCH_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
/** The database role the clients connect as: the superuser initdb creates. */
const ROLE = 'postgres';

export interface PostgresCluster {
  /** The libpq variables that reach the database (PGHOST is the socket's folder): for psql and the pg driver. */
  env: Record<string, string>;
  /** `select version()`. */
  version: string;
  /** The operating-system user its server runs as. */
  osUser: string;
  /** The postmaster's process id: the root of every server process of the cluster. */
  postmasterPid: number;
  /** Runs psql on the database with `args`, its standard input fed from `input`; answers its standard output. */
  psql(args: string[], input?: Iterable<string>): Promise<string>;
  /** Stops the server and removes the folder (synchronous, so that a signal handler can call it too). */
  stop(): void;
}

interface OsUser {
  name: string;
  /** Set when the bench runs as root: the ids to run the cluster's programs as. */
  ids?: { uid: number; gid: number };
}

function clusterUser(): OsUser {
  if (process.getuid?.() !== 0) return { name: os.userInfo().username };
  const name = process.env.BENCH_POSTGRES_USER ?? 'postgres';
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { name, ids: { uid, gid } };
  } catch {
    throw new Error(
      `PostgreSQL does not run as root, and there is no user "${name}" to run it as: create one ` +
        `(useradd --system --no-create-home ${name}) or name an unprivileged user in BENCH_POSTGRES_USER`,
    );
  }
}


/** Runs one of the cluster's programs as its user; throws with its output if it fails. */
function runAsClusterUser(user: OsUser, program: string, args: string[], cwd: string): void {
  const result = spawnSync(path.join(BIN, program), args, { cwd, encoding: 'utf8', ...user.ids });
  if (result.error) throw new Error(`${program} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
}

function runPsql(env: Record<string, string>, args: string[], input?: Iterable<string>): Promise<string> {
  const options: SpawnOptions = { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] };
  const child = spawn(path.join(BIN, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', ...args], options);
  let output = '';
  let errors = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`psql ${args.join(' ').slice(0, 200)} failed (exit ${code}): ${errors}`));
    });
  });
  const fed = feed(child.stdin!, input ?? []);
  return Promise.all([fed, exited]).then(([, answer]) => answer);
}

/** Writes every chunk of `input` to `stream`, waiting whenever its buffer is full, then ends it. */
async function feed(stream: NodeJS.WritableStream, input: Iterable<string>): Promise<void> {
  // psql may exit early (an error) and close its input: its exit code then tells what went wrong.
  stream.on('error', () => undefined);
  for (const chunk of input) {
    if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
  }
  stream.end();
}

/** Starts a new cluster with one empty database, `database`. */
export async function startPostgresCluster(database: string): Promise<PostgresCluster> {
  if (!fs.existsSync(path.join(BIN, 'initdb'))) {
    throw new Error(`no PostgreSQL in ${BIN}: install it (apt-get install postgresql-15) or set BENCH_POSTGRES_BIN to the folder of initdb, pg_ctl and psql`);
  }
  const user = clusterUser();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-bench-postgres-'));
  if (user.ids) fs.chownSync(folder, user.ids.uid, user.ids.gid);
  const dataDir = path.join(folder, 'data');
  const logFile = path.join(folder, 'server.log');
  let running = false;
  const stop = (): void => {
    if (running) spawnSync(path.join(BIN, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'fast', '-w'], { cwd: folder, stdio: 'ignore', ...user.ids });
    running = false;
    fs.rmSync(folder, { recursive: true, force: true });
  };
  try {
    // --no-sync: only the creation of the cluster skips fsync; the server's commits are durable.
    runAsClusterUser(user, 'initdb', ['-D', dataDir, '-U', ROLE, '--auth=trust', '--locale=C', '--encoding=UTF8', '--no-sync'], folder);
    const port = await freePort();
    fs.appendFileSync(
      path.join(dataDir, 'postgresql.conf'),
      `\n# autograph bench\nlisten_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = '${folder}'\ntimezone = 'UTC'\n`,
    );
    try {
      runAsClusterUser(user, 'pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w'], folder);
    } catch (error) {
      const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
      throw new Error(`${(error as Error).message}\nserver log:\n${log}`);
    }
    running = true;
    const env = { PGHOST: folder, PGPORT: String(port), PGUSER: ROLE, PGDATABASE: database };
    await runPsql({ ...env, PGDATABASE: 'postgres' }, ['-c', `create database ${database}`]);
    const version = (await runPsql(env, ['-A', '-t', '-c', 'select version()'])).trim();
    const postmasterPid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { env, version, osUser: user.name, postmasterPid, psql: (args, input) => runPsql(env, args, input), stop };
  } catch (error) {
    stop();
    throw error;
  }
}
