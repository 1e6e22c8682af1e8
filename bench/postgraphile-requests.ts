/**
 * The API bench's scenarios (bench/scenarios.ts) as PostGraphile requests over the schema of
 * bench/postgraphile/schema.sql (names from PostGraphile 4 with the simplify inflector), and PostGraphile's
 * answers put back into the shape of Autograph's, so that the two can be compared as JSON.
 *
 * - a Dgraph term search (`anyofterms`) is the SQL function `tasks_with_any_term` (full-text over a GIN
 *   index), with `condition`, `orderBy`, `first` and `totalCount` on its connection;
 * - `aggregateTask { count }` is a connection's `totalCount`;
 * - `addTask` of 100 objects is one call of the SQL function `add_tasks(new_task[])`: one INSERT ... SELECT
 *   in the transaction PostGraphile opens for a mutation. Its generated `createTask` adds one row per
 *   mutation field: 100 aliased fields would be 100 INSERTs, each between a SAVEPOINT and its RELEASE (some
 *   300 round trips to PostgreSQL per request), and `createTask` takes the user's id, where Autograph's
 *   input names the user by `username`. The function is PostgreSQL's best case for this write.
 */
import { dgraphDateTimeText } from '../src/resolve/date-time-text.js';
import { RARE_TERM } from './api-data.js';
import type { RequestBody } from './scenarios.js';

export interface PostGraphileTranslation {
  /** The same request in PostGraphile's API. */
  request(body: RequestBody): RequestBody;
  /** PostGraphile's `data` in the shape of Autograph's `data` for the same request. */
  answer(data: unknown): unknown;
}

interface Connection<T> {
  nodes?: T[];
  totalCount?: number;
}

interface TaskNode {
  id: string;
  title: string;
  priority: number | null;
  completed: boolean;
  createdAt: string | null;
  user: { username: string; name: string | null } | null;
}

interface UserNode {
  username: string;
  tasksByUserId: Connection<{ title: string }>;
}

interface AutographTaskInput {
  title: string;
  priority: number;
  completed: boolean;
  createdAt: string;
  user: { username: string };
}

/** A field of PostGraphile's `data`, which must be there. */
function field<T>(data: unknown, name: string): T {
  if (typeof data !== 'object' || data === null || !(name in data)) throw new Error(`PostGraphile's answer has no "${name}": ${JSON.stringify(data)?.slice(0, 300)}`);
  return (data as Record<string, T>)[name]!;
}

/** PostgreSQL prints a timestamptz as `2024-01-01T00:00:00.5+00:00`; Autograph as Dgraph does, `2024-01-01T00:00:00Z`. */
export const autographDateTime = (value: string | null): string | null => (value === null ? null : dgraphDateTimeText(new Date(value).toISOString()));

const nodesOf = <T>(connection: Connection<T>): T[] => {
  if (!connection.nodes) throw new Error(`a connection without nodes: ${JSON.stringify(connection).slice(0, 300)}`);
  return connection.nodes;
};

const countOf = (connection: Connection<unknown>): { count: number } => {
  if (connection.totalCount === undefined) throw new Error(`a connection without totalCount: ${JSON.stringify(connection).slice(0, 300)}`);
  return { count: connection.totalCount };
};

const variable = <T>(body: RequestBody, name: string): T => {
  if (!body.variables || !(name in body.variables)) throw new Error(`the request has no variable "${name}": ${JSON.stringify(body).slice(0, 300)}`);
  return body.variables[name] as T;
};

