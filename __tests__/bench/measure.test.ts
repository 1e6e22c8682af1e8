/**
 * The API benchmark's arithmetic (bench/measure.ts): how long a run lasts, and how a slowdown is read
 * from rotating rounds.
 */
import { cpuSpent, runSeconds, slowdown, thisProcessCpuClock, type Measurement, type Run } from '../../bench/measure.js';

const settings = (seconds: number, rounds: number) => ({ warmUpSeconds: 1, seconds, rounds, connections: 10 });

test.each<[string, number, number, number, number]>([
  ['fast requests: the measured time split over the rounds', 5, 5, 0.002, 1],
  ['short rounds stay short when requests are fast', 2, 5, 0.05, 0.4],
  ['a request of 0.3 s: five of them, in whole seconds', 5, 5, 0.3, 2],
  ['a request of 0.8 s', 5, 5, 0.8, 4],
  ['long rounds already hold five requests', 30, 3, 1.5, 10],
])('runSeconds: %s', (_, seconds, rounds, slowest, expected) => {
  expect(runSeconds(settings(seconds, rounds), slowest)).toBe(expected);
});

const measurement = (requestsPerRun: number[]): Measurement => {
  const runs: Run[] = requestsPerRun.map((requests) => ({ requests, sent: requests, seconds: 1, p50: 1, p99: 2, failures: 0, cpuMicros: 1000 }));
  const total = requestsPerRun.reduce((sum, value) => sum + value, 0);
  return { requestsPerSecond: total / runs.length, p50: 1, p99: 2, cpuMsPerRequest: 1, roundTrips: 1, failures: 0, runs };
};

test.each<[string, number[], number[], number]>([
  ['the median of the rounds’ ratios', [100, 100, 50], [200, 300, 400], 3],
  ['below 1 when the first is faster', [400, 400, 400], [100, 200, 100], 0.25],
  ['a run that completed nothing: the ratio of the totals', [0, 2, 1], [30, 30, 30], 30],
])('slowdown: %s', (_, slower, faster, expected) => {
  expect(slowdown(measurement(slower), measurement(faster))).toBeCloseTo(expected, 10);
});

test.each<[string, Record<string, number>, Record<string, number>, Record<string, number>]>([
  ['each process by itself', { PostGraphile: 1_000, PostgreSQL: 50 }, { PostGraphile: 4_000, PostgreSQL: 950 }, { PostGraphile: 3_000, PostgreSQL: 900 }],
  ['a process first seen after the start counts from zero', { a: 10 }, { a: 10, b: 70 }, { a: 0, b: 70 }],
])('cpuSpent: %s', (_, before, after, expected) => {
  expect(cpuSpent(before, after)).toEqual(expected);
});

test('the default CPU clock reads this process, in µs', () => {
  const { user, system } = process.cpuUsage();
  const reading = thisProcessCpuClock();
  expect(Object.keys(reading)).toEqual(['this process']);
  expect(reading['this process']).toBeGreaterThanOrEqual(user + system);
});
