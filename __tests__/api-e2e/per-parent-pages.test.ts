import { countRoundTrips, type RoundTripCounter } from '../../src/store/counting';
import { activateSchema, gql } from '../helpers/gql';
import { startCountingTestServer, type TestServer } from '../helpers/server';
import { authorizationLine, tokenFor } from '../auth/keys';

/**
 * Issue 17, per-parent pages over HTTP: a derived relation's `tasks(filter, order, first, offset)` for
 * many parents is read a page per parent (`findPerKey`). The answers must be exactly what the documented
 * semantics give, computed here from the seeded data, for a single inverse (User.tasks from Task.user)
 * and a list inverse (Tag.tasks from Task.tags), under the caller's query rule: a plain rule (the page-per-
 * parent path) and a rule on a relation (a semi-join, which keeps the generic path).
 */

const HEADER = 'X-Auth-Token';
const OWNER = 'query($USER: String!) { queryTask { user(filter: { username: { eq: $USER } }) { __typename } } }';

const SCHEMA = `
type Task @auth(query: { or: [
  { rule: "{$ROLE: { eq: \\"ADMIN\\" } }" },
  { rule: """query { queryTask(filter: { public: true }) { __typename } }""" },
  { rule: """${OWNER}""" }
] }) {
  id: ID!
  title: String! @search(by: [hash])
  priority: Int @search
  public: Boolean! @search
  user: User!
  tags: [Tag] @hasInverse(field: tasks)
}

type User {
  username: String! @id
  tasks: [Task] @hasInverse(field: user)
}

type Tag {
  name: String! @id
  tasks: [Task]
}
${authorizationLine({ header: HEADER })}
`;

interface SeedTask {
  index: number;
  title: string;
  priority: number | null;
  public: boolean;
  user: string;
  tags: string[];
}

const USERS = ['u0', 'u1', 'u2', 'u3', 'u4'];
const TAGS = ['g0', 'g1', 'g2'];
/** 40 tasks over u0..u3 (u4 has none), created in index order, so the default order (by ID) is index order. */
const TASKS: SeedTask[] = Array.from({ length: 40 }, (_, index) => ({
  index,
  title: `t${String(index).padStart(2, '0')}`,
  priority: index % 7 === 0 ? null : index % 5,
  public: index % 3 !== 0,
  user: USERS[index % 4]!,
  tags: index % 2 === 0 ? [TAGS[index % 3]!, TAGS[(index + 1) % 3]!] : [TAGS[index % 3]!],
}));

type Viewer = 'admin' | 'anonymous' | 'u1';
const headersOf: Record<Viewer, Record<string, string>> = {
  admin: { [HEADER]: tokenFor({ USER: 'root', ROLE: 'ADMIN' }) },
  anonymous: {},
  u1: { [HEADER]: tokenFor({ USER: 'u1' }) },
};
const visibleTo = (viewer: Viewer, task: SeedTask): boolean =>
  viewer === 'admin' || task.public || (viewer === 'u1' && task.user === 'u1');

/** One case: the field arguments as GraphQL text and the same selection written out over the seed. */
interface Case {
  args: string;
  keep: (task: SeedTask) => boolean;
  compare: (a: SeedTask, b: SeedTask) => number;
  offset: number;
  first: number;
}

const byIndex = (a: SeedTask, b: SeedTask) => a.index - b.index;
/** MongoDB order: a missing priority sorts before every number ascending. */
const priorityOf = (task: SeedTask) => task.priority ?? Number.NEGATIVE_INFINITY;

