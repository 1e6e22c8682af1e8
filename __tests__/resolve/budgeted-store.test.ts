import { GraphQLError } from 'graphql';
import { REQUEST_TIMEOUT, RequestBudget } from '../../src/limits/budget.js';
import { budgetedStore } from '../../src/resolve/budgeted-store.js';
import { DeadlineExceededError, type Collection, type OperationScope, type Store, type Transaction } from '../../src/store/port.js';

const START = 2_000_000;
const TX: Transaction = { id: 7 };

/** A store that records the scope of every call and answers what `answer` gives. */
function recordingStore(answer: () => Promise<unknown> = async () => []): { store: Store; scopes: Array<[string, OperationScope | undefined]> } {
  const scopes: Array<[string, OperationScope | undefined]> = [];
  const record = (operation: string, scope: OperationScope | undefined) => {
    scopes.push([operation, scope]);
    return answer() as Promise<never>;
  };
  const collection = (name: string): Collection => ({
    name,
    find: (_filter, _options, scope) => record('find', scope),
    count: (_filter, scope) => record('count', scope),
    aggregate: (_pipeline, scope) => record('aggregate', scope),
    findPerKey: (_field, _keys, _filter, _page, scope) => record('findPerKey', scope),
    insertMany: (_documents, scope) => record('insertMany', scope),
    updateMany: (_filter, _update, scope) => record('updateMany', scope),
    deleteMany: (_filter, scope) => record('deleteMany', scope),
  });
  const store: Store = {
    kind: 'recording',
    collection,
    openSnapshot: async () => {
      throw new Error('the recording store has no snapshot');
    },
    transaction: (work) => work(TX),
    syncIndexes: async () => ({ created: [], dropped: [] }),
    listIndexes: async () => [],
    dropCollection: async () => false,
    // It records calls and changes nothing, so its feed never reports a change.
    watchChanges: () => () => undefined,
    ready: () => true,
    close: async () => undefined,
  };
  return { store, scopes };
}

const CALLS: Array<[string, (tasks: Collection, scope?: OperationScope) => Promise<unknown>]> = [
  ['find', (tasks, scope) => tasks.find({}, {}, scope)],
  ['count', (tasks, scope) => tasks.count({}, scope)],
  ['aggregate', (tasks, scope) => tasks.aggregate([], scope)],
  ['insertMany', (tasks, scope) => tasks.insertMany([{ _id: 'a' }], scope)],
  ['updateMany', (tasks, scope) => tasks.updateMany({}, { $set: { a: 1 } }, scope)],
  ['deleteMany', (tasks, scope) => tasks.deleteMany({}, scope)],
];

let now = START;
beforeEach(() => {
  now = START;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('budgetedStore', () => {
  it.each(CALLS)('%s carries the request deadline, keeps the transaction, and keeps an earlier deadline of its own', async (operation, call) => {
    const { store, scopes } = recordingStore();
    const budget = new RequestBudget({ timeoutMs: 1000, maxObjects: 10 }, START);
    const tasks = budgetedStore(store, budget).collection('Task');
    await call(tasks);
    await call(tasks, { tx: TX });
    await call(tasks, { deadline: START + 400 });
    await call(tasks, { deadline: START + 5000 });
    expect(scopes).toEqual([
      [operation, { deadline: START + 1000 }],
      [operation, { tx: TX, deadline: START + 1000 }],
      [operation, { deadline: START + 400 }],
      [operation, { deadline: START + 1000 }],
    ]);
    budget.release();
  });

  it.each(CALLS)('%s: a store DeadlineExceededError becomes the request timeout', async (_operation, call) => {
    const { store } = recordingStore(async () => {
      throw new DeadlineExceededError('find on Task');
    });
    const budget = new RequestBudget({ timeoutMs: 1000, maxObjects: 10 }, START);
    const error = await call(budgetedStore(store, budget).collection('Task')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GraphQLError);
    expect((error as GraphQLError).extensions.code).toBe(REQUEST_TIMEOUT);
    expect(budget.exceeded).toBe(error);
    budget.release();
  });

  it.each(CALLS)('%s does not reach the store once the budget is spent', async (_operation, call) => {
    const { store, scopes } = recordingStore();
    const budget = new RequestBudget({ timeoutMs: 1000, maxObjects: 10 }, START);
    now = START + 1000;
    await expect(call(budgetedStore(store, budget).collection('Task'))).rejects.toMatchObject({ extensions: { code: REQUEST_TIMEOUT } });
    expect(scopes).toEqual([]);
  });

  it('lets other errors through unchanged', async () => {
    const failure = new Error('invalid filter for collection Task: unknown operator $nope');
    const { store } = recordingStore(async () => {
      throw failure;
    });
    const budget = new RequestBudget({ timeoutMs: 1000, maxObjects: 10 }, START);
    await expect(budgetedStore(store, budget).collection('Task').find({})).rejects.toBe(failure);
    expect(budget.exceeded).toBeUndefined();
  });

  it('ends a read outside a transaction at the deadline, but leaves a read inside one to the store', async () => {
    jest.useFakeTimers({ now: START, doNotFake: ['Date'] });
    const { store } = recordingStore(() => new Promise(() => undefined));
    const budget = new RequestBudget({ timeoutMs: 1000, maxObjects: 10 }, START);
    const tasks = budgetedStore(store, budget).collection('Task');
    const outside = tasks.find({}).then(() => 'answered', (error: unknown) => error);
    const inside = tasks.find({}, {}, { tx: TX }).then(() => 'answered', () => 'failed');
    const settled: unknown[] = [];
    void inside.then((value) => settled.push(value));
    now = START + 1000;
    await jest.advanceTimersByTimeAsync(1000);
    expect(((await outside) as GraphQLError).extensions.code).toBe(REQUEST_TIMEOUT);
    expect(settled).toEqual([]);
  });

  it('arms no timer for the reads of a store that ends them at the deadline itself, and passes that on', async () => {
    jest.useFakeTimers({ now: START, doNotFake: ['Date'] });
    const { store, scopes } = recordingStore(async () => ['row']);
    const budget = new RequestBudget({ timeoutMs: 1000, maxObjects: 10 }, START);
    const budgeted = budgetedStore({ ...store, endsReadsAtDeadline: true }, budget);
    expect(budgeted.endsReadsAtDeadline).toBe(true);
    await expect(budgeted.collection('Task').find({})).resolves.toEqual(['row']);
    await expect(budgeted.collection('Task').count({})).resolves.toEqual(['row']);
    expect(jest.getTimerCount()).toBe(0);
    expect(scopes).toEqual([['find', { deadline: START + 1000 }], ['count', { deadline: START + 1000 }]]);
  });

  it('races the reads of a store that does not say it ends them (one timer per request)', async () => {
    jest.useFakeTimers({ now: START, doNotFake: ['Date'] });
    const { store } = recordingStore(async () => ['row']);
    const budget = new RequestBudget({ timeoutMs: 1000, maxObjects: 10 }, START);
    const tasks = budgetedStore(store, budget).collection('Task');
    await tasks.find({});
    await tasks.find({});
    expect(jest.getTimerCount()).toBe(1);
    budget.release();
    expect(jest.getTimerCount()).toBe(0);
  });
});
