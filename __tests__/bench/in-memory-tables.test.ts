/**
 * The in-memory baseline's filtering, ordering and aggregation (bench/in-memory-tables.ts) as tables of
 * cases: filter or order in, task titles out, in the order MongoDB (and so Autograph) gives them.
 */
import { aggregateTasks, InMemoryTables, orderTasks, termsOf, type OrderableTaskField, type TaskFilter } from '../../bench/in-memory-tables.js';

const rows: Array<{ title: string; priority: number | null; completed: boolean; createdAt: string | null }> = [
  { title: 'Deploy the printer', priority: 3, completed: false, createdAt: '2024-01-03T00:00:00.000Z' },
  { title: 'urgent: review budget', priority: null, completed: true, createdAt: null },
  { title: 'Budget review, urgent', priority: 1, completed: false, createdAt: '2024-01-01T00:00:00.000Z' },
  { title: 'plan the deploy', priority: 5, completed: true, createdAt: '2024-01-03T00:00:00.000Z' },
  { title: 'travel', priority: 3, completed: false, createdAt: '2024-01-02T00:00:00.000Z' },
];

function tables(): InMemoryTables {
  const filled = new InMemoryTables();
  filled.addUser({ _id: 'u1', username: 'ann', name: 'Ann' });
  rows.forEach((row, index) => filled.addTask({ _id: `t${index}`, ...row, user: 'u1' }));
  return filled;
}

const titles = (found: ReadonlyArray<{ title: string }>) => found.map((task) => task.title);

test.each<[string, TaskFilter | undefined, string[]]>([
  ['no filter: every task in insertion order', undefined, rows.map((row) => row.title)],
  ['anyofterms, one term, any case and punctuation', { title: { anyofterms: 'URGENT' } }, ['urgent: review budget', 'Budget review, urgent']],
  ['anyofterms, two terms: the union in insertion order', { title: { anyofterms: 'travel deploy' } }, ['Deploy the printer', 'plan the deploy', 'travel']],
  ['anyofterms, unknown term', { title: { anyofterms: 'nothing' } }, []],
  ['allofterms: every term', { title: { allofterms: 'review urgent budget' } }, ['urgent: review budget', 'Budget review, urgent']],
  ['allofterms, one term missing', { title: { allofterms: 'review deploy' } }, []],
  ['term and Boolean', { title: { anyofterms: 'urgent' }, completed: false }, ['Budget review, urgent']],
  ['Boolean false', { completed: false }, ['Deploy the printer', 'Budget review, urgent', 'travel']],
  ['Boolean null is no condition', { completed: null }, rows.map((row) => row.title)],
  ['priority eq', { priority: { eq: 3 } }, ['Deploy the printer', 'travel']],
  ['priority range skips null', { priority: { ge: 1, lt: 5 } }, ['Deploy the printer', 'Budget review, urgent', 'travel']],
  ['priority gt and le', { priority: { gt: 1, le: 3 } }, ['Deploy the printer', 'travel']],
])('findTasks: %s', (_, filter, expected) => {
  expect(titles(tables().findTasks(filter))).toEqual(expected);
});

test.each<[OrderableTaskField, 1 | -1, string[]]>([
  // Equal keys stay in insertion (`_id`) order; null sorts first ascending, last descending.
  ['createdAt', 1, ['urgent: review budget', 'Budget review, urgent', 'travel', 'Deploy the printer', 'plan the deploy']],
  ['createdAt', -1, ['Deploy the printer', 'plan the deploy', 'travel', 'Budget review, urgent', 'urgent: review budget']],
  ['priority', 1, ['urgent: review budget', 'Budget review, urgent', 'Deploy the printer', 'travel', 'plan the deploy']],
  ['priority', -1, ['plan the deploy', 'Deploy the printer', 'travel', 'Budget review, urgent', 'urgent: review budget']],
  ['title', 1, ['Budget review, urgent', 'Deploy the printer', 'plan the deploy', 'travel', 'urgent: review budget']],
])('orderTasks by %s, direction %d', (field, direction, expected) => {
  const all = tables().tasks;
  expect(titles(orderTasks(all, field, direction))).toEqual(expected);
  expect(titles(all)).toEqual(rows.map((row) => row.title));
});

test.each<[string, TaskFilter, ReturnType<typeof aggregateTasks>]>([
  ['over non-null priorities only', { completed: true }, { count: 2, priorityMin: 5, priorityMax: 5, priorityAvg: 5 }],
  ['mean of several', { completed: false }, { count: 3, priorityMin: 1, priorityMax: 3, priorityAvg: 7 / 3 }],
  ['nothing matches: count 0, the rest null', { title: { anyofterms: 'nothing' } }, { count: 0, priorityMin: null, priorityMax: null, priorityAvg: null }],
  ['only null priorities', { title: { allofterms: 'urgent review' }, completed: true }, { count: 1, priorityMin: null, priorityMax: null, priorityAvg: null }],
])('aggregateTasks: %s', (_, filter, expected) => {
  const filled = tables();
  expect(aggregateTasks(filled.findTasks(filter))).toEqual(expected);
});

test.each<[string, string[]]>([
  ['Budget review, urgent', ['budget', 'review', 'urgent']],
  ['a-b a_b #12', ['a', 'b', '12']],
  ['', []],
])('termsOf(%j)', (text, expected) => {
  expect(termsOf(text)).toEqual(expected);
});

test('tasksByUserId keeps each user’s tasks in insertion order', () => {
  expect(titles(tables().tasksByUserId.get('u1') ?? [])).toEqual(rows.map((row) => row.title));
});
