/**
 * Keeps two live processes (or two stores in one process) from opening the same data folder: a lock file
 * created exclusively, holding the owner's pid. A lock left by a process that no longer runs is taken over.
 * A lock naming this very process but not held by it is stale too: after a container restart the service
 * often runs with the same pid (1) as the process that left the lock.
 * (Liveness is checked by pid, so it protects against openers that share this host's process namespace.)
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'LOCK';

export class DataDirectoryLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`data folder ${dataDir} is already open in process ${pid}${pid === process.pid ? ' (this process)' : ''}; close that store first`);
    this.name = 'DataDirectoryLockedError';
  }
}

/** Lock files this process holds right now. */
const heldByThisProcess = new Set<string>();

export interface DirectoryLock {
  release(): void;
}

export function acquireDirectoryLock(dataDir: string): DirectoryLock {
  const lockPath = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      try {
        fs.writeSync(fd, String(process.pid));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      heldByThisProcess.add(lockPath);
      return { release: () => releaseIfOwned(lockPath) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(lockPath);
    const live = owner === process.pid ? heldByThisProcess.has(lockPath) : owner !== undefined && isRunning(owner);
    if (live) throw new DataDirectoryLockedError(dataDir, owner!);
    // Stale (dead owner, or a file left empty by a crash during creation): remove it and try again.
    fs.rmSync(lockPath, { force: true });
  }
  throw new Error(`could not lock data folder ${dataDir}: the lock file ${lockPath} keeps reappearing`);
}

function readOwner(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseIfOwned(lockPath: string): void {
  if (!heldByThisProcess.delete(lockPath)) return;
  if (readOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
}
