/**
 * The hand-written baseline: the Apollo Server a user would write for the benchmark's queries without
 * Autograph — typeDefs and resolvers by hand over the same Store, with DataLoader batching for relations,
 * served by Apollo's standalone HTTP server. It answers the very query texts the generated API answers
 * (the typeDefs mirror the generated shapes the queries use), so both sides run the same requests.
 */
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import DataLoader from 'dataloader';
import { ObjectId } from 'mongodb';
import type { Filter, SortSpec, Store, StoredDocument } from '../src/store/port.js';
import { BASELINE_TYPE_DEFS } from './baseline-type-defs.js';
import { dgraphDateTimeText } from '../src/resolve/date-time-text.js';

type Doc = StoredDocument;
interface Context {
  userById: DataLoader<string, Doc | undefined>;
  tasksByUser: DataLoader<string, Doc[]>;
}
interface TaskFilter {
  title?: { allofterms?: string; anyofterms?: string };
  completed?: boolean;
  priority?: { eq?: number; le?: number; lt?: number; ge?: number; gt?: number };
}

const terms = (text: string): string[] => [...new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean))];

function taskFilter(filter: TaskFilter | undefined): Filter {
  const query: Filter = {};
  if (filter?.title?.allofterms) query._term_title = { $all: terms(filter.title.allofterms) };
  if (filter?.title?.anyofterms) query._term_title = { $in: terms(filter.title.anyofterms) };
  if (filter?.completed !== undefined && filter.completed !== null) query.completed = filter.completed;
  if (filter?.priority) {
    const operators: Record<string, number> = {};
    for (const [op, value] of Object.entries(filter.priority)) if (value !== null && value !== undefined) operators[`$${op === 'le' ? 'lte' : op === 'ge' ? 'gte' : op}`] = value;
    query.priority = operators;
  }
  return query;
}

const toTask = (doc: Doc) => ({ ...doc, id: doc._id });

function loaders(store: Store): Context {
  return {
    userById: new DataLoader(async (ids: readonly string[]) => {
      const users = await store.collection('User').find({ _id: { $in: [...ids] } });
      const byId = new Map(users.map((user) => [user._id, user]));
      return ids.map((id) => byId.get(id));
    }),
    tasksByUser: new DataLoader(async (userIds: readonly string[]) => {
      const tasks = await store.collection('Task').find({ user: { $in: [...userIds] } }, { sort: { _id: 1 } });
      const byUser = new Map<string, Doc[]>(userIds.map((id) => [id, []]));
      for (const task of tasks) byUser.get(task.user as string)?.push(task);
      return userIds.map((id) => byUser.get(id)!);
    }),
  };
}

function resolvers(store: Store) {
  const tasks = store.collection('Task');
  return {
    Query: {
      getTask: async (_: unknown, args: { id: string }) => {
        const [task] = await tasks.find({ _id: args.id }, { limit: 1 });
        return task ? toTask(task) : null;
      },
      queryTask: async (_: unknown, args: { filter?: TaskFilter; order?: { asc?: string; desc?: string }; first?: number; offset?: number }) => {
        const sort: SortSpec = args.order?.asc ? { [args.order.asc]: 1 } : args.order?.desc ? { [args.order.desc]: -1 } : { _id: 1 };
        const found = await tasks.find(taskFilter(args.filter), { sort, skip: args.offset ?? 0, limit: Math.min(args.first ?? 1000, 1000) });
        return found.map(toTask);
      },
      queryUser: (_: unknown, args: { first?: number; offset?: number }) =>
        store.collection('User').find({}, { sort: { _id: 1 }, skip: args.offset ?? 0, limit: Math.min(args.first ?? 1000, 1000) }),
      aggregateTask: async (_: unknown, args: { filter?: TaskFilter }) => {
        const [row] = await tasks.aggregate([
          { $match: taskFilter(args.filter) },
          { $group: { _id: null, count: { $sum: 1 }, priorityMin: { $min: '$priority' }, priorityMax: { $max: '$priority' }, priorityAvg: { $avg: '$priority' } } },
        ]);
        return row ?? { count: 0, priorityMin: null, priorityMax: null, priorityAvg: null };
      },
    },
    Mutation: {
      addTask: async (_: unknown, args: { input: Array<{ title: string; priority?: number; completed: boolean; createdAt?: string; user: { username: string } }> }) => {
        const ids = await store.transaction(async (tx) => {
          const usernames = [...new Set(args.input.map((input) => input.user.username))];
          const users = await store.collection('User').find({ username: { $in: usernames } }, {}, { tx });
          const userIds = new Map(users.map((user) => [user.username as string, user._id]));
          const documents = args.input.map((input) => {
            const user = userIds.get(input.user.username);
            if (!user) throw new Error(`no user ${input.user.username}`);
            const { user: _ref, ...values } = input;
            return { _id: new ObjectId().toHexString(), ...values, user, _term_title: terms(input.title) };
          });
          await tasks.insertMany(documents, { tx });
          return documents.map((document) => document._id);
        });
        return { numUids: ids.length, ids };
      },
    },
    AddTaskPayload: {
      task: async (payload: { ids: string[] }) => (await tasks.find({ _id: { $in: payload.ids } })).map(toTask),
    },
    Task: {
      user: (task: Doc, _: unknown, context: Context) => context.userById.load(task.user as string),
      createdAt: (task: Doc) => (typeof task.createdAt === 'string' ? dgraphDateTimeText(task.createdAt) : null),
    },
    User: {
      tasks: async (user: Doc, args: { first?: number; offset?: number }, context: Context) => {
        const all = (await context.tasksByUser.load(user._id)).map(toTask);
        const offset = args.offset ?? 0;
        return all.slice(offset, offset + Math.min(args.first ?? 1000, 1000));
      },
    },
  };
}

export interface BaselineServer {
  url: string;
  close(): Promise<void>;
}

export async function startBaseline(store: Store): Promise<BaselineServer> {
  const server = new ApolloServer<Context>({ typeDefs: BASELINE_TYPE_DEFS, resolvers: resolvers(store) });
  const { url } = await startStandaloneServer(server, {
    listen: { port: 0, host: '127.0.0.1' },
    context: async () => loaders(store),
  });
  return { url: url.replace(/\/$/, ''), close: () => server.stop() };
}
