import { gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { SEARCHABLE_TASK_SCHEMA, type SeedTask } from './schemas';

/**
 * Issue 17 over HTTP with keys thousands of tasks hold: ordered pages and counts of a term and a flag,
 * where the embedded store tests the index lookups by membership as it walks (a bitset bit for a key many
 * tasks hold, a binary search for a rarer one) instead of intersecting them first. Pages read off the
 * creation order (`createdAt`, and IDs when no order is given) and pages walked along another index
 * (`priority`), with ties, offsets, both directions, a range beside the lookups and no match; the answers
 * are computed here from the seed.
 */

const TASKS = 2400;
const BATCH = 200;
const minute = (n: number): string => new Date(Date.UTC(2024, 0, 1, 0, n)).toISOString();
/** Dgraph's DateTime answer: UTC, whole seconds. */
const answered = (iso: string): string => iso.replace('.000Z', 'Z');

/**
 * Tasks in time order, two per minute (ties): `task` in every title, `urgent` in one in eight, a third of
 * them completed; the open ones (1,600) and `task` (2,400) pass the store's bitset threshold of 1,024.
 */
const SEED: SeedTask[] = Array.from({ length: TASKS }, (_, i) => ({
  title: `${i % 8 === 0 ? 'urgent ' : ''}task ${i}`,
  completed: i % 3 === 0,
  priority: (i * 7) % 5,
  createdAt: minute(Math.floor(i / 2)),
}));

let server: TestServer;
/** Every task with its generated ID, in creation order (the order of the IDs). */
let created: Array<SeedTask & { id: string; index: number }> = [];

async function data(query: string, variables?: Record<string, unknown>): Promise<any> {
  const { body } = await gql(server.url, query, variables);
  if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data;
}

beforeAll(async () => {
  server = await startTestServer({ initialSchema: SEARCHABLE_TASK_SCHEMA });
  created = [];
  for (let from = 0; from < TASKS; from += BATCH) {
    const batch = SEED.slice(from, from + BATCH);
    const result = await data('mutation($input: [AddTaskInput!]!) { addTask(input: $input) { task { id } } }', { input: batch });
    created.push(...batch.map((task, i) => ({ ...task, id: result.addTask.task[i].id as string, index: from + i })));
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const hasTerm = (term: string) => (task: SeedTask): boolean => task.title.split(' ').includes(term);

interface Case {
  args: string;
  keep: (task: SeedTask) => boolean;
  /** The order field (`index`: no order, by ID, which is creation order here) and its direction; ties by ID. */
  by: 'createdAt' | 'priority' | 'index';
  direction: 1 | -1;
  first: number;
  offset: number;
}

const CASES: Case[] = [
  { args: 'filter: { title: { anyofterms: "urgent" }, completed: false }, order: { desc: createdAt }, first: 20', keep: (task) => hasTerm('urgent')(task) && !task.completed, by: 'createdAt', direction: -1, first: 20, offset: 0 },
  { args: 'filter: { title: { anyofterms: "urgent" }, completed: false }, order: { asc: createdAt }, first: 9, offset: 41', keep: (task) => hasTerm('urgent')(task) && !task.completed, by: 'createdAt', direction: 1, first: 9, offset: 41 },
  { args: 'filter: { title: { anyofterms: "task" }, completed: true }, order: { desc: createdAt }, first: 7, offset: 30', keep: (task) => task.completed, by: 'createdAt', direction: -1, first: 7, offset: 30 },
  { args: 'filter: { title: { anyofterms: "urgent" }, completed: false, priority: { ge: 3 } }, order: { desc: createdAt }, first: 5, offset: 2', keep: (task) => hasTerm('urgent')(task) && !task.completed && task.priority >= 3, by: 'createdAt', direction: -1, first: 5, offset: 2 },
  { args: 'filter: { title: { anyofterms: "nothing" }, completed: false }, order: { desc: createdAt }, first: 5', keep: () => false, by: 'createdAt', direction: -1, first: 5, offset: 0 },
  { args: 'filter: { title: { anyofterms: "urgent" }, completed: false }, order: { desc: priority }, first: 20', keep: (task) => hasTerm('urgent')(task) && !task.completed, by: 'priority', direction: -1, first: 20, offset: 0 },
  { args: 'filter: { title: { anyofterms: "task" }, completed: true }, order: { asc: priority }, first: 10, offset: 5', keep: (task) => task.completed, by: 'priority', direction: 1, first: 10, offset: 5 },
  { args: 'filter: { title: { anyofterms: "task urgent" }, completed: false }, order: { desc: priority }, first: 3, offset: 600', keep: (task) => !task.completed, by: 'priority', direction: -1, first: 3, offset: 600 },
  { args: 'filter: { title: { anyofterms: "urgent" }, completed: false }, first: 6, offset: 3', keep: (task) => hasTerm('urgent')(task) && !task.completed, by: 'index', direction: 1, first: 6, offset: 3 },
];

function expectedPage(one: Case): Array<{ id: string; priority: number; createdAt: string }> {
  const order = created.filter((task) => one.keep(task));
  // Stable: equal keys keep creation order, which is ID order.
  order.sort((a, b) => (a[one.by] < b[one.by] ? -one.direction : a[one.by] > b[one.by] ? one.direction : 0));
  return order.slice(one.offset, one.offset + one.first).map((task) => ({ id: task.id, priority: task.priority, createdAt: answered(task.createdAt) }));
}

test.each(CASES.map((one) => [one.args, one] as const))('queryTask(%s)', async (_args, one) => {
  const page = (await data(`{ queryTask(${one.args}) { id priority createdAt } }`)).queryTask;
  expect(page).toEqual(expectedPage(one));
});

test.each<[string, (task: SeedTask) => boolean]>([
  ['title: { anyofterms: "urgent" }, completed: false', (task) => hasTerm('urgent')(task) && !task.completed],
  ['title: { anyofterms: "task" }, completed: false', (task) => !task.completed],
  ['title: { anyofterms: "urgent" }, completed: true, priority: { le: 1 }', (task) => hasTerm('urgent')(task) && task.completed && task.priority <= 1],
  ['title: { anyofterms: "nothing" }, completed: true', () => false],
])('aggregateTask(filter: { %s }) { count }', async (filter, keep) => {
  const result = await data(`{ aggregateTask(filter: { ${filter} }) { count } }`);
  expect(result.aggregateTask).toEqual({ count: SEED.filter(keep).length });
});