const CASES: Case[] = [
  { args: '', keep: () => true, compare: byIndex, offset: 0, first: 1000 },
  { args: '(first: 3)', keep: () => true, compare: byIndex, offset: 0, first: 3 },
  {
    args: '(order: { desc: priority, then: { asc: title } }, first: 3, offset: 1)',
    keep: () => true,
    compare: (a, b) => priorityOf(b) - priorityOf(a) || a.title.localeCompare(b.title),
    offset: 1,
    first: 3,
  },
  {
    args: '(filter: { priority: { ge: 2 } }, order: { asc: priority }, first: 2)',
    keep: (task) => task.priority !== null && task.priority >= 2,
    compare: (a, b) => priorityOf(a) - priorityOf(b) || byIndex(a, b),
    offset: 0,
    first: 2,
  },
  {
    args: '(filter: { or: [{ title: { in: ["t05", "t06", "t10", "t13", "t22"] } }, { not: { public: true } }] }, order: { desc: title })',
    keep: (task) => ['t05', 't06', 't10', 't13', 't22'].includes(task.title) || !task.public,
    compare: (a, b) => b.title.localeCompare(a.title),
    offset: 0,
    first: 1000,
  },
  { args: '(offset: 8)', keep: () => true, compare: byIndex, offset: 8, first: 1000 },
  { args: '(first: 0)', keep: () => true, compare: byIndex, offset: 0, first: 0 },
];

function expectedPage(viewer: Viewer, parentHolds: (task: SeedTask) => boolean, one: Case): string[] {
  return TASKS.filter((task) => parentHolds(task) && visibleTo(viewer, task) && one.keep(task))
    .sort(one.compare)
    .slice(one.offset, one.offset + one.first)
    .map((task) => task.title);
}

let server: TestServer;
let counter: RoundTripCounter;

async function data(query: string, headers: Record<string, string>, variables?: Record<string, unknown>): Promise<any> {
  const { body } = await gql(server.url, query, variables, headers);
  if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data;
}

beforeAll(async () => {
  ({ server, counter } = await startCountingTestServer());
  await activateSchema(server.url, SCHEMA);
  const admin = headersOf.admin;
  await data('mutation($input: [AddUserInput!]!) { addUser(input: $input) { numUids } }', admin, { input: USERS.map((username) => ({ username })) });
  await data('mutation($input: [AddTagInput!]!) { addTag(input: $input) { numUids } }', admin, { input: TAGS.map((name) => ({ name })) });
  const input = TASKS.map((task) => ({
    title: task.title,
    ...(task.priority === null ? {} : { priority: task.priority }),
    public: task.public,
    user: { username: task.user },
    tags: task.tags.map((name) => ({ name })),
  }));
  await data('mutation($input: [AddTaskInput!]!) { addTask(input: $input) { numUids } }', admin, { input });
});

afterAll(async () => {
  await server?.close();
});

const viewers: Viewer[] = ['admin', 'anonymous', 'u1'];
const matrix = viewers.flatMap((viewer) => CASES.map((one) => [viewer, one.args || '(no arguments)', one] as const));

test.each(matrix)('as %s, User.tasks%s gives each user its page', async (viewer, _args, one) => {
  const result = await data(`{ queryUser(order: { asc: username }) { username tasks${one.args} { title } } }`, headersOf[viewer]);
  const got = Object.fromEntries(result.queryUser.map((user: any) => [user.username, user.tasks.map((task: any) => task.title)]));
  const expected = Object.fromEntries(USERS.map((username) => [username, expectedPage(viewer, (task) => task.user === username, one)]));
  expect(got).toEqual(expected);
});

test.each(matrix)('as %s, Tag.tasks%s (list inverse) gives each tag its page', async (viewer, _args, one) => {
  const result = await data(`{ queryTag(order: { asc: name }) { name tasks${one.args} { title } } }`, headersOf[viewer]);
  const got = Object.fromEntries(result.queryTag.map((tag: any) => [tag.name, tag.tasks.map((task: any) => task.title)]));
  const expected = Object.fromEntries(TAGS.map((name) => [name, expectedPage(viewer, (task) => task.tags.includes(name), one)]));
  expect(got).toEqual(expected);
});

test('the pages of all parents cost one findPerKey under a plain rule, and the generic find under a rule on a relation', async () => {
  const query = '{ queryUser { tasks(first: 2) { title } } }';
  counter.reset();
  await data(query, headersOf.anonymous);
  expect(counter.byOperation).toEqual({ find: 1, findPerKey: 1 });
  counter.reset();
  await data(query, headersOf.u1);
  expect(counter.byOperation.findPerKey).toBeUndefined();
  expect(counter.count).toBe(2);
});
