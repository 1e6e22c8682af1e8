/**
 * CPU time of other processes from /proc (bench/process-cpu.ts), as the PostGraphile comparison reads it
 * for PostGraphile's process and PostgreSQL's server processes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { canReadProcessCpu, parseProcessStat, processTreesCpuMicros, treeTicks, type ProcessTimes } from '../../bench/process-cpu.js';

/** A /proc/<pid>/stat line with the given name, parent, utime, stime, cutime and cstime (the rest as Linux prints them). */
const statLine = (name: string, parent: number, utime: number, stime: number, cutime: number, cstime: number) =>
  `4242 (${name}) S ${parent} 4242 4242 0 -1 4194560 1301 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 5305846 226533376 4094 18446744073709551615 1 1 0 0 0 0 0 16781312 1536 0 0 0 17 1 0 0 0 0 0`;

test.each<[string, string, ProcessTimes]>([
  ['a plain name', statLine('postgres', 1, 120, 30, 5, 2), { parentPid: 1, ownTicks: 150, exitedChildrenTicks: 7 }],
  ['a name with spaces', statLine('postgres: bench', 77, 1, 2, 0, 0), { parentPid: 77, ownTicks: 3, exitedChildrenTicks: 0 }],
  ['a name with parentheses and a ") " inside', statLine('a) S 9 (b', 12, 400, 100, 60, 40), { parentPid: 12, ownTicks: 500, exitedChildrenTicks: 100 }],
])('parseProcessStat: %s', (_, line, expected) => {
  expect(parseProcessStat(line)).toEqual(expected);
});

test.each([
  ['no parentheses', '4242 postgres S 1 2 3'],
  ['a field that is not a number', statLine('node', 1, 1, 2, 3, 4).replace(' 1 2 3 4 20 ', ' 1 x 3 4 20 ')],
])('parseProcessStat refuses a line with %s', (_, line) => {
  expect(() => parseProcessStat(line)).toThrow(/\/proc\/<pid>\/stat/);
});

const times = (parentPid: number, ownTicks: number, exitedChildrenTicks = 0): ProcessTimes => ({ parentPid, ownTicks, exitedChildrenTicks });

/** 100 the postmaster, 101–102 its backends, 103 a backend's child; 200 another process with its child 201. */
const processes = new Map<number, ProcessTimes>([
  [1, times(0, 1_000)],
  [100, times(1, 50, 30)],
  [101, times(100, 200)],
  [102, times(100, 300, 4)],
  [103, times(102, 7)],
  [200, times(1, 9_000)],
  [201, times(200, 800)],
]);

test.each<[string, number, number]>([
  ['a tree: the root, its children and grandchildren, and what their exited children spent', 100, 50 + 30 + 200 + 300 + 4 + 7],
  ['a process without children', 101, 200],
  ['another tree does not count', 200, 9_800],
  ['a process that is gone', 999, 0],
])('treeTicks: %s', (_, root, expected) => {
  expect(treeTicks(root, processes)).toBe(expected);
});

/** A child Node process that burns some CPU and answers, on each message, with its process.cpuUsage() in µs. */
function startBurningChild(): ChildProcess {
  const source = `
    let sum = 0;
    for (let i = 0; i < 3e7; i++) sum += i % 7;
    const report = () => { const { user, system } = process.cpuUsage(); process.send(user + system + (sum > 0 ? 0 : 1)); };
    process.on('message', (message) => { report(); if (message === 'exit') process.disconnect(); });
    report();
  `;
  return fork('-e', [source], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

const nextMessage = (child: ChildProcess) => new Promise<number>((resolve) => child.once('message', (value) => resolve(Number(value))));

// A process tree without children of its own, so that /proc's figure and process.cpuUsage count the same
// threads: this test process may have exited children (other suites in the same Jest worker spawn some).
(canReadProcessCpu ? test : test.skip)('processTreesCpuMicros reads a process in µs, as its process.cpuUsage counts it', async () => {
  const child = startBurningChild();
  const before = await nextMessage(child);
  const { child: read } = processTreesCpuMicros({ child: child.pid! });
  const threads = Number(/^Threads:\s+(\d+)$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 1);
  const afterMessage = nextMessage(child);
  child.send('exit');
  const after = await afterMessage;
  // /proc counts each thread's time in clock ticks (10 ms at 100 per second), process.cpuUsage exactly: each
  // of the child's threads (V8's, libuv's) may be a tick off.
  const margin = (threads + 2) * 10_000;
  expect(read).toBeGreaterThanOrEqual(before - margin);
  expect(read).toBeLessThanOrEqual(after + margin);
  // The loop alone took 100 ms or more: a reading of some other process (or of none) would not reach it.
  expect(read).toBeGreaterThan(before / 2);
  if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
});