export const POSTGRAPHILE_TRANSLATIONS: Readonly<Record<string, PostGraphileTranslation>> = {
  getTask: {
    request: (body) => ({
      query: 'query($id: String!) { task(id: $id) { id title completed user { username name } } }',
      variables: { id: variable<string>(body, 'id') },
    }),
    answer: (data) => {
      const task = field<TaskNode | null>(data, 'task');
      return {
        getTask: task && {
          id: task.id,
          title: task.title,
          completed: task.completed,
          user: task.user && { username: task.user.username, name: task.user.name },
        },
      };
    },
  },
  queryTask: {
    request: () => ({
      query:
        `{ tasksWithAnyTerm(terms: "${RARE_TERM}", condition: { completed: false }, orderBy: [CREATED_AT_DESC], first: 20) ` +
        '{ nodes { id title priority completed createdAt } } }',
    }),
    answer: (data) => ({
      queryTask: nodesOf(field<Connection<TaskNode>>(data, 'tasksWithAnyTerm')).map((task) => ({
        id: task.id,
        title: task.title,
        priority: task.priority,
        completed: task.completed,
        createdAt: autographDateTime(task.createdAt),
      })),
    }),
  },
  queryUser: {
    request: () => ({
      query: '{ appUsers(first: 100, orderBy: [PRIMARY_KEY_ASC]) { nodes { username tasksByUserId(first: 10, orderBy: [PRIMARY_KEY_ASC]) { nodes { title } } } } }',
    }),
    answer: (data) => ({
      queryUser: nodesOf(field<Connection<UserNode>>(data, 'appUsers')).map((user) => ({
        username: user.username,
        tasks: nodesOf(user.tasksByUserId).map((task) => ({ title: task.title })),
      })),
    }),
  },
  countCompleted: {
    request: () => ({ query: '{ tasks(condition: { completed: true }) { totalCount } }' }),
    answer: (data) => ({ aggregateTask: countOf(field<Connection<unknown>>(data, 'tasks')) }),
  },
  countOpenWithTerm: {
    request: () => ({ query: `{ tasksWithAnyTerm(terms: "${RARE_TERM}", condition: { completed: false }) { totalCount } }` }),
    answer: (data) => ({ aggregateTask: countOf(field<Connection<unknown>>(data, 'tasksWithAnyTerm')) }),
  },
  addTask: {
    request: (body) => ({
      query: 'mutation($tasks: [NewTaskInput]!) { addTasks(input: { tasks: $tasks }) { integer } }',
      variables: {
        tasks: variable<AutographTaskInput[]>(body, 'input').map((task) => ({
          title: task.title,
          priority: task.priority,
          completed: task.completed,
          createdAt: task.createdAt,
          username: task.user.username,
        })),
      },
    }),
    answer: (data) => ({ addTask: { numUids: field<{ integer: number }>(field(data, 'addTasks'), 'integer') } }),
  },
};

/**
 * `addTask` as PostGraphile's generated CRUD does it, for comparison with `add_tasks`: one `createTask`
 * field per task (aliases t0, t1, ...), each in a SAVEPOINT of the mutation's transaction, each taking the
 * user's id, which a client must know: `userIdsByName` gives it.
 */
export function createTaskFieldsTranslation(userIdsByName: ReadonlyMap<string, string>): PostGraphileTranslation {
  return {
    request: (body) => {
      const tasks = variable<AutographTaskInput[]>(body, 'input');
      const userIdOf = (username: string): string => {
        const id = userIdsByName.get(username);
        if (id === undefined) throw new Error(`no user "${username}" to give createTask the id of`);
        return id;
      };
      return {
        query:
          `mutation(${tasks.map((_, i) => `$t${i}: TaskInput!`).join(', ')}) { ` +
          `${tasks.map((_, i) => `t${i}: createTask(input: { task: $t${i} }) { clientMutationId }`).join(' ')} }`,
        variables: Object.fromEntries(
          tasks.map((task, i) => [
            `t${i}`,
            { title: task.title, priority: task.priority, completed: task.completed, createdAt: task.createdAt, userId: userIdOf(task.user.username) },
          ]),
        ),
      };
    },
    answer: (data) => {
      if (typeof data !== 'object' || data === null) throw new Error(`PostGraphile's answer is not an object: ${JSON.stringify(data)}`);
      return { addTask: { numUids: Object.values(data).filter((payload) => payload !== null).length } };
    },
  };
}

/** Scenarios PostGraphile does not answer here, and why. */
export const NOT_TRANSLATED: Readonly<Record<string, string>> = {
  aggregateTask: 'min, max and avg need a plugin (@graphile/pg-aggregates); issue 17 compares the six others',
};

/** PostGraphile's whole answer in the shape of Autograph's: its errors as they are, its data translated. */
export function asAutographAnswer(translation: PostGraphileTranslation, answer: { data?: unknown; errors?: unknown }): unknown {
  if (answer.errors !== undefined || answer.data === undefined || answer.data === null) return answer;
  return { data: translation.answer(answer.data) };
}
