import { pluck, useService } from './harness';

/**
 * Counts, aggregates, ordered pages and ranges that the embedded store answers from its indexes (postings,
 * ordered keys, bitsets), over HTTP, checked against the same answers computed here from the input.
 */

const SCHEMA = `
type Task {
  id: ID!
  title: String! @search(by: [term])
  priority: Int @search
  completed: Boolean! @search
  createdAt: DateTime @search
  score: Float @search
}
`;

const WORDS = ['urgent', 'review', 'invoice', 'deploy', 'meeting'];

interface TaskInput {
  title: string;
  priority?: number;
  completed: boolean;
  createdAt: string;
  score: number;
}

const INPUT: TaskInput[] = Array.from({ length: 90 }, (_, i) => ({
  title: `${WORDS[i % 5]} ${WORDS[(i * 3 + 1) % 5]} #${i}`,
  ...(i % 11 === 0 ? {} : { priority: 1 + ((i * 7) % 5) }),
  completed: (i * 13) % 3 === 0,
  // Not in creation order, so that an order by createdAt differs from the order by id.
  createdAt: new Date(Date.UTC(2024, 0, 1) + ((i * 37) % 90) * 3_600_000).toISOString(),
  score: ((i * 17) % 10) / 4,
}));

const api = useService(SCHEMA);
/** The created tasks with their ids, in creation order. */
let tasks: Array<TaskInput & { id: string }> = [];

beforeAll(async () => {
  // Several mutations, so that the indexes grow across writes.
  for (let start = 0; start < INPUT.length; start += 30) {
    const result = await api.data(
      'mutation($input: [AddTaskInput!]!) { addTask(input: $input) { task { id title } } }',
      { input: INPUT.slice(start, start + 30) },
    );
    for (const [offset, task] of (result.addTask.task as Array<{ id: string }>).entries()) tasks.push({ ...INPUT[start + offset]!, id: task.id });
  }
  await api.data('mutation { updateTask(input: { filter: { title: { anyofterms: "deploy" } }, set: { completed: true } }) { numUids } }');
  await api.data('mutation { deleteTask(filter: { title: { allofterms: "meeting urgent" } }) { numUids } }');
  tasks = tasks
    .map((task) => (task.title.split(' ').includes('deploy') ? { ...task, completed: true } : task))
    .filter((task) => !(task.title.split(' ').includes('meeting') && task.title.split(' ').includes('urgent')));
});

const idsOf = (list: ReadonlyArray<{ id: string }>): string[] => list.map((task) => task.id);
const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const hasTerm = (task: TaskInput, term: string): boolean => task.title.split(' ').includes(term);

test('counts and aggregates the completed tasks', async () => {
  const completed = tasks.filter((task) => task.completed);
  const priorities = completed.map((task) => task.priority).filter((priority): priority is number => priority !== undefined);
  const result = await api.data('{ aggregateTask(filter: { completed: true }) { count priorityMin priorityMax prioritySum priorityAvg } }');
  expect(result.aggregateTask).toEqual({
    count: completed.length,
    priorityMin: Math.min(...priorities),
    priorityMax: Math.max(...priorities),
    prioritySum: priorities.reduce((sum, priority) => sum + priority, 0),
    priorityAvg: priorities.reduce((sum, priority) => sum + priority, 0) / priorities.length,
  });
});

test('counts the open tasks with a term, and none for a term no task has', async () => {
  const open = tasks.filter((task) => !task.completed && hasTerm(task, 'urgent'));
  expect((await api.data('{ aggregateTask(filter: { title: { anyofterms: "urgent" }, completed: false }) { count } }')).aggregateTask).toEqual({ count: open.length });
  expect((await api.data('{ aggregateTask(filter: { title: { anyofterms: "nowhere" }, completed: false }) { count priorityMax } }')).aggregateTask).toEqual({
    count: 0,
    priorityMax: null,
  });
});

test('pages the open tasks with a term, newest first', async () => {
  const expected = tasks
    .filter((task) => !task.completed && hasTerm(task, 'urgent'))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : byId(a, b)))
    .slice(0, 5);
  const result = await api.data('{ queryTask(filter: { title: { anyofterms: "urgent" }, completed: false }, order: { desc: createdAt }, first: 5) { id createdAt } }');
  expect(pluck(result.queryTask, 'id')).toEqual(idsOf(expected));
});

test('orders by a field many tasks share, then by id, missing priorities last in both directions', async () => {
  const missingLast = (a: TaskInput, b: TaskInput): number => Number(a.priority === undefined) - Number(b.priority === undefined);
  const rank = (task: TaskInput): number => task.priority ?? 0;
  const expected = [...tasks].sort((a, b) => missingLast(a, b) || rank(a) - rank(b) || byId(a, b)).slice(3, 10);
  const result = await api.data('{ queryTask(order: { asc: priority }, first: 7, offset: 3) { id priority } }');
  expect(pluck(result.queryTask, 'id')).toEqual(idsOf(expected));
  const descending = [...tasks].sort((a, b) => missingLast(a, b) || rank(b) - rank(a) || byId(a, b)).slice(0, 4);
  expect(pluck((await api.data('{ queryTask(order: { desc: priority }, first: 4) { id } }')).queryTask, 'id')).toEqual(idsOf(descending));
});

test('answers ranges of DateTime, Int and Float fields, in id order without an order', async () => {
  const min = '2024-01-02T00:00:00.000Z';
  const max = '2024-01-03T12:00:00.000Z';
  const inRange = tasks.filter((task) => task.createdAt >= min && task.createdAt <= max).sort(byId);
  const between = await api.data(`{ queryTask(filter: { createdAt: { between: { min: "${min}", max: "${max}" } } }, first: 6) { id } }`);
  expect(pluck(between.queryTask, 'id')).toEqual(idsOf(inRange.slice(0, 6)));
  const counted = await api.data(`{ aggregateTask(filter: { createdAt: { ge: "${min}" }, priority: { lt: 3 } }) { count scoreSum } }`);
  const matching = tasks.filter((task) => task.createdAt >= min && task.priority !== undefined && task.priority < 3);
  expect(counted.aggregateTask).toEqual({ count: matching.length, scoreSum: matching.reduce((sum, task) => sum + task.score, 0) });
  const scored = await api.data('{ queryTask(filter: { score: { gt: 1.5 } }, order: { asc: score }, first: 3) { id score } }');
  const expectedScores = tasks.filter((task) => task.score > 1.5).sort((a, b) => a.score - b.score || byId(a, b)).slice(0, 3);
  expect(pluck(scored.queryTask, 'id')).toEqual(idsOf(expectedScores));
});
