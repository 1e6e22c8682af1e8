import { readFileSync } from 'node:fs';

/** How often the lambda process's resident memory is read. */
export const RESIDENT_MEMORY_CHECK_MS = 50;

/**
 * The resident memory of process `pid` in MB, from `/proc/<pid>/status` (VmRSS); undefined where there is
 * no such file (not Linux, or the process is gone).
 */
export function residentMemoryMb(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return undefined;
  }
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) / 1024 : undefined;
}

/**
 * Reads the resident memory of `pid` every RESIDENT_MEMORY_CHECK_MS and calls `onExceeded` (once) when it
 * is above `limitMb`. This bounds what the heap limit cannot: memory outside the V8 heap that the script
 * fills while it runs (a large typed array being written). Answers a function that stops the watch.
 */
export function watchResidentMemory(pid: number, limitMb: number, onExceeded: (residentMb: number) => void): () => void {
  const timer = setInterval(() => {
    const resident = residentMemoryMb(pid);
    if (resident !== undefined && resident > limitMb) {
      clearInterval(timer);
      onExceeded(resident);
    }
  }, RESIDENT_MEMORY_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
