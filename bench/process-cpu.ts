/**
 * CPU time of processes other than this one, read from Linux's /proc: what a service running in processes
 * of its own spends (PostGraphile's Node process, PostgreSQL's server and its backends). A process's figure
 * includes its children that have exited and been waited for (a backend that closed counts in the
 * postmaster's), so the CPU time of a process tree only grows, whatever comes and goes inside it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** The fields of /proc/<pid>/stat this module reads, in clock ticks. */
export interface ProcessTimes {
  parentPid: number;
  /** utime + stime: the process's own CPU time. */
  ownTicks: number;
  /** cutime + cstime: its exited children's, once waited for. */
  exitedChildrenTicks: number;
}

/**
 * Parses one /proc/<pid>/stat line. The second field (the command name, in parentheses) may itself hold
 * spaces and parentheses, so the fields are counted from its last `)`.
 */
export function parseProcessStat(line: string): ProcessTimes {
  const end = line.lastIndexOf(')');
  if (end < 0) throw new Error(`not a /proc/<pid>/stat line: "${line.slice(0, 80)}"`);
  // After ")": state (field 3), ppid (4), ..., utime (14), stime (15), cutime (16), cstime (17).
  const fields = line.slice(end + 2).split(' ');
  const field = (number: number): number => {
    const value = Number(fields[number - 3]);
    if (!Number.isInteger(value)) throw new Error(`field ${number} of a /proc/<pid>/stat line is not a number: "${line.slice(0, 120)}"`);
    return value;
  };
  return { parentPid: field(4), ownTicks: field(14) + field(15), exitedChildrenTicks: field(16) + field(17) };
}

/** The CPU time of `root` and of every process below it, in ticks, from each process's stat. */
export function treeTicks(root: number, processes: ReadonlyMap<number, ProcessTimes>): number {
  const children = new Map<number, number[]>();
  for (const [pid, times] of processes) {
    const siblings = children.get(times.parentPid) ?? [];
    siblings.push(pid);
    children.set(times.parentPid, siblings);
  }
  let ticks = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    const times = processes.get(pid);
    if (!times) continue;
    ticks += times.ownTicks + times.exitedChildrenTicks;
    pending.push(...(children.get(pid) ?? []));
  }
  return ticks;
}

/** Whether this machine has /proc/<pid>/stat (Linux); elsewhere other processes' CPU time is not counted. */
export const canReadProcessCpu = fs.existsSync('/proc/self/stat');

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 on Linux). */
function clockTicksPerSecond(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return ticksPerSecond;
}

function readProcesses(): Map<number, ProcessTimes> {
  const processes = new Map<number, ProcessTimes>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      processes.set(Number(entry), parseProcessStat(fs.readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return processes;
}

/** CPU time in µs of each named process tree (a name → its root pid), all read at one moment. */
export function processTreesCpuMicros(roots: Readonly<Record<string, number>>): Record<string, number> {
  const processes = readProcesses();
  const microsPerTick = 1_000_000 / clockTicksPerSecond();
  return Object.fromEntries(Object.entries(roots).map(([name, pid]) => [name, treeTicks(pid, processes) * microsPerTick]));
}
