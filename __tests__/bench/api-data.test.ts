/**
 * The benchmark's data set (bench/api-data.ts) is the same on every run, and its ids sort in order of
 * creation: the in-memory baseline relies on that to give "no order" as Autograph does (by `_id`).
 */
import { ObjectId } from 'mongodb';
import { benchTaskBatches, benchUsers, USERS } from '../../bench/api-data.js';

const tasksOf = (count: number, batchSize?: number) => [...benchTaskBatches(count, batchSize)].flat();

test('the same tasks on every call, whatever the batch size', () => {
  expect(tasksOf(2_500, 1_000)).toEqual(tasksOf(2_500));
  expect([...benchTaskBatches(2_500, 1_000)].map((batch) => batch.length)).toEqual([1_000, 1_000, 500]);
});

test('a larger data set begins with the smaller one', () => {
  expect(tasksOf(3_000).slice(0, 1_000)).toEqual(tasksOf(1_000));
});

test.each([
  ['users', () => benchUsers().map((user) => user._id)],
  ['tasks', () => tasksOf(5_000).map((task) => task._id)],
])('%s: valid ObjectId hex, strictly increasing', (_, ids) => {
  const all = ids();
  for (const id of all) expect(ObjectId.isValid(id) && new ObjectId(id).toHexString() === id).toBe(true);
  for (let i = 1; i < all.length; i++) expect(all[i]! > all[i - 1]!).toBe(true);
});

test('ids the services make later sort after every loaded one', () => {
  const lastTask = tasksOf(1).at(-1)!._id;
  expect(new ObjectId().toHexString() > lastTask).toBe(true);
  expect(benchUsers().at(-1)!._id < tasksOf(1)[0]!._id).toBe(true);
});

test('task i belongs to user i mod 1,000, created a minute after task i - 1', () => {
  const users = benchUsers();
  const tasks = tasksOf(2_001);
  expect(users).toHaveLength(USERS);
  expect(users[7]).toEqual({ _id: users[7]!._id, username: 'user0007', name: 'User 7' });
  expect(tasks[2_000]!.user).toBe(users[0]!._id);
  expect(tasks[1_007]!.user).toBe(users[7]!._id);
  expect(Date.parse(tasks[1]!.createdAt) - Date.parse(tasks[0]!.createdAt)).toBe(60_000);
  expect(tasks[0]!.createdAt).toBe('2024-01-01T00:00:00.000Z');
});
