/**
 * The data set of the API benchmark: 1,000 Users and a chosen number of Tasks, the same on every run
 * (deterministic ids and values), so that the Store and the in-memory baseline can each be filled from it
 * without one reading the other.
 *
 * The Store is written straight through its port (not through `addTask`), in the exact storage layout the
 * service uses: ObjectId-hex `_id`s, DateTime as ISO strings, the `_term_title` search field computed by
 * query/'s `searchFieldsFor`, the stored edge on `Task.user`. A batch of 10,000 documents per
 * `insertMany` loads 100,000 Tasks in seconds.
 */
import { searchFieldsFor } from '../src/query/text-index.js';
import { buildSchemaModel } from '../src/sdl/build.js';
import type { SchemaModel } from '../src/sdl/model.js';
import type { Store, StoredDocument } from '../src/store/port.js';
import { InMemoryTables } from './in-memory-tables.js';

export const BENCH_SCHEMA = `type Task {
  id: ID!
  title: String! @search(by: [term])
  priority: Int @search
  completed: Boolean! @search
  createdAt: DateTime @search
  user: User!
}

type User {
  username: String! @id
  name: String
  tasks: [Task] @hasInverse(field: user)
}
`;

export const USERS = 1_000;
const BATCH = 10_000;

/** The term the filtered scenarios look for, and the share of tasks whose title holds it. */
export const RARE_TERM = 'urgent';
export const RARE_TERM_SHARE = 0.017;

/** Title words besides RARE_TERM; a title takes three, so each of these is in roughly 3/39 of the titles. */
const WORDS = [
  'review', 'invoice', 'deploy', 'meeting', 'report', 'design', 'budget', 'client', 'backup', 'release',
  'hiring', 'audit', 'draft', 'email', 'launch', 'plan', 'research', 'support', 'testing', 'update',
  'refactor', 'migrate', 'security', 'training', 'survey', 'contract', 'roadmap', 'sprint', 'cleanup', 'printer',
  'office', 'travel', 'payroll', 'website', 'mobile', 'database', 'network', 'license', 'feedback',
];

export interface BenchUser {
  _id: string;
  username: string;
  name: string;
}

export interface BenchTask {
  _id: string;
  title: string;
  priority: number;
  completed: boolean;
  /** ISO 8601, as the service stores a DateTime. */
  createdAt: string;
  /** The user's `_id`. */
  user: string;
}

export function usernameOf(index: number): string {
  return `user${String(index).padStart(4, '0')}`;
}

/**
 * ObjectId-hex ids whose order is the order of creation (as the ObjectIds one process makes are): a fixed
 * timestamp of 2024-01-01 (so every id the services generate later sorts after them), a kind byte, a counter.
 */
const idOf = (kind: 'user' | 'task', index: number): string =>
  `65920080${kind === 'user' ? '0000000001' : '0000000002'}${index.toString(16).padStart(6, '0')}`;

/** A deterministic pseudo-random sequence (LCG), so every run loads the same data. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export function modelOf(schema: string): SchemaModel {
  const { model, errors } = buildSchemaModel(schema);
  if (!model) throw new Error(`bench schema is invalid: ${errors.map((error) => error.message).join('; ')}`);
  return model;
}

export function benchUsers(): BenchUser[] {
  return Array.from({ length: USERS }, (_, i) => ({ _id: idOf('user', i), username: usernameOf(i), name: `User ${i}` }));
}

/** The `count` tasks in batches of `batchSize`, in order of creation; task i belongs to user i mod USERS. */
export function* benchTaskBatches(count: number, batchSize = BATCH): Generator<BenchTask[]> {
  const random = sequence(42);
  const start = Date.UTC(2024, 0, 1);
  for (let offset = 0; offset < count; offset += batchSize) {
    const batch: BenchTask[] = [];
    for (let i = offset; i < Math.min(offset + batchSize, count); i++) {
      const rare = random() < RARE_TERM_SHARE ? `${RARE_TERM} ` : '';
      const words = [0, 1, 2].map(() => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
      batch.push({
        _id: idOf('task', i),
        title: `${rare}${words} #${i}`,
        priority: 1 + Math.floor(random() * 5),
        completed: random() < 0.5,
        createdAt: new Date(start + i * 60_000).toISOString(),
        user: idOf('user', i % USERS),
      });
    }
    yield batch;
  }
}

export interface LoadedData {
  userIds: string[];
  taskIds: string[];
}

/** Writes the users and `tasks` tasks; the schema must be active already (so the indexes exist and are kept up). */
export async function loadData(store: Store, tasks: number): Promise<LoadedData> {
  const taskType = modelOf(BENCH_SCHEMA).types.get('Task')!;
  const users = benchUsers();
  await store.collection('User').insertMany(users.map((user) => ({ ...user })));
  const taskIds: string[] = [];
  for (const batch of benchTaskBatches(tasks)) {
    const documents: StoredDocument[] = batch.map((task) => ({ ...task, ...(searchFieldsFor(taskType, { title: task.title }) as Record<string, string[]>) }));
    await store.collection('Task').insertMany(documents);
    for (const task of batch) taskIds.push(task._id);
  }
  return { userIds: users.map((user) => user._id), taskIds };
}

/** The same users and `tasks` tasks as `loadData` writes, in the in-memory baseline's tables. */
export function fillInMemoryTables(tasks: number): InMemoryTables {
  const tables = new InMemoryTables();
  for (const user of benchUsers()) tables.addUser(user);
  for (const batch of benchTaskBatches(tasks)) for (const task of batch) tables.addTask(task);
  return tables;
}
