/**
 * The real service for persisted query tests: createApp with its default wiring (as the CLI runs it)
 * over the embedded store, serving a small Task schema.
 */
import type { PersistedQueryDocument } from '../../src/persisted/index.js';
import { SYSTEM_COLLECTIONS, type Store } from '../../src/store/port.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server.js';

export const TASK_SCHEMA = `type Task {
  id: ID!
  title: String! @search(by: [term])
  done: Boolean! @search
}
`;

export const LIST = 'query List { queryTask(order: { asc: title }) { title done } }';
export const COUNT = 'query Count { aggregateTask { count } }';
export const ADD = 'mutation Add($title: String!) { addTask(input: [{ title: $title, done: false }]) { numUids } }';

export function startService(options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer({ initialSchema: TASK_SCHEMA, ...options });
}

/** Every persisted query document in the store, by hash. */
export async function storedQueries(store: Store): Promise<Map<string, PersistedQueryDocument>> {
  const documents = await store.collection(SYSTEM_COLLECTIONS.persistedQueries).find({});
  return new Map(documents.map((document) => [document._id as string, document as PersistedQueryDocument]));
}
