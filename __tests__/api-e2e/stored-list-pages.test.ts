import { countRoundTrips, type RoundTripCounter } from '../../src/store/counting';
import type { StoredDocument } from '../../src/store/port';
import { activateSchema, gql } from '../helpers/gql';
import { startCountingTestServer, type TestServer } from '../helpers/server';

/**
 * A stored list relation paged in the default order without a filter reads only each parent's first
 * `offset + first` child ids. Its pages must be exactly those of the whole list, also when an id in the
 * list names no object (then that parent is read again with its whole list), and under a rule on the
 * children or with a filter or an order (which read every child, as before).
 */

const SCHEMA = `
type Project {
  name: String! @id
  tasks: [Task]
}

type Task {
  id: ID!
  title: String! @search(by: [hash])
  rank: Int @search
}
`;

let server: TestServer;
let counter: RoundTripCounter;
/** Each project's task titles in the default order (by id, which is creation order), read without paging. */
let fullLists: Record<string, string[]>;

async function data(query: string, variables?: Record<string, unknown>): Promise<any> {
  const { body } = await gql(server.url, query, variables);
  if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data;
}

const byProject = (result: any): Record<string, string[]> =>
  Object.fromEntries(result.queryProject.map((project: any) => [project.name, project.tasks.map((task: any) => task.title)]));

beforeAll(async () => {
  ({ server, counter } = await startCountingTestServer());
  await activateSchema(server.url, SCHEMA);
  const input = [0, 1, 2, 3].map((p) => ({
    name: `p${p}`,
    tasks: Array.from({ length: p * 4 }, (_, i) => ({ title: `p${p}-t${String(i).padStart(2, '0')}`, rank: (i * 5) % 7 })),
  }));
  await data('mutation($input: [AddProjectInput!]!) { addProject(input: $input) { numUids } }', { input });
  // A list whose smallest id names no object, written directly (the service itself never leaves one).
  const [first, second, third] = await server.store.collection('Task').find({}, { sort: { _id: 1 }, limit: 3 });
  await server.store.collection('Project').insertMany([{ _id: 'dangling', name: 'dangling', tasks: ['000000000000000000000000', third!._id, first!._id, second!._id, first!._id] } as StoredDocument]);
  fullLists = byProject(await data('{ queryProject(order: { asc: name }) { name tasks { title } } }'));
  expect(fullLists.dangling).toEqual([first!.title, second!.title, third!.title]);
});

afterAll(async () => {
  await server?.close();
});

test.each([
  [2, 0],
  [3, 1],
  [1, 5],
  [10, 0],
  [0, 0],
])('tasks(first: %i, offset: %i) is the slice of the whole list, for every project', async (first, offset) => {
  const result = await data(`{ queryProject(order: { asc: name }) { name tasks(first: ${first}, offset: ${offset}) { title } } }`);
  const expected = Object.fromEntries(Object.entries(fullLists).map(([name, titles]) => [name, titles.slice(offset, offset + first)]));
  expect(byProject(result)).toEqual(expected);
});

test('a filter or an order still pages the whole list', async () => {
  const filtered = await data('{ queryProject(order: { asc: name }) { name tasks(filter: { rank: { ge: 3 } }, first: 2) { title } } }');
  const ordered = await data('{ queryProject(order: { asc: name }) { name tasks(order: { desc: title }, first: 2) { title } } }');
  expect(byProject(filtered).p2).toEqual(['p2-t01', 'p2-t02']);
  expect(byProject(ordered).p3).toEqual(['p3-t11', 'p3-t10']);
  expect(byProject(ordered).dangling).toEqual([...fullLists.dangling!].sort().reverse().slice(0, 2));
});

test('reads once for all projects, and once more only for the project whose first ids name no object', async () => {
  counter.reset();
  await data('{ queryProject(filter: { name: { in: ["p1", "p2", "p3"] } }) { tasks(first: 2) { title } } }');
  expect(counter.byOperation).toEqual({ find: 2 });
  counter.reset();
  await data('{ queryProject { tasks(first: 2) { title } } }');
  expect(counter.byOperation).toEqual({ find: 3 });
});
