/**
 * The in-memory baseline's data: plain arrays and Maps, kept up by hand on every insert, as a developer
 * would write them for the benchmark's queries. Arrays are in insertion order, which is also `_id` order
 * (the ids are ObjectId-hex, made in order), so "no order given" means insertion order, as in the service.
 */
import type { BenchTask, BenchUser } from './api-data.js';

export interface UserRecord {
  id: string;
  username: string;
  name: string | null;
}

export interface TaskRecord {
  id: string;
  title: string;
  priority: number | null;
  completed: boolean;
  createdAt: string | null;
  userId: string;
  /** Position in insertion order, to merge term lists back into that order. */
  seq: number;
}

export interface TaskFilter {
  title?: { allofterms?: string | null; anyofterms?: string | null } | null;
  completed?: boolean | null;
  priority?: { eq?: number | null; le?: number | null; lt?: number | null; ge?: number | null; gt?: number | null } | null;
}

export type OrderableTaskField = 'title' | 'priority' | 'createdAt';

/** Lowercased runs of ASCII letters and digits, each once: the words a `term` search matches. */
export function termsOf(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0))];
}

export class InMemoryTables {
  readonly users: UserRecord[] = [];
  readonly usersById = new Map<string, UserRecord>();
  readonly usersByUsername = new Map<string, UserRecord>();
  readonly tasks: TaskRecord[] = [];
  readonly tasksById = new Map<string, TaskRecord>();
  readonly tasksByUserId = new Map<string, TaskRecord[]>();
  readonly tasksByTitleTerm = new Map<string, TaskRecord[]>();

  addUser(user: BenchUser): void {
    const record: UserRecord = { id: user._id, username: user.username, name: user.name };
    this.users.push(record);
    this.usersById.set(record.id, record);
    this.usersByUsername.set(record.username, record);
  }

  addTask(task: BenchTask | (Omit<BenchTask, 'priority' | 'createdAt'> & { priority: number | null; createdAt: string | null })): TaskRecord {
    const record: TaskRecord = {
      id: task._id,
      title: task.title,
      priority: task.priority,
      completed: task.completed,
      createdAt: task.createdAt,
      userId: task.user,
      seq: this.tasks.length,
    };
    this.tasks.push(record);
    this.tasksById.set(record.id, record);
    appendTo(this.tasksByUserId, record.userId, record);
    for (const term of termsOf(record.title)) appendTo(this.tasksByTitleTerm, term, record);
    return record;
  }

  /** The tasks matching `filter`, in insertion order. */
  findTasks(filter: TaskFilter | null | undefined): TaskRecord[] {
    const candidates = this.candidatesByTitle(filter?.title);
    const completed = filter?.completed;
    const priority = filter?.priority;
    if ((completed === null || completed === undefined) && !priority) return candidates;
    return candidates.filter(
      (task) => (completed === null || completed === undefined || task.completed === completed) && (!priority || matchesInt(task.priority, priority)),
    );
  }

  private candidatesByTitle(title: TaskFilter['title']): TaskRecord[] {
    if (title?.anyofterms) {
      const lists = termsOf(title.anyofterms).map((term) => this.tasksByTitleTerm.get(term) ?? []);
      if (lists.length === 1) return lists[0]!;
      return [...new Set(lists.flat())].sort((a, b) => a.seq - b.seq);
    }
    if (title?.allofterms) {
      const lists = termsOf(title.allofterms).map((term) => this.tasksByTitleTerm.get(term) ?? []);
      if (lists.length === 0) return [];
      lists.sort((a, b) => a.length - b.length);
      const others = lists.slice(1).map((list) => new Set(list));
      return lists[0]!.filter((task) => others.every((set) => set.has(task)));
    }
    return this.tasks;
  }
}

function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function matchesInt(value: number | null, filter: NonNullable<TaskFilter['priority']>): boolean {
  if (value === null) return false;
  const given = (bound: number | null | undefined): bound is number => bound !== null && bound !== undefined;
  return (
    (!given(filter.eq) || value === filter.eq) &&
    (!given(filter.le) || value <= filter.le) &&
    (!given(filter.lt) || value < filter.lt) &&
    (!given(filter.ge) || value >= filter.ge) &&
    (!given(filter.gt) || value > filter.gt)
  );
}

/**
 * Sorted by one field (a new array), as MongoDB sorts: null before any value ascending, after descending;
 * equal keys keep insertion (`_id`) order, since Array.prototype.sort is stable.
 */
export function orderTasks(tasks: readonly TaskRecord[], field: OrderableTaskField, direction: 1 | -1): TaskRecord[] {
  return [...tasks].sort((a, b) => direction * compareNullsFirst(a[field], b[field]));
}

function compareNullsFirst(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

export interface TaskAggregate {
  count: number;
  priorityMin: number | null;
  priorityMax: number | null;
  priorityAvg: number | null;
}

/** Count of the tasks, and min/max/avg of their non-null priorities (null when none has one). */
export function aggregateTasks(tasks: readonly TaskRecord[]): TaskAggregate {
  let min: number | null = null;
  let max: number | null = null;
  let sum = 0;
  let counted = 0;
  for (const { priority } of tasks) {
    if (priority === null) continue;
    if (min === null || priority < min) min = priority;
    if (max === null || priority > max) max = priority;
    sum += priority;
    counted += 1;
  }
  return { count: tasks.length, priorityMin: min, priorityMax: max, priorityAvg: counted === 0 ? null : sum / counted };
}
