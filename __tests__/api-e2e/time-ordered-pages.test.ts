import { gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { SEARCHABLE_TASK_SCHEMA, type SeedTask } from './schemas';

/**
 * Issue 17, "open tasks with a term, newest first, first 20": tasks created in the order of their
 * `createdAt` let the embedded store read such a page off natural order instead of sorting every match.
 * The pages must be what the documented order gives (newest first, ties by ID in creation order here),
 * computed from the seed, also after writes that put an older task last and move one task's time.
 */

/** Dgraph's DateTime answer: UTC, whole seconds. */
const answered = (iso: string): string => iso.replace('.000Z', 'Z');
const minute = (n: number): string => new Date(Date.UTC(2024, 0, 1, 0, n)).toISOString();

/** 60 tasks in time order, two per minute (ties), `urgent` in every third title. */
const SEED: SeedTask[] = Array.from({ length: 60 }, (_, i) => ({
  title: `${i % 3 === 0 ? 'urgent ' : ''}task ${i}`,
  completed: i % 4 === 0,
  priority: i % 5,
  createdAt: minute(Math.floor(i / 2)),
}));

let server: TestServer;
/** Every task as stored, in creation order (the order of their generated IDs). */
let created: Array<SeedTask & { id: string }> = [];

async function data(query: string, variables?: Record<string, unknown>): Promise<any> {
  const { body } = await gql(server.url, query, variables);
  if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function add(tasks: SeedTask[]): Promise<void> {
  const result = await data('mutation($input: [AddTaskInput!]!) { addTask(input: $input) { task { id } } }', { input: tasks });
  created.push(...tasks.map((task, i) => ({ ...task, id: result.addTask.task[i].id as string })));
}

beforeAll(async () => {
  server = await startTestServer({ initialSchema: SEARCHABLE_TASK_SCHEMA });
  created = [];
  for (let i = 0; i < SEED.length; i += 20) await add(SEED.slice(i, i + 20));
});

afterAll(async () => {
  await server?.close();
});

interface Case {
  args: string;
  keep: (task: SeedTask) => boolean;
  direction: 1 | -1;
  first: number;
  offset: number;
}

const CASES: Case[] = [
  { args: 'filter: { title: { anyofterms: "urgent" }, completed: false }, order: { desc: createdAt }, first: 5', keep: (task) => task.title.startsWith('urgent') && !task.completed, direction: -1, first: 5, offset: 0 },
  { args: 'order: { desc: createdAt }, first: 3, offset: 2', keep: () => true, direction: -1, first: 3, offset: 2 },
  { args: 'filter: { completed: true }, order: { asc: createdAt }, first: 4, offset: 1', keep: (task) => task.completed, direction: 1, first: 4, offset: 1 },
  { args: 'filter: { priority: { ge: 3 } }, order: { desc: createdAt }, first: 7', keep: (task) => task.priority >= 3, direction: -1, first: 7, offset: 0 },
  { args: 'filter: { title: { anyofterms: "nothing" } }, order: { desc: createdAt }, first: 5', keep: () => false, direction: -1, first: 5, offset: 0 },
];

/** The documented order: by createdAt, then by ID ascending (the IDs ascend in creation order here). */
function expectedPage(one: Case): Array<{ title: string; createdAt: string }> {
  const order = created.map((task, index) => ({ task, index })).filter(({ task }) => one.keep(task));
  order.sort((a, b) => (a.task.createdAt < b.task.createdAt ? -one.direction : a.task.createdAt > b.task.createdAt ? one.direction : a.index - b.index));
  return order.slice(one.offset, one.offset + one.first).map(({ task }) => ({ title: task.title, createdAt: answered(task.createdAt) }));
}

async function page(one: Case): Promise<unknown> {
  return (await data(`{ queryTask(${one.args}) { title createdAt } }`)).queryTask;
}

test.each(CASES.map((one) => [one.args, one] as const))('queryTask(%s) over tasks created in time order', async (_args, one) => {
  expect(await page(one)).toEqual(expectedPage(one));
});

test('the same pages after an older task is created last and one task moves in time', async () => {
  await add([{ title: 'urgent late entry', completed: false, priority: 4, createdAt: minute(3) }]);
  const moved = created[10]!;
  await data('mutation($id: [ID!], $at: DateTime) { updateTask(input: { filter: { id: $id }, set: { createdAt: $at } }) { numUids } }', { id: [moved.id], at: minute(100) });
  moved.createdAt = minute(100);
  for (const one of CASES) expect({ args: one.args, page: await page(one) }).toEqual({ args: one.args, page: expectedPage(one) });
});
