/**
 * The data set of the API benchmark: 1,000 Users and 100,000 Tasks, written straight through the Store
 * port (not through `addTask`), in the exact storage layout the service uses: ObjectId-hex `_id`s,
 * DateTime as ISO strings, the `_term_title` search field computed by query/'s `searchFieldsFor`, the
 * stored edge on `Task.user`. A batch of 10,000 documents per `insertMany` loads it in seconds.
 */
import { ObjectId } from 'mongodb';
import { searchFieldsFor } from '../src/query/text-index.js';
import { buildSchemaModel } from '../src/sdl/build.js';
import type { SchemaModel } from '../src/sdl/model.js';
import type { Store, StoredDocument } from '../src/store/port.js';

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
export const TASKS = Number(process.env.BENCH_TASKS ?? 100_000);
const BATCH = 10_000;

/** Title words; a task title takes three, so a term matches roughly 3/40 of the tasks. */
const WORDS = [
  'urgent', 'review', 'invoice', 'deploy', 'meeting', 'report', 'design', 'budget', 'client', 'backup',
  'release', 'hiring', 'audit', 'draft', 'email', 'launch', 'plan', 'research', 'support', 'testing',
  'update', 'refactor', 'migrate', 'security', 'training', 'survey', 'contract', 'roadmap', 'sprint', 'cleanup',
  'printer', 'office', 'travel', 'payroll', 'website', 'mobile', 'database', 'network', 'license', 'feedback',
];

export function usernameOf(index: number): string {
  return `user${String(index).padStart(4, '0')}`;
}

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

export interface LoadedData {
  userIds: string[];
  taskIds: string[];
}

/** Writes the users and tasks; the schema must be active already (so the indexes exist and are kept up). */
export async function loadData(store: Store): Promise<LoadedData> {
  const model = modelOf(BENCH_SCHEMA);
  const taskType = model.types.get('Task')!;
  const users: StoredDocument[] = Array.from({ length: USERS }, (_, i) => ({
    _id: new ObjectId().toHexString(),
    username: usernameOf(i),
    name: `User ${i}`,
  }));
  await store.collection('User').insertMany(users);

  const random = sequence(42);
  const start = Date.UTC(2024, 0, 1);
  const taskIds: string[] = [];
  for (let offset = 0; offset < TASKS; offset += BATCH) {
    const batch: StoredDocument[] = [];
    for (let i = offset; i < Math.min(offset + BATCH, TASKS); i++) {
      const title = [0, 1, 2].map(() => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + ` #${i}`;
      const values = {
        title,
        priority: 1 + Math.floor(random() * 5),
        completed: random() < 0.5,
        createdAt: new Date(start + i * 60_000).toISOString(),
        user: users[i % USERS]!._id,
      };
      const _id = new ObjectId().toHexString();
      taskIds.push(_id);
      batch.push({ _id, ...values, ...(searchFieldsFor(taskType, { title }) as Record<string, string[]>) });
    }
    await store.collection('Task').insertMany(batch);
  }
  return { userIds: users.map((user) => user._id), taskIds };
}
